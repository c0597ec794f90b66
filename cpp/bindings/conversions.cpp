// Python <-> C++ conversions (declared in conversions.h): dicts, seeds, env
// ids, numpy actions, exceptions.
#include "bindings/conversions.h"

#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <variant>

#include "core/action_check.h"
#include "core/errors.h"
#include "core/random.h"

namespace envpool_x {

namespace {

std::string TypeName(py::handle h) { return py::str(py::type::handle_of(h).attr("__name__")); }

// A list config value from any sequence (list, tuple, numpy array) of
// numbers (T = double) or of strings (T = std::string; a row may also be
// bytes or a sequence of characters, as in numpy's char arrays).
template <typename T>
std::vector<T> ConfigList(const std::string& key, py::handle value, const std::string& got) {
  const char* want = std::is_same_v<T, double> ? "a sequence of numbers" : "a sequence of str";
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
      !py::hasattr(value, "__iter__")) {
    throw TypeError("config key '" + key + "' expects " + want + ", got " + got);
  }
  std::vector<T> out;
  for (py::handle item : py::iter(value)) {
    std::string item_type = TypeName(item);
    auto bad = [&] {
      return TypeError("config key '" + key + "' expects " + want + ", got an item of type " +
                       item_type);
    };
    if constexpr (std::is_same_v<T, double>) {
      if (!py::hasattr(item, "__float__") || py::isinstance<py::str>(item)) throw bad();
      out.push_back(item.cast<double>());
    } else {
      auto chars = [&](py::handle h) -> std::string {
        if (py::isinstance<py::str>(h)) return h.cast<std::string>();
        if (py::isinstance<py::bytes>(h)) return std::string(py::bytes(h.cast<py::object>()));
        throw bad();
      };
      if (py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item)) {
        out.push_back(chars(item));
      } else if (py::hasattr(item, "__iter__")) {
        std::string row;
        for (py::handle ch : py::iter(item)) row += chars(ch);
        out.push_back(row);
      } else {
        throw bad();
      }
    }
  }
  return out;
}

// The element kind of a numpy dtype, for the action validator.
ElementKind KindOf(const py::dtype& dtype) {
  switch (dtype.kind()) {
    case 'i':
      return ElementKind::kSigned;
    case 'u':
      return ElementKind::kUnsigned;
    case 'f':
      return ElementKind::kFloat;
    default:
      return ElementKind::kOther;
  }
}

}  // namespace

py::dtype ToNumpy(DType d) { return py::dtype(DTypeName(d)); }

py::dict ArraySpecToDict(const ArraySpec& s) {
  py::dict d;
  d["name"] = s.name;
  d["dtype"] = DTypeName(s.dtype);
  d["shape"] = py::tuple(py::cast(s.shape));
  d["low"] = s.low;
  d["high"] = s.high;
  d["discrete"] = s.discrete;
  return d;
}

py::dict EnvSpecToDict(const EnvSpec& spec) {
  py::list obs, info;
  for (const ArraySpec& a : spec.obs) obs.append(ArraySpecToDict(a));
  for (const ArraySpec& a : spec.info) info.append(ArraySpecToDict(a));
  py::dict action;
  action["discrete"] = spec.action.discrete;
  action["n"] = spec.action.n;
  if (!spec.action.discrete) action["box"] = ArraySpecToDict(spec.action.box);
  action["nvec"] = spec.action.nvec;
  action["num_agents"] = spec.action.num_agents;
  py::dict d;
  d["obs"] = obs;
  d["info"] = info;
  d["action"] = action;
  d["reward_low"] = spec.reward_low;
  d["reward_high"] = spec.reward_high;
  return d;
}

py::dict ConfigToDict(const Config& c) {
  py::dict d;
  for (const auto& [k, v] : c.values()) {
    std::visit([&](const auto& x) { d[py::str(k)] = x; }, v);
  }
  return d;
}

Config ConfigFromDict(const Config& defaults, const py::dict& overrides) {
  Config c = defaults;
  for (auto item : overrides) {
    std::string key = py::str(item.first);
    py::handle value = item.second;
    if (!defaults.Has(key)) {
      std::string valid;
      for (const auto& kv : defaults.values()) valid += (valid.empty() ? "" : ", ") + kv.first;
      throw KeyError("unknown env config key '" + key +
                     "'; valid keys: " + (valid.empty() ? "(none)" : valid));
    }
    const ConfigValue& def = defaults.Get(key);
    std::string got = TypeName(value);
    if (std::holds_alternative<bool>(def)) {
      if (!py::isinstance<py::bool_>(value) && !py::isinstance<py::int_>(value)) {
        throw TypeError("config key '" + key + "' expects a bool, got " + got);
      }
      c.Set(key, value.cast<bool>());
    } else if (std::holds_alternative<int64_t>(def)) {
      if (py::isinstance<py::float_>(value) || !py::hasattr(value, "__index__")) {
        throw TypeError("config key '" + key + "' expects an int, got " + got);
      }
      c.Set(key, value.cast<int64_t>());
    } else if (std::holds_alternative<double>(def)) {
      if (!py::hasattr(value, "__float__") || py::isinstance<py::str>(value)) {
        throw TypeError("config key '" + key + "' expects a number, got " + got);
      }
      c.Set(key, value.cast<double>());
    } else if (std::holds_alternative<std::vector<double>>(def)) {
      c.Set(key, ConfigList<double>(key, value, got));
    } else if (std::holds_alternative<std::vector<std::string>>(def)) {
      c.Set(key, ConfigList<std::string>(key, value, got));
    } else {
      if (!py::isinstance<py::str>(value)) {
        throw TypeError("config key '" + key + "' expects a str, got " + got);
      }
      c.Set(key, value.cast<std::string>());
    }
  }
  return c;
}

bool ParseSeeds(const py::object& seed, const std::vector<int32_t>& ids,
                std::vector<uint64_t>* out) {
  if (seed.is_none()) return false;
  auto to_u64 = [](py::handle h) -> uint64_t {
    if (py::isinstance<py::bool_>(h) || py::isinstance<py::float_>(h) ||
        !py::hasattr(h, "__index__")) {
      throw TypeError("seed must be an int or a sequence of ints");
    }
    py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
    // No static Python object for the bound: it would be released after the
    // interpreter is gone (a segfault at exit on Python 3.12).
    const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());     // NOLINT(runtime/int)
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {  // NOLINT(runtime/int)
      PyErr_Clear();  // OverflowError: negative or >= 2**64
      throw ValueError("seed must be in [0, 2**64), got " + std::string(py::str(h)));
    }
    return static_cast<uint64_t>(u);
  };
  if (py::hasattr(seed, "__index__") && !py::isinstance<py::array>(seed)) {
    uint64_t s = to_u64(seed);
    out->resize(ids.size());
    for (size_t k = 0; k < ids.size(); ++k) (*out)[k] = DeriveEnvSeed(s, ids[k]);
    return true;
  }
  py::list seq;
  try {
    seq = py::list(seed);
  } catch (const py::error_already_set&) {
    throw TypeError("seed must be an int or a sequence of ints, got " + TypeName(seed));
  }
  if (static_cast<size_t>(py::len(seq)) != ids.size()) {
    throw ValueError("seed list has " + std::to_string(py::len(seq)) + " entries but " +
                     std::to_string(ids.size()) + " envs are being reset");
  }
  out->clear();
  for (py::handle h : seq) out->push_back(to_u64(h));
  return true;
}

py::array_t<int64_t, py::array::c_style> EnvIdArray(const py::object& env_id) {
  py::array arr = py::array::ensure(env_id);
  if (!arr || (arr.dtype().kind() != 'i' && arr.dtype().kind() != 'u')) {
    throw TypeError("env_id must be a sequence of integers, got " + TypeName(env_id) +
                    (arr ? " of dtype " + std::string(py::str(arr.dtype())) : ""));
  }
  if (arr.ndim() == 0) arr = arr.attr("reshape")(1);
  if (arr.ndim() != 1) {
    throw ValueError("env_id must be one-dimensional, got " + std::to_string(arr.ndim()) +
                     " dimensions");
  }
  return py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
}

py::array ActionArray(const py::object& action, const ActionSpec& a, int64_t n) {
  py::array arr = py::array::ensure(action);
  if (!arr) throw TypeError("action must be array-like, got " + TypeName(action));
  CheckActionKind(a, KindOf(arr.dtype()), [&] { return std::string(py::str(arr.dtype())); });
  CheckActionShape(a, std::span<const py::ssize_t>(arr.shape(), arr.ndim()), n);
  return arr;
}

void RegisterExceptions() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const KeyError& e) {
      PyErr_SetString(PyExc_KeyError, e.what());
    } catch (const StateError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const MemoryError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const std::bad_alloc& e) {
      PyErr_SetString(PyExc_MemoryError, (std::string("out of memory (") + e.what() + ")").c_str());
    }
  });
}

}  // namespace envpool_x

// XLA custom calls (JAX's typed FFI) that send actions to a pool and receive
// its results inside a jitted computation, with no Python in between.
//
// Compiled into _core only when CMake found XLA's FFI headers (see
// cmake/xla.cmake); the headers are header-only C++ over a versioned C ABI, so
// nothing of jaxlib is linked. Three targets, all on the CPU platform:
//   envpool_x_send(handle, action[, env_id])  -> handle
//   envpool_x_recv(handle)                     -> handle, field_0, field_1, ...
//   envpool_x_step(handle, action[, env_id])  -> handle, field_0, field_1, ...
// The fields are the pool's output fields in PoolBase's layout order; the
// Python side (python/envpool_x/xla.py) declares their shapes and turns them
// into the same pytree as an eager step. The handle is a uint32 array holding
// the pool's registry number (cpp/bindings/pool_registry.h); returning it
// threads an order through the computation: a recv that takes send's handle
// runs after it.
//
// XLA calls these on its own threads without the GIL, so they use PoolBase
// directly and never touch a Python object. Output dtypes may be narrower
// than the pool's (JAX without x64 turns int64 / float64 into 32 bits): each
// field is converted to the buffer's element type.
#include <pybind11/pybind11.h>

#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "bindings/pool_registry.h"
#include "bindings/py_pool.h"
#include "core/action_check.h"
#include "xla/ffi/api/ffi.h"

namespace envpool_x {
namespace ffi = xla::ffi;

namespace {

const char* DataTypeName(ffi::DataType t) {
  switch (t) {
    case ffi::DataType::PRED:
      return "bool";
    case ffi::DataType::S8:
      return "int8";
    case ffi::DataType::S16:
      return "int16";
    case ffi::DataType::S32:
      return "int32";
    case ffi::DataType::S64:
      return "int64";
    case ffi::DataType::U8:
      return "uint8";
    case ffi::DataType::U16:
      return "uint16";
    case ffi::DataType::U32:
      return "uint32";
    case ffi::DataType::U64:
      return "uint64";
    case ffi::DataType::F16:
      return "float16";
    case ffi::DataType::BF16:
      return "bfloat16";
    case ffi::DataType::F32:
      return "float32";
    case ffi::DataType::F64:
      return "float64";
    default:
      return "an unsupported type";
  }
}

ffi::DataType ToFfi(DType d) {
  switch (d) {
    case DType::kBool:
      return ffi::DataType::PRED;
    case DType::kUInt8:
      return ffi::DataType::U8;
    case DType::kInt8:
      return ffi::DataType::S8;
    case DType::kInt32:
      return ffi::DataType::S32;
    case DType::kInt64:
      return ffi::DataType::S64;
    case DType::kFloat32:
      return ffi::DataType::F32;
    case DType::kFloat64:
      return ffi::DataType::F64;
  }
  return ffi::DataType::INVALID;
}

// Calls fn(T{}) with T the C++ type of an XLA element type we convert from or
// to; returns false for any other type.
template <typename Fn>
bool VisitNumeric(ffi::DataType t, Fn&& fn) {
  switch (t) {
    case ffi::DataType::PRED:
      fn(bool{});
      return true;
    case ffi::DataType::S8:
      fn(int8_t{});
      return true;
    case ffi::DataType::S16:
      fn(int16_t{});
      return true;
    case ffi::DataType::S32:
      fn(int32_t{});
      return true;
    case ffi::DataType::S64:
      fn(int64_t{});
      return true;
    case ffi::DataType::U8:
      fn(uint8_t{});
      return true;
    case ffi::DataType::U16:
      fn(uint16_t{});
      return true;
    case ffi::DataType::U32:
      fn(uint32_t{});
      return true;
    case ffi::DataType::U64:
      fn(uint64_t{});
      return true;
    case ffi::DataType::F32:
      fn(float{});
      return true;
    case ffi::DataType::F64:
      fn(double{});
      return true;
    default:
      return false;
  }
}

// Copies n elements of type `from` at src into dst of type `to`, converting
// with C++ casts (callers only narrow where JAX itself narrowed the dtype).
void ConvertElements(const void* src, ffi::DataType from, void* dst, ffi::DataType to, size_t n) {
  if (from == to) {
    std::memcpy(dst, src, n * ffi::ByteWidth(from));
    return;
  }
  bool converted = false;
  bool known_from = VisitNumeric(from, [&](auto s) {
    using S = decltype(s);
    const S* in = static_cast<const S*>(src);
    converted = VisitNumeric(to, [&](auto d) {
      using D = decltype(d);
      D* out = static_cast<D*>(dst);
      for (size_t k = 0; k < n; ++k) out[k] = static_cast<D>(in[k]);
    });
  });
  if (!known_from || !converted) {
    throw TypeError(std::string("cannot convert ") + DataTypeName(from) + " to " +
                    DataTypeName(to));
  }
}

// The element kind of an XLA buffer, for the action validator.
ElementKind KindOf(ffi::DataType t) {
  switch (t) {
    case ffi::DataType::S8:
    case ffi::DataType::S16:
    case ffi::DataType::S32:
    case ffi::DataType::S64:
      return ElementKind::kSigned;
    case ffi::DataType::U8:
    case ffi::DataType::U16:
    case ffi::DataType::U32:
    case ffi::DataType::U64:
      return ElementKind::kUnsigned;
    case ffi::DataType::F32:
    case ffi::DataType::F64:
      return ElementKind::kFloat;
    default:
      return ElementKind::kOther;
  }
}

}  // namespace

// The GIL-free counterparts of PyPool's send / recv.
struct XlaCall {
  // Runs fn(PyPool&) for the pool named by `handle`, under the pool's
  // one-caller guard, and turns C++ exceptions into XLA errors that JAX raises
  // with the same message.
  template <typename Fn>
  static ffi::Error Run(ffi::AnyBuffer handle, Fn&& fn) {
    if (handle.element_type() != ffi::DataType::U32 || handle.element_count() != 1) {
      return ffi::Error::InvalidArgument(
          "the handle must be the uint32 array that env.xla() returned, got " +
          std::string(DataTypeName(handle.element_type())) + " of shape " +
          ShapeString(handle.dimensions()));
    }
    uint32_t id = *static_cast<const uint32_t*>(handle.untyped_data());
    try {
      bool found = PoolRegistry::Get().With(id, [&](PyPool& p) {
        PyPool::Guard guard(&p);
        t_waiting_outside_python = true;
        try {
          fn(p);
        } catch (...) {
          t_waiting_outside_python = false;
          throw;
        }
        t_waiting_outside_python = false;
      });
      if (!found) {
        return ffi::Error(ffi::ErrorCode::kFailedPrecondition,
                          "the handle names no live env (was the env deleted?)");
      }
    } catch (const ValueError& e) {
      return ffi::Error::InvalidArgument(e.what());
    } catch (const TypeError& e) {
      return ffi::Error::InvalidArgument(e.what());
    } catch (const KeyError& e) {
      return ffi::Error::InvalidArgument(e.what());
    } catch (const StateError& e) {
      return ffi::Error(ffi::ErrorCode::kFailedPrecondition, e.what());
    } catch (const std::exception& e) {
      return ffi::Error::Internal(e.what());
    }
    return ffi::Error::Success();
  }

  // Validates and stores the actions of one send; returns the env ids.
  static const std::vector<int32_t>& StoreActions(PoolBase& pool, ffi::AnyBuffer action,
                                                  ffi::RemainingArgs rest) {
    thread_local std::vector<uint8_t> scratch;  // converted actions
    const std::vector<int32_t>* ids;
    if (rest.size() == 0) {
      ids = &pool.ResolveIds(nullptr, 0, false);
    } else {
      auto env_id = rest.get<ffi::AnyBuffer>(0);
      if (!env_id.has_value()) throw ValueError("env_id must be an array");
      std::vector<int64_t> wide(env_id->element_count());
      ffi::DataType t = env_id->element_type();
      if (t != ffi::DataType::S32 && t != ffi::DataType::S64 && t != ffi::DataType::U32) {
        throw TypeError(std::string("env_id must hold integers, got ") + DataTypeName(t));
      }
      ConvertElements(env_id->untyped_data(), t, wide.data(), ffi::DataType::S64, wide.size());
      ids = &pool.ResolveIds(wide.data(), static_cast<int64_t>(wide.size()), true);
    }
    const ActionSpec& a = pool.spec().action;
    const size_t n = ids->size();
    const size_t count = n * static_cast<size_t>(a.NumElements());
    CheckActionCount(a, action.dimensions(), static_cast<int64_t>(n));
    ffi::DataType want = a.discrete ? ffi::DataType::S32 : ffi::DataType::F32;
    ffi::DataType got = action.element_type();
    const void* data = action.untyped_data();
    if (got != want) {
      CheckActionKind(a, KindOf(got), [got] { return DataTypeName(got); });
      if (a.discrete) {
        const size_t m = static_cast<size_t>(a.NumElements());  // values per env
        std::vector<int64_t> wide(count);
        ConvertElements(data, got, wide.data(), ffi::DataType::S64, count);
        for (size_t k = 0; k < count; ++k) CheckDiscreteElement(a, wide[k], (*ids)[k / m], k % m);
      }
      scratch.resize(count * 4);
      ConvertElements(data, got, scratch.data(), want, count);
      data = scratch.data();
    }
    pool.StoreActions(*ids, data);
    return *ids;
  }

  // Copies batch b into the result buffers rets[1 ...] (rets[0] is the handle).
  static void WriteBatch(PoolBase& pool, const Batch& b, ffi::RemainingRets rets) {
    const auto& fields = pool.fields();
    for (size_t f = 0; f < fields.size(); ++f) {
      ffi::AnyBuffer out = Ret(rets, f + 1);
      size_t n = static_cast<size_t>(b.count) * fields[f].NumElements();
      CheckResult(fields[f], out, n);
      if (out.untyped_data() == static_cast<const void*>(b.data[f])) continue;  // written there
      ConvertElements(b.data[f], ToFfi(fields[f].dtype), out.untyped_data(), out.element_type(), n);
    }
  }

  static ffi::AnyBuffer Ret(ffi::RemainingRets rets, size_t k) {
    auto r = rets.get<ffi::AnyBuffer>(k);
    if (!r.has_value()) throw ValueError("missing result buffer " + std::to_string(k));
    return **r;
  }

  static void CheckResult(const ArraySpec& field, ffi::AnyBuffer out, size_t n) {
    if (out.element_count() != n) {
      throw ValueError("result '" + field.name + "' has " + std::to_string(out.element_count()) +
                       " elements but the batch has " + std::to_string(n) +
                       " (the pytree from env.xla() must match this env's batch_size)");
    }
  }

  static void CopyHandle(ffi::AnyBuffer in, ffi::AnyBuffer out) {
    std::memcpy(out.untyped_data(), in.untyped_data(), sizeof(uint32_t));
  }

  static ffi::Error Send(ffi::AnyBuffer handle, ffi::AnyBuffer action, ffi::RemainingArgs rest,
                         ffi::Result<ffi::AnyBuffer> handle_out) {
    return Run(handle, [&](PyPool& p) {
      PoolBase& pool = p.pool();
      const std::vector<int32_t>& ids = StoreActions(pool, action, rest);
      pool.SendStep(ids);
      CopyHandle(handle, *handle_out);
    });
  }

  static ffi::Error Recv(ffi::AnyBuffer handle, ffi::RemainingRets rets) {
    return Run(handle, [&](PyPool& p) {
      PoolBase& pool = p.pool();
      pool.CheckOpen();
      CheckRetCount(pool, rets);
      Batch b = pool.Recv(true);
      WriteBatch(pool, b, rets);
      CopyHandle(handle, Ret(rets, 0));
    });
  }

  static ffi::Error Step(ffi::AnyBuffer handle, ffi::AnyBuffer action, ffi::RemainingArgs rest,
                         ffi::RemainingRets rets) {
    return Run(handle, [&](PyPool& p) {
      PoolBase& pool = p.pool();
      pool.CheckOpen();
      CheckRetCount(pool, rets);
      const std::vector<int32_t>& ids = StoreActions(pool, action, rest);
      // Sync step of every env: the envs write straight into XLA's result
      // buffers when their element types are the pool's own (no copy).
      if (pool.ordered() && pool.pending() == 0 &&
          ids.size() == static_cast<size_t>(pool.options().num_envs)) {
        std::vector<uint8_t*> bases;
        const auto& fields = pool.fields();
        for (size_t f = 0; f < fields.size(); ++f) {
          ffi::AnyBuffer out = Ret(rets, f + 1);
          CheckResult(fields[f], out, ids.size() * fields[f].NumElements());
          if (out.element_type() != ToFfi(fields[f].dtype)) break;
          bases.push_back(static_cast<uint8_t*>(out.untyped_data()));
        }
        // Safe: from here on nothing throws before Recv has put the pool's
        // own buffers back (no interrupt checks on this thread).
        if (bases.size() == fields.size()) pool.WriteNextRoundTo(bases);
      }
      pool.SendStepForRecv(ids);
      Batch b = pool.Recv(true);
      WriteBatch(pool, b, rets);
      CopyHandle(handle, Ret(rets, 0));
    });
  }

  static void CheckRetCount(PoolBase& pool, ffi::RemainingRets rets) {
    if (rets.size() != pool.fields().size() + 1) {
      throw ValueError("expected " + std::to_string(pool.fields().size() + 1) +
                       " results (handle and fields), got " + std::to_string(rets.size()));
    }
  }
};

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolXSend, XlaCall::Send,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .RemainingArgs()
                                  .Ret<ffi::AnyBuffer>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolXRecv, XlaCall::Recv,
                              ffi::Ffi::Bind().Arg<ffi::AnyBuffer>().RemainingRets());
XLA_FFI_DEFINE_HANDLER_SYMBOL(
    EnvpoolXStep, XlaCall::Step,
    ffi::Ffi::Bind().Arg<ffi::AnyBuffer>().Arg<ffi::AnyBuffer>().RemainingArgs().RemainingRets());

void BindXla(py::module_& m) {
  m.def(
      "xla_targets",
      [] {
        py::dict d;
        d["envpool_x_send"] = py::capsule(reinterpret_cast<void*>(EnvpoolXSend));
        d["envpool_x_recv"] = py::capsule(reinterpret_cast<void*>(EnvpoolXRecv));
        d["envpool_x_step"] = py::capsule(reinterpret_cast<void*>(EnvpoolXStep));
        return d;
      },
      "The XLA FFI handlers (name -> PyCapsule) for jax.ffi.register_ffi_target.");
  m.attr("xla_ffi_api_version") =
      py::make_tuple(XLA_FFI_API_MAJOR, XLA_FFI_API_MINOR);  // of the headers built against
}

}  // namespace envpool_x

// BindEnv<Env>: registers the CPU pool class of one env type, named
// Env::kName, over PyPool (py_pool.h), with the env's static calls
// (default_config, env_spec, raw_loop). No env logic lives here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/conversions.h"
#include "bindings/param_conversions.h"
#include "bindings/py_pool.h"
#include "core/env_pool.h"
#include "core/param_store.h"
#include "core/params.h"
#include "core/pool_options.h"
#include "core/random.h"
#include "core/raw_loop.h"

namespace envpool_x {

// A pool's per-env seeds: an int base seed (env i gets DeriveEnvSeed(seed,
// i), derived here so that a huge pool needs no Python list of seeds) or one
// seed per env.
inline std::vector<uint64_t> PoolSeeds(const py::object& env_seeds, int num_envs) {
  std::vector<uint64_t> seeds;
  if (py::isinstance<py::int_>(env_seeds) && !py::isinstance<py::bool_>(env_seeds)) {
    const uint64_t base = env_seeds.cast<uint64_t>();
    seeds.resize(static_cast<size_t>(std::max(num_envs, 0)));
    for (int i = 0; i < num_envs; ++i) seeds[i] = DeriveEnvSeed(base, i);
    return seeds;
  }
  return env_seeds.cast<std::vector<uint64_t>>();
}

// The pool options of the arguments every pool class's constructor takes.
inline PoolOptions MakePoolOptions(int num_envs, int batch_size, int num_threads,
                                   int thread_affinity_offset, int max_episode_steps,
                                   const std::string& autoreset_mode, int chunk_size) {
  PoolOptions opt;
  opt.num_envs = num_envs;
  opt.batch_size = batch_size;
  opt.num_threads = num_threads;
  opt.thread_affinity_offset = thread_affinity_offset;
  opt.max_episode_steps = max_episode_steps;
  opt.autoreset = ParseAutoresetMode(autoreset_mode);
  opt.chunk_size = chunk_size;
  return opt;
}

// pybind11 needs one C++ type per Python class.
template <typename Env>
class TypedPyPool final : public PyPool {
 public:
  using PyPool::PyPool;
};

template <typename P>
void DefPoolMethods(py::class_<P>& cls);

// The checked ids of `env_id` (None: all), as a copy.
template <typename P>
std::vector<int32_t> ParamIds(P& p, const py::object& env_id) {
  if (env_id.is_none()) return p.pool().ResolveIds(nullptr, 0, false);
  auto ids = EnvIdArray(env_id);
  return p.pool().ResolveIds(ids.data(), ids.size(), true);
}

// What a family learns of each env type it binds, before its class is made:
// nothing, unless the family specialises this for its envs (Meta-World's task
// sets make their tasks by name from the ones bound).
template <typename Env, typename = void>
struct OnBindEnv {
  static void Run() {}
};

// Registers the pool class of env type Env in module m, named Env::kName.
template <typename Env>
void BindEnv(py::module_& m) {
  OnBindEnv<Env>::Run();
  using P = TypedPyPool<Env>;
  py::class_<P>(m, Env::kName)
      .def(py::init([](const py::dict& env_config, int num_envs, int batch_size, int num_threads,
                       int thread_affinity_offset, int max_episode_steps,
                       const std::string& autoreset_mode, const py::object& env_seeds,
                       int chunk_size) {
             PoolOptions opt =
                 MakePoolOptions(num_envs, batch_size, num_threads, thread_affinity_offset,
                                 max_episode_steps, autoreset_mode, chunk_size);
             Config cfg = ConfigFromDict(Env::DefaultConfig(), env_config);
             const std::string what =
                 "a pool of " + std::to_string(num_envs) + " " + Env::kName + " envs";
             return BuildOrMemoryError(what, [&] {
               opt.env_seeds = PoolSeeds(env_seeds, num_envs);
               // Without the GIL: envs are built on several threads, and a
               // library may have pointed a process-wide C callback at Python
               // (dm_control logs MuJoCo's warnings through a ctypes callback),
               // which a builder thread could only run if this thread let go
               // of the GIL.
               std::unique_ptr<EnvPool<Env>> pool;
               {
                 py::gil_scoped_release nogil;
                 pool = std::make_unique<EnvPool<Env>>(cfg, opt);
               }
               return std::make_unique<P>(std::move(pool));
             });
           }),
           py::arg("env_config"), py::arg("num_envs"), py::arg("batch_size"),
           py::arg("num_threads"), py::arg("thread_affinity_offset"), py::arg("max_episode_steps"),
           py::arg("autoreset_mode"), py::arg("env_seeds"), py::arg("chunk_size") = 0)
      .def_static(
          "memory_sizes",
          [] {
            py::dict d;
            d["env"] = sizeof(Env);
            d["stepped_in_parts"] = EnvPool<Env>::kSteppedInParts;
            d["cheap"] = Env::kCheap;
            // The per-env parameter tables once made (by the first set_params;
            // a Choice's list of values comes on top).
            const auto num_params = static_cast<int64_t>(ParamSpecsOf<Env>().size());
            d["params_per_env"] = num_params == 0 ? 0 : ParamStore::BytesPerEnv(num_params);
            return d;
          },
          "sizeof(Env), how the pool runs it and its parameter tables' bytes per env "
          "(what envpool_x.memory needs from C++).")
      .def_static(
          "bookkeeping_bytes",
          [](int64_t num_envs, int64_t batch_size, int64_t num_threads, int64_t action_bytes) {
            return PoolBase::BookkeepingBytes(num_envs, batch_size, num_threads, action_bytes,
                                              EnvPool<Env>::kSteppedInParts);
          },
          py::arg("num_envs"), py::arg("batch_size"), py::arg("num_threads"),
          py::arg("action_bytes"),
          "Heap bytes of the pool's bookkeeping (queues, per-env state, actions, seeds), "
          "beside the envs and the output rows.")
      .def_static("default_config", [] { return ConfigToDict(Env::DefaultConfig()); })
      .def_static(
          "param_copy_bytes",
          [](const py::dict& cfg) {
            return ParamCopyBytesOf<Env>(ConfigFromDict(Env::DefaultConfig(), cfg));
          },
          "Bytes one env of this config takes while its parameters differ from the pool's "
          "(its own model arrays: MuJoCo, DeepMind Control), 0 where none.")
      .def_static(
          "param_specs", [] { return ParamSpecsToList(ParamSpecsOf<Env>()); },
          "The per-env parameters (docs/params.md): dicts of name, low, high, mid_episode.")
      .def_static("env_spec",
                  [](const py::dict& cfg) {
                    const Config config = ConfigFromDict(Env::DefaultConfig(), cfg);
                    ParamValuesOf(ParamSpecsOf<Env>(), config);  // in their ranges
                    return EnvSpecToDict(Env::Spec(config));
                  })
      .def_static(
          "raw_loop",
          [](const py::dict& cfg, int num_envs, int64_t steps, uint64_t seed,
             int max_episode_steps) {
            // The config is read from the dict before the GIL is released.
            Config config = ConfigFromDict(Env::DefaultConfig(), cfg);
            py::gil_scoped_release nogil;
            return RawLoopSeconds<Env>(config, num_envs, steps, seed, max_episode_steps);
          },
          py::arg("env_config"), py::arg("num_envs"), py::arg("steps"), py::arg("seed") = 0,
          py::arg("max_episode_steps") = 0,
          "(seconds, episodes): the seconds one thread takes for `steps` env steps "
          "round-robin over num_envs envs in a plain C++ loop (no pool), the raw rate "
          "benchmarks compare against, and how many episodes ended meanwhile. An env "
          "resets when terminated or, if max_episode_steps > 0, after that many steps.");
  auto cls = py::reinterpret_borrow<py::class_<P>>(m.attr(Env::kName));
  DefPoolMethods(cls);
}

// The methods every pool class has (P derives from PyPool): the protocol,
// state access and the counters the tests and benchmarks read.
template <typename P>
void DefPoolMethods(py::class_<P>& cls) {
  cls.def_property_readonly("fields", [](P& p) { return p.Fields(); })
      .def_property_readonly("num_threads", [](P& p) { return p.pool().options().num_threads; })
      .def_property_readonly("pending", [](P& p) { return p.pool().pending(); })
      .def_property_readonly("caller_steps", [](P& p) { return p.pool().caller_steps(); })
      .def_property_readonly("worker_steps", [](P& p) { return p.pool().worker_steps(); })
      .def_property_readonly("pair_steals", [](P& p) { return p.pool().pair_steals(); })
      .def_property_readonly("closed", [](P& p) { return p.pool().closed(); })
      .def("xla_handle", [](P& p) { return p.Handle(); })
      .def("send_step", static_cast<decltype(&PyPool::SendStep)>(&PyPool::SendStep),
           py::arg("action"), py::arg("env_id") = py::none())
      .def("send_reset", static_cast<decltype(&PyPool::SendReset)>(&PyPool::SendReset),
           py::arg("env_id") = py::none(), py::arg("seed") = py::none())
      .def("recv", static_cast<decltype(&PyPool::Recv)>(&PyPool::Recv))
      .def("step", static_cast<decltype(&PyPool::Step)>(&PyPool::Step), py::arg("action"),
           py::arg("env_id") = py::none())
      .def("reset", static_cast<decltype(&PyPool::Reset)>(&PyPool::Reset),
           py::arg("env_id") = py::none(), py::arg("seed") = py::none())
      .def("close", static_cast<decltype(&PyPool::Close)>(&PyPool::Close))
      .def("get_state", static_cast<decltype(&PyPool::GetState)>(&PyPool::GetState))
      .def_property_readonly("render_shape",
                             [](P& p) {
                               const std::array<int, 2> s = p.pool().RenderShape();
                               return py::make_tuple(s[0], s[1]);
                             })
      .def("render", static_cast<decltype(&PyPool::Render)>(&PyPool::Render),
           py::arg("env_id") = py::none())
      .def("set_state", static_cast<decltype(&PyPool::SetState)>(&PyPool::SetState))
      .def(
          "set_params",
          [](P& p, const py::object& env_id, const py::dict& settings, bool immediate,
             bool require_idle) {
            PyPool::Guard g(&p);
            std::vector<int32_t> ids = ParamIds(p, env_id);
            std::vector<std::string> names;
            std::vector<std::vector<ParamSetting>> values;
            for (auto item : settings) {
              names.push_back(item.first.cast<std::string>());
              values.push_back(ParamSettingsOf(item.second.cast<py::tuple>()));
            }
            p.pool().SetParams(ids, names, values, immediate, require_idle);
          },
          py::arg("env_id"), py::arg("settings"), py::arg("immediate") = false,
          py::arg("require_idle") = false)
      .def(
          "get_params",
          [](P& p, const py::object& env_id) {
            PyPool::Guard g(&p);
            std::vector<int32_t> ids = ParamIds(p, env_id);
            const size_t n = p.pool().param_specs().size();
            std::vector<double> values = p.pool().GetParams(ids);
            py::array_t<double> out({ids.size(), n});
            std::copy(values.begin(), values.end(), out.mutable_data());
            return out;
          },
          py::arg("env_id") = py::none(),
          "(len(env_id), parameters) float64: the values each env runs with now.")
      .def("profile_rounds", static_cast<decltype(&PyPool::ProfileRounds)>(&PyPool::ProfileRounds),
           py::arg("on") = true,
           "Starts (on=True) or stops timing the sync rounds; either way the totals restart.")
      .def("round_profile",
           static_cast<decltype(&PyPool::RoundProfileSummary)>(&PyPool::RoundProfileSummary),
           "Mean microseconds per round of each part of the rounds timed so far "
           "(core/round_profile.h).");
}

}  // namespace envpool_x

// The extension module envpool_x._core: one Bind<Family> call per family.
#include <cstdint>
#include <vector>

#include "bindings/conversions.h"
#include "core/autoreset.h"
#include "core/env_ids.h"
#include "core/random.h"
#include "core/raw_loop.h"
#include "core/result_fields.h"
#include "core/stream_rows.h"

namespace envpool_x {
void BindClassicControl(py::module_& m);
void BindTesting(py::module_& m);
void BindToyText(py::module_& m);
void BindCombinatorial(py::module_& m);
void BindMiniGrid(py::module_& m);  // cpp/bindings/minigrid.cpp, with ENVPOOL_X_GRID_WORLDS
void BindBabyAI(py::module_& m);    // cpp/bindings/babyai.cpp, with ENVPOOL_X_GRID_WORLDS
// cpp/bindings/multi_agent.cpp: WarpDrive's Tag envs.
void BindMultiAgent(py::module_& m);
void BindAtari(py::module_& m);      // cpp/bindings/atari.cpp, with ENVPOOL_X_ATARI
void BindMujoco(py::module_& m);     // cpp/bindings/mujoco.cpp, with ENVPOOL_X_MUJOCO
void BindDmc(py::module_& m);        // cpp/bindings/dmc.cpp, with ENVPOOL_X_DMC
void BindMetaWorld(py::module_& m);  // cpp/bindings/metaworld.cpp, with ENVPOOL_X_METAWORLD
void BindRobotics(py::module_& m);   // cpp/bindings/robotics.cpp, with ENVPOOL_X_ROBOTICS
void BindBox2d(py::module_& m);      // cpp/bindings/box2d.cpp, with ENVPOOL_X_BOX2D
void BindProcgen(py::module_& m);    // cpp/bindings/procgen.cpp, with ENVPOOL_X_PROCGEN
void BindCraftax(py::module_& m);    // cpp/bindings/craftax.cpp, with ENVPOOL_X_CRAFTAX
void BindXla(py::module_& m);        // cpp/bindings/xla.cpp, when XLA's FFI headers were found
// cpp/bindings/cuda_pool.cpp: the GPU path (and its host loop, device="cpu-reference").
void BindCudaPool(py::module_& m);
// cpp/bindings/user_envs.cpp: numba envs and C++ envs compiled by the user.
void BindUserEnvs(py::module_& m);
// cpp/bindings/render.cpp: frames drawn from a state (classic control).
void BindRender(py::module_& m);
}  // namespace envpool_x

PYBIND11_MODULE(_core, m) {
  m.doc() = "envpool_x C++ engine";
  envpool_x::RegisterExceptions();
  envpool_x::BindClassicControl(m);
  envpool_x::BindToyText(m);
  envpool_x::BindCombinatorial(m);
  envpool_x::BindMultiAgent(m);
  envpool_x::BindTesting(m);
  envpool_x::BindCudaPool(m);
  envpool_x::BindUserEnvs(m);
  envpool_x::BindRender(m);
#ifdef ENVPOOL_X_WITH_ATARI
  envpool_x::BindAtari(m);
#endif
#ifdef ENVPOOL_X_WITH_MUJOCO
  envpool_x::BindMujoco(m);
#endif
#ifdef ENVPOOL_X_WITH_DMC
  envpool_x::BindDmc(m);
#endif
#ifdef ENVPOOL_X_WITH_METAWORLD
  envpool_x::BindMetaWorld(m);
#endif
#ifdef ENVPOOL_X_WITH_ROBOTICS
  envpool_x::BindRobotics(m);
#endif
#ifdef ENVPOOL_X_WITH_GRID_WORLDS
  envpool_x::BindMiniGrid(m);
  envpool_x::BindBabyAI(m);
#endif
#ifdef ENVPOOL_X_WITH_BOX2D
  envpool_x::BindBox2d(m);
#endif
#ifdef ENVPOOL_X_WITH_PROCGEN
  envpool_x::BindProcgen(m);
#endif
#ifdef ENVPOOL_X_WITH_CRAFTAX
  envpool_x::BindCraftax(m);
#endif
#ifdef ENVPOOL_X_WITH_XLA
  envpool_x::BindXla(m);
#endif
  m.def(
      "derive_env_seed",
      [](uint64_t seed, uint64_t env_id) { return envpool_x::DeriveEnvSeed(seed, env_id); },
      "The seed env `env_id` gets when the pool is seeded with the integer `seed`.");
  m.def(
      "pool_seed_of",
      [](uint64_t env_seed, uint64_t env_id) { return envpool_x::PoolSeedOf(env_seed, env_id); },
      "derive_env_seed's inverse: the pool seed that gives env `env_id` the seed `env_seed`.");
  m.def(
      "philox_uniform",
      [](uint64_t key, uint64_t start, int n) {
        envpool_x::Rng rng(key);
        for (uint64_t i = 0; i < start; ++i) rng.NextU64();
        std::vector<double> out(n);
        for (int i = 0; i < n; ++i) out[i] = rng.Uniform();
        return out;
      },
      "Draws n uniforms from the stream `key` starting at draw `start` (for tests).");
  m.attr("stream_output_bytes") = envpool_x::kStreamOutputBytes;
  m.def("raw_loop_actions", &envpool_x::RawLoopDiscreteActions, pybind11::arg("n"),
        pybind11::arg("seed"),
        "The discrete actions the raw loops (raw_loop, atari_act_loop) cycle through.");
  // The pools' own id and seed rules, for backends written in Python
  // (envpool_x.backends.checks): one set of rules and messages.
  m.def(
      "check_env_ids",
      [](const pybind11::object& env_id, int num_envs) {
        auto ids = envpool_x::EnvIdArray(env_id);
        envpool_x::EnvIdSet set(num_envs);
        const std::vector<int32_t>& checked = set.Check(ids.data(), ids.size());
        return pybind11::array_t<int32_t>(static_cast<pybind11::ssize_t>(checked.size()),
                                          checked.data());
      },
      pybind11::arg("env_id"), pybind11::arg("num_envs"),
      "env_id as checked int32 ids: integers, 1-d, not empty, in [0, num_envs), no repeats.");
  m.def(
      "check_seeds",
      [](const pybind11::object& seed, int num_ids) -> pybind11::object {
        std::vector<int32_t> ids(num_ids);
        for (int i = 0; i < num_ids; ++i) ids[i] = i;
        std::vector<uint64_t> seeds;
        if (!envpool_x::ParseSeeds(seed, ids, &seeds)) return pybind11::none();
        return pybind11::cast(seeds);
      },
      pybind11::arg("seed"), pybind11::arg("num_ids"),
      "The seeds of a reset of num_ids envs (an int derived per env 0..num_ids-1, or one "
      "per env), checked as the pools check them; None for no seed.");
  // The constants every backend shares, so Python (and the MuJoCo Warp
  // kernels) read them instead of spelling them again.
  m.def(
      "autoreset_modes",
      [] {
        pybind11::dict d;
        for (const auto& entry : envpool_x::kAutoresetModeNames) {
          d[entry.name] = static_cast<int32_t>(entry.mode);
        }
        return d;
      },
      "{autoreset_mode name: the AutoresetMode value every backend uses}.");
  m.def(
      "result_field_names",
      [] {
        pybind11::dict d;
        for (const auto& n : envpool_x::result_fields::kAll) d[n.key] = n.name;
        return d;
      },
      "The result fields' names and prefixes (cpp/core/result_fields.h), by role.");
}

// The extension module envpool_x._core: one Bind<Family> call per family.
#include <cstdint>
#include <vector>

#include "bindings/conversions.h"
#include "bindings/raw_loop.h"
#include "core/random.h"

namespace envpool_x {
void BindClassicControl(py::module_& m);
void BindTesting(py::module_& m);
void BindToyText(py::module_& m);
void BindCombinatorial(py::module_& m);
void BindMiniGrid(py::module_& m);  // cpp/bindings/minigrid.cpp, with ENVPOOL_X_GRID_WORLDS
void BindBabyAI(py::module_& m);    // cpp/bindings/babyai.cpp, with ENVPOOL_X_GRID_WORLDS
// cpp/bindings/multi_agent.cpp: WarpDrive's Tag envs.
void BindMultiAgent(py::module_& m);
void BindAtari(py::module_& m);   // cpp/bindings/atari.cpp, with ENVPOOL_X_ATARI
void BindMujoco(py::module_& m);  // cpp/bindings/mujoco.cpp, with ENVPOOL_X_MUJOCO
void BindDmc(py::module_& m);     // cpp/bindings/dmc.cpp, with ENVPOOL_X_DMC
void BindBox2d(py::module_& m);   // cpp/bindings/box2d.cpp, with ENVPOOL_X_BOX2D
void BindXla(py::module_& m);     // cpp/bindings/xla.cpp, when XLA's FFI headers were found
// cpp/bindings/batched.cpp: the GPU path (and its host loop, device="cpu-reference").
void BindBatched(py::module_& m);
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
  envpool_x::BindBatched(m);
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
#ifdef ENVPOOL_X_WITH_GRID_WORLDS
  envpool_x::BindMiniGrid(m);
  envpool_x::BindBabyAI(m);
#endif
#ifdef ENVPOOL_X_WITH_BOX2D
  envpool_x::BindBox2d(m);
#endif
#ifdef ENVPOOL_X_WITH_XLA
  envpool_x::BindXla(m);
#endif
  m.def(
      "derive_env_seed",
      [](uint64_t seed, uint64_t env_id) { return envpool_x::DeriveEnvSeed(seed, env_id); },
      "The seed env `env_id` gets when the pool is seeded with the integer `seed`.");
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
  m.def("raw_loop_actions", &envpool_x::RawLoopDiscreteActions, pybind11::arg("n"),
        pybind11::arg("seed"),
        "The discrete actions the raw loops (raw_loop, atari_act_loop) cycle through.");
}

"""A user's C++ env that throws something not derived from std::exception
(`throw 42;`) from any of its calls: the error names the env and says what was
thrown, the env's episode ends (it resets on its next step) and the pool stays
usable, in sync and async mode; no thread dies of it (the process would abort)."""

from __future__ import annotations

import os
import uuid

import numpy as np
import pytest

import envpool_x

# Throws 42 from `throw_in` ("Step", "Reset", "Ctor", "GetState" or "Render")
# on the throw_at-th such call of env throw_env (-1: every env).
SOURCE = r"""
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/env.h"

class Thrower {
 public:
  static constexpr const char* kName = "Thrower";
  static constexpr bool kCheap = true;
  static constexpr int kRenderHeight = 2;
  static constexpr int kRenderWidth = 3;

  static envpool_x::Config DefaultConfig() {
    return envpool_x::Config{{"throw_in", std::string()},
                             {"throw_env", int64_t{-1}},
                             {"throw_at", int64_t{1}}};
  }
  static envpool_x::EnvSpec Spec(const envpool_x::Config&) {
    envpool_x::EnvSpec spec;
    spec.obs.push_back(envpool_x::ArraySpec{"obs", envpool_x::DType::kFloat32, {1}, {}, {}});
    spec.action.discrete = true;
    spec.action.n = 2;
    return spec;
  }
  Thrower(const envpool_x::Config& c, const envpool_x::EnvSpec& spec)
      : where_(c.String("throw_in")),
        env_(c.Int("throw_env")),
        at_(c.Int("throw_at")),
        obs_(envpool_x::ObsField<float>(spec, "obs")) {
    if (where_ == "Ctor") throw 42;
  }
  void SetEnvId(int id) { id_ = id; }

  void Reset(envpool_x::Rng&, const envpool_x::StepOutput& out) {
    Maybe("Reset", &resets_);
    steps_ = 0;
    *out[obs_] = 0.0f;
  }
  void Step(const void*, envpool_x::Rng&, const envpool_x::StepOutput& out) {
    Maybe("Step", &step_calls_);
    *out[obs_] = static_cast<float>(++steps_);
    *out.reward = 1.0f;
  }
  std::vector<double> GetState() const {
    if (where_ == "GetState") throw 42;
    return {static_cast<double>(steps_)};
  }
  void SetState(const std::vector<double>& s) { steps_ = static_cast<int64_t>(s.at(0)); }
  void Render(uint8_t* rgb) {
    if (where_ == "Render") throw 42;
    std::memset(rgb, 7, kRenderHeight * kRenderWidth * 3);
  }

 private:
  void Maybe(const char* call, int64_t* count) {
    if (where_ == call && (env_ < 0 || env_ == id_) && ++*count == at_) throw 42;
  }
  std::string where_;
  int64_t env_, at_;
  int id_ = -1;
  int64_t resets_ = 0, step_calls_ = 0, steps_ = 0;
  envpool_x::OutputField<float> obs_;
};
"""

NON_STANDARD = "threw a non-standard C\\+\\+ exception"


@pytest.fixture(scope="module")
def task(tmp_path_factory) -> str:
    cache = tmp_path_factory.mktemp("envpool_x_cache")
    old = os.environ.get("ENVPOOL_X_CACHE_DIR")
    os.environ["ENVPOOL_X_CACHE_DIR"] = str(cache)
    name = f"Thrower-{uuid.uuid4().hex[:8]}-v0"
    try:
        envpool_x.register_cpp_env(name, SOURCE, "Thrower", max_episode_steps=100)
    finally:
        if old is None:
            del os.environ["ENVPOOL_X_CACHE_DIR"]
        else:
            os.environ["ENVPOOL_X_CACHE_DIR"] = old
    return name


def test_sync_step_names_the_env_and_the_pool_recovers(task):
    env = envpool_x.make_gymnasium(task, num_envs=4, throw_in="Step", throw_env=1, throw_at=2)
    env.reset()
    env.step(np.zeros(4, dtype=np.int32))
    with pytest.raises(RuntimeError, match=f"env 1 raised an error: Thrower's Step {NON_STANDARD}"):
        env.step(np.zeros(4, dtype=np.int32))
    # Nothing is left in flight, and env 1 starts a new episode on its next step.
    _, _, _, _, info = env.step(np.zeros(4, dtype=np.int32))
    np.testing.assert_array_equal(info["elapsed_step"], [3, 0, 3, 3])
    _, _, _, _, info = env.step(np.zeros(4, dtype=np.int32))
    np.testing.assert_array_equal(info["elapsed_step"], [4, 1, 4, 4])
    env.close()


def test_async_recv_reports_it_and_no_thread_dies(task):
    env = envpool_x.make_gymnasium(
        task, num_envs=4, batch_size=2, num_threads=2, throw_in="Step", throw_env=1, throw_at=2
    )
    env.async_reset()
    for _ in range(20):
        try:
            _, _, _, _, info = env.recv()
        except RuntimeError as e:
            assert "env 1 raised an error: Thrower's Step threw a non-standard" in str(e)
            break
        env.send(np.zeros(2, dtype=np.int32), info["env_id"])
    else:
        pytest.fail("the env's error never reached recv()")
    env.recv()  # the other batch in flight still arrives
    env.async_reset()  # every env is free again
    ids = np.concatenate([env.recv()[4]["env_id"] for _ in range(2)])
    assert sorted(ids.tolist()) == [0, 1, 2, 3]
    env.close()


def test_a_failed_reset_ends_in_a_clear_error_and_the_next_step_resets(task):
    env = envpool_x.make_gymnasium(task, num_envs=2, throw_in="Reset", throw_env=0, throw_at=1)
    with pytest.raises(
        RuntimeError, match=f"env 0 raised an error: Thrower's Reset {NON_STANDARD}"
    ):
        env.reset()
    with pytest.raises(RuntimeError, match="env 0 has no state: its last reset raised an error"):
        env.get_state(0)
    _, _, _, _, info = env.step(np.zeros(2, dtype=np.int32))  # env 0 resets (second reset)
    np.testing.assert_array_equal(info["elapsed_step"], [0, 1])
    assert env.get_state(0).tolist() == [0.0]
    env.close()


def test_constructor_state_and_frames(task):
    with pytest.raises(RuntimeError, match=f"env 0: Thrower's constructor {NON_STANDARD}"):
        envpool_x.make_gymnasium(task, num_envs=3, throw_in="Ctor")
    env = envpool_x.make_gymnasium(task, num_envs=2, throw_in="GetState")
    env.reset()
    with pytest.raises(RuntimeError, match=f"env 1: Thrower's GetState {NON_STANDARD}"):
        env.get_state(1)
    env.step(np.zeros(2, dtype=np.int32))  # still usable
    env.close()
    env = envpool_x.make_gymnasium(task, num_envs=2, throw_in="Render")
    env.reset()
    with pytest.raises(RuntimeError, match=f"env 0: Thrower's Render {NON_STANDARD}"):
        env._pool.render(np.array([0], dtype=np.int32))
    env.step(np.zeros(2, dtype=np.int32))
    env.close()

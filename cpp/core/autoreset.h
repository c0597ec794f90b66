// The autoreset modes every backend implements (the CPU pool, the CUDA
// stepper, MuJoCo Warp through _core.autoreset_modes()), their one table of
// names, and the episode rules around a step that every C++ backend applies.
// Plain constants and functions, so CUDA device code can include it.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace envpool_x {

// The values are part of the contract: kernels outside C++ (MuJoCo Warp)
// compare against them as plain integers.
enum class AutoresetMode : int32_t { kNextStep = 0, kSameStep = 1, kDisabled = 2 };

struct AutoresetModeName {
  AutoresetMode mode;
  const char* name;  // the autoreset_mode keyword's value
};

inline constexpr AutoresetModeName kAutoresetModeNames[] = {
    {AutoresetMode::kNextStep, "next_step"},
    {AutoresetMode::kSameStep, "same_step"},
    {AutoresetMode::kDisabled, "disabled"},
};

// The episode rules (the MuJoCo Warp kernels apply the same ones to the same
// codes). A call that would step an env resets it instead when its episode
// ended at its previous step in next_step mode, or when an error ended it.
ENVPOOL_X_HD constexpr bool ResetsInsteadOfStep(bool done, bool forced, AutoresetMode mode) {
  return forced || (done && mode == AutoresetMode::kNextStep);
}

// In disabled mode a finished env waits for a reset: stepping it is the
// caller's error.
ENVPOOL_X_HD constexpr bool StepOfFinishedEnvRefused(bool done, AutoresetMode mode) {
  return done && mode == AutoresetMode::kDisabled;
}

// The time limit truncates an episode after max_episode_steps steps (0: none).
ENVPOOL_X_HD constexpr bool TimeLimitReached(int64_t elapsed, int64_t max_episode_steps) {
  return max_episode_steps > 0 && elapsed >= max_episode_steps;
}

// In same_step mode an episode that ends resets in the same call; its last
// row becomes the final row (final_obs / final_info).
ENVPOOL_X_HD constexpr bool ResetsInSameStep(bool done, AutoresetMode mode) {
  return done && mode == AutoresetMode::kSameStep;
}

}  // namespace envpool_x

// The autoreset modes every backend implements (the CPU pool, the CUDA
// stepper, MuJoCo Warp through _core.autoreset_modes()), and their one table
// of names. Plain constants only, so CUDA device code can include it.
#pragma once

#include <cstdint>

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

}  // namespace envpool_x

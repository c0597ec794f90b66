// BabyAI pools: one class for every level (cpp/envs/minigrid/babyai/).
#include "bindings/pool_binding.h"
#include "envs/minigrid/babyai/babyai_env.h"

namespace envpool_x {

void BindBabyAI(py::module_& m) { BindEnv<minigrid::babyai::BabyAIEnv>(m); }

}  // namespace envpool_x

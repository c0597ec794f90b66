// Multi-agent pools: WarpDrive's Tag envs (one env, several agents per row).
#include "bindings/pool_binding.h"
#include "envs/multi_agent/tag_continuous.h"
#include "envs/multi_agent/tag_gridworld.h"

namespace envpool_x {

void BindMultiAgent(py::module_& m) {
  BindEnv<TagGridworld>(m);
  BindEnv<TagContinuous>(m);
}

}  // namespace envpool_x

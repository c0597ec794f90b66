// MiniGrid pools: one line per env (cpp/envs/minigrid/).
#include "bindings/pool_binding.h"
#include "envs/minigrid/empty.h"

namespace envpool_x {

void BindMiniGrid(py::module_& m) {
  using namespace minigrid;  // NOLINT(build/namespaces): the env names only
  BindEnv<MiniGridEmpty>(m);
}

}  // namespace envpool_x

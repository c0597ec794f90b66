// MiniGrid pools: one line per env (cpp/envs/minigrid/).
#include "bindings/pool_binding.h"
#include "envs/minigrid/crossing.h"
#include "envs/minigrid/dist_shift.h"
#include "envs/minigrid/door_key.h"
#include "envs/minigrid/empty.h"
#include "envs/minigrid/four_rooms.h"
#include "envs/minigrid/lava_gap.h"

namespace envpool_x {

void BindMiniGrid(py::module_& m) {
  using namespace minigrid;  // NOLINT(build/namespaces): the env names only
  BindEnv<MiniGridEmpty>(m);
  BindEnv<MiniGridDoorKey>(m);
  BindEnv<MiniGridFourRooms>(m);
  BindEnv<MiniGridLavaGap>(m);
  BindEnv<MiniGridCrossing>(m);
  BindEnv<MiniGridDistShift>(m);
}

}  // namespace envpool_x

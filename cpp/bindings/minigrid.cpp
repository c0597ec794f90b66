// MiniGrid pools: one line per env (cpp/envs/minigrid/).
#include "bindings/pool_binding.h"
#include "envs/minigrid/crossing.h"
#include "envs/minigrid/dist_shift.h"
#include "envs/minigrid/door_key.h"
#include "envs/minigrid/dynamic_obstacles.h"
#include "envs/minigrid/empty.h"
#include "envs/minigrid/fetch.h"
#include "envs/minigrid/four_rooms.h"
#include "envs/minigrid/go_to_door.h"
#include "envs/minigrid/go_to_object.h"
#include "envs/minigrid/key_corridor.h"
#include "envs/minigrid/lava_gap.h"
#include "envs/minigrid/locked_room.h"
#include "envs/minigrid/memory.h"
#include "envs/minigrid/multi_room.h"
#include "envs/minigrid/obstructed_maze.h"
#include "envs/minigrid/playground.h"
#include "envs/minigrid/put_near.h"
#include "envs/minigrid/red_blue_doors.h"
#include "envs/minigrid/unlock.h"
#include "envs/minigrid/unlock_pickup.h"

namespace envpool_x {

void BindMiniGrid(py::module_& m) {
  using namespace minigrid;  // NOLINT(build/namespaces): the env names only
  BindEnv<MiniGridEmpty>(m);
  BindEnv<MiniGridDoorKey>(m);
  BindEnv<MiniGridFourRooms>(m);
  BindEnv<MiniGridLavaGap>(m);
  BindEnv<MiniGridCrossing>(m);
  BindEnv<MiniGridDistShift>(m);
  BindEnv<MiniGridGoToDoor>(m);
  BindEnv<MiniGridRedBlueDoors>(m);
  BindEnv<MiniGridFetch>(m);
  BindEnv<MiniGridGoToObject>(m);
  BindEnv<MiniGridPutNear>(m);
  BindEnv<MiniGridMemory>(m);
  BindEnv<MiniGridUnlock>(m);
  BindEnv<MiniGridUnlockPickup>(m);
  BindEnv<MiniGridKeyCorridor>(m);
  BindEnv<MiniGridMultiRoom>(m);
  BindEnv<MiniGridLockedRoom>(m);
  BindEnv<MiniGridPlayground>(m);
  BindEnv<MiniGridDynamicObstacles>(m);
  BindEnv<MiniGridObstructedMaze>(m);
}

}  // namespace envpool_x

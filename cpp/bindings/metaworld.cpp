// Meta-World pools (built with ENVPOOL_X_METAWORLD and ENVPOOL_X_MUJOCO): one
// pool class per task, and MetaWorldTaskSet over several (its tasks are the
// ones bound here and in metaworld_more.cpp, by name); the model paths
// (metaworld's installed XMLs) are filled by Python.
#include "bindings/metaworld_binding.h"
#include "envs/metaworld/basketball.h"
#include "envs/metaworld/bin_picking.h"
#include "envs/metaworld/box_close.h"
#include "envs/metaworld/button_press.h"
#include "envs/metaworld/button_press_topdown.h"
#include "envs/metaworld/coffee_button.h"
#include "envs/metaworld/coffee_mug.h"
#include "envs/metaworld/dial_turn.h"
#include "envs/metaworld/door_close.h"
#include "envs/metaworld/door_lock.h"
#include "envs/metaworld/door_open.h"
#include "envs/metaworld/drawer_close.h"
#include "envs/metaworld/drawer_open.h"
#include "envs/metaworld/faucet.h"
#include "envs/metaworld/hand_insert.h"
#include "envs/metaworld/handle_press.h"
#include "envs/metaworld/handle_pull.h"
#include "envs/metaworld/lever_pull.h"
#include "envs/metaworld/peg_insert_side.h"
#include "envs/metaworld/peg_unplug_side.h"
#include "envs/metaworld/pick_out_of_hole.h"
#include "envs/metaworld/pick_place.h"
#include "envs/metaworld/pick_place_wall.h"
#include "envs/metaworld/plate_slide.h"
#include "envs/metaworld/push.h"
#include "envs/metaworld/push_back.h"
#include "envs/metaworld/push_wall.h"
#include "envs/metaworld/reach.h"
#include "envs/metaworld/shelf_place.h"
#include "envs/metaworld/soccer.h"
#include "envs/metaworld/sweep.h"
#include "envs/metaworld/sweep_into.h"
#include "envs/metaworld/task_set.h"
#include "envs/metaworld/window.h"

namespace envpool_x {

void BindMetaWorld(py::module_& m) {
  BindEnv<MetaWorldTaskSet>(m);
  BindEnv<MetaWorldReach>(m);
  BindEnv<MetaWorldPush>(m);
  BindEnv<MetaWorldPickPlace>(m);
  BindEnv<MetaWorldDoorOpen>(m);
  BindEnv<MetaWorldDrawerClose>(m);
  BindEnv<MetaWorldButtonPress>(m);
  BindEnv<MetaWorldReachWall>(m);
  BindEnv<MetaWorldDrawerOpen>(m);
  BindEnv<MetaWorldDoorClose>(m);
  BindEnv<MetaWorldButtonPressTopdown>(m);
  BindEnv<MetaWorldWindowOpen>(m);
  BindEnv<MetaWorldWindowClose>(m);
  BindEnv<MetaWorldButtonPressWall>(m);
  BindEnv<MetaWorldButtonPressTopdownWall>(m);
  BindEnv<MetaWorldPegInsertSide>(m);
  BindEnv<MetaWorldSweep>(m);
  BindEnv<MetaWorldBasketball>(m);
  BindEnv<MetaWorldShelfPlace>(m);
  BindEnv<MetaWorldSweepInto>(m);
  BindEnv<MetaWorldLeverPull>(m);
  BindEnv<MetaWorldPushWall>(m);
  BindEnv<MetaWorldPushBack>(m);
  BindEnv<MetaWorldPickPlaceWall>(m);
  BindEnv<MetaWorldHandlePress>(m);
  BindEnv<MetaWorldHandlePressSide>(m);
  BindEnv<MetaWorldHandlePull>(m);
  BindEnv<MetaWorldHandlePullSide>(m);
  BindEnv<MetaWorldPlateSlide>(m);
  BindEnv<MetaWorldPlateSlideSide>(m);
  BindEnv<MetaWorldPlateSlideBack>(m);
  BindEnv<MetaWorldPlateSlideBackSide>(m);
  BindEnv<MetaWorldDoorLock>(m);
  BindEnv<MetaWorldDoorUnlock>(m);
  BindEnv<MetaWorldFaucetOpen>(m);
  BindEnv<MetaWorldFaucetClose>(m);
  BindEnv<MetaWorldCoffeeButton>(m);
  BindEnv<MetaWorldCoffeePush>(m);
  BindEnv<MetaWorldCoffeePull>(m);
  BindEnv<MetaWorldDialTurn>(m);
  BindEnv<MetaWorldHandInsert>(m);
  BindEnv<MetaWorldSoccer>(m);
  BindEnv<MetaWorldPickOutOfHole>(m);
  BindEnv<MetaWorldPegUnplugSide>(m);
  BindEnv<MetaWorldBoxClose>(m);
  BindEnv<MetaWorldBinPicking>(m);
  BindMetaWorldMore(m);
}

}  // namespace envpool_x

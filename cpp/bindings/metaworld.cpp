// Meta-World pools (built with ENVPOOL_X_METAWORLD and ENVPOOL_X_MUJOCO): one
// pool class per task, and MetaWorldTaskSet over several (its tasks are the
// ones bound here, by name); the model paths (metaworld's installed XMLs) are
// filled by Python.
#include <type_traits>

#include "bindings/pool_binding.h"
#include "envs/metaworld/button_press.h"
#include "envs/metaworld/button_press_topdown.h"
#include "envs/metaworld/door_close.h"
#include "envs/metaworld/door_open.h"
#include "envs/metaworld/drawer_close.h"
#include "envs/metaworld/drawer_open.h"
#include "envs/metaworld/pick_place.h"
#include "envs/metaworld/push.h"
#include "envs/metaworld/reach.h"
#include "envs/metaworld/task_registry.h"
#include "envs/metaworld/task_set.h"
#include "envs/metaworld/window.h"

namespace envpool_x {

// Every Meta-World task bound joins the tasks a set can hold.
template <typename Env>
struct OnBindEnv<Env, std::enable_if_t<std::is_base_of_v<metaworld::SawyerEnv, Env>>> {
  static void Run() { metaworld::RegisterTask<Env>(); }
};

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
}

}  // namespace envpool_x

// What both Meta-World binding units share (metaworld.cpp, metaworld_more.cpp):
// every Meta-World task bound joins the tasks a set can hold. One definition
// of the specialisation, seen by every unit that binds a task.
#pragma once

#include <type_traits>

#include "bindings/pool_binding.h"
#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/task_registry.h"

namespace envpool_x {

template <typename Env>
struct OnBindEnv<Env, std::enable_if_t<std::is_base_of_v<metaworld::SawyerEnv, Env>>> {
  static void Run() { metaworld::RegisterTask<Env>(); }
};

// The tasks bound in metaworld_more.cpp (a second unit, so the two compile
// in parallel); called by BindMetaWorld.
void BindMetaWorldMore(py::module_& m);

}  // namespace envpool_x

// The last Meta-World tasks' pools (a second unit beside metaworld.cpp, so the
// two compile in parallel): those that observe two objects or MuJoCo's own
// quaternions (Assembly, Disassemble, Hammer, StickPush, StickPull).
#include "bindings/metaworld_binding.h"
#include "envs/metaworld/assembly.h"
#include "envs/metaworld/disassemble.h"
#include "envs/metaworld/hammer.h"
#include "envs/metaworld/stick_pull.h"
#include "envs/metaworld/stick_push.h"

namespace envpool_x {

void BindMetaWorldMore(py::module_& m) {
  BindEnv<MetaWorldAssembly>(m);
  BindEnv<MetaWorldDisassemble>(m);
  BindEnv<MetaWorldHammer>(m);
  BindEnv<MetaWorldStickPush>(m);
  BindEnv<MetaWorldStickPull>(m);
}

}  // namespace envpool_x

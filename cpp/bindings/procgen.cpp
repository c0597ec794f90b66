// Procgen pools (built with ENVPOOL_X_PROCGEN): one pool class for the 16
// games, each env a handle of procgen's own libenv.so (envs/procgen/).
#include "envs/procgen/procgen.h"

#include <chrono>

#include "bindings/pool_binding.h"

namespace envpool_x {

void BindProcgen(py::module_& m) {
  BindEnv<Procgen>(m);
  m.attr("procgen_version") = ENVPOOL_X_PROCGEN_VERSION;
  m.attr("procgen_build_dir") = ENVPOOL_X_PROCGEN_BUILD_DIR;
  // One game stepped by the library alone (no pool, no copy): the
  // benchmarks' measure of the engine's own cost per step.
  m.def(
      "procgen_act_loop",
      [](const std::string& library_path, const std::string& resource_root,
         const std::string& env_name, int64_t distribution_mode, int64_t steps) {
        if (steps < 0) throw ValueError("steps must be >= 0");
        Config config = Procgen::DefaultConfig();
        config.Set("env_name", env_name);
        config.Set("distribution_mode", distribution_mode);
        config.Set("library_path", library_path);
        config.Set("resource_root", resource_root);
        EnvSpec spec = Procgen::Spec(config);
        py::gil_scoped_release nogil;
        return Procgen::ActLoopSeconds(config, spec, steps);
      },
      py::arg("library_path"), py::arg("resource_root"), py::arg("env_name"),
      py::arg("distribution_mode"), py::arg("steps"),
      "Seconds one thread takes for `steps` libenv_act calls of one game (actions "
      "cycling through the 15 buttons), without the pool.");
}

}  // namespace envpool_x

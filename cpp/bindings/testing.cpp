// Test-support pools (always built; see envs/testing).
#include "bindings/pool_binding.h"
#include "envs/testing/fault_injection.h"

namespace envpool_x {

void BindTesting(py::module_& m) { BindEnv<FaultInjection>(m); }

}  // namespace envpool_x

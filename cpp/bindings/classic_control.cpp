// Classic control pools: one line per env.
#include "bindings/pool_binding.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"

namespace envpool_x {

void BindClassicControl(py::module_& m) {
  BindEnv<CartPole>(m);
  BindEnv<Pendulum>(m);
  BindEnv<MountainCar>(m);
  BindEnv<MountainCarContinuous>(m);
  BindEnv<Acrobot>(m);
}

}  // namespace envpool_x

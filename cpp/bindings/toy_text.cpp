// Toy text pools: one line per env.
#include "bindings/pool_binding.h"
#include "envs/toy_text/blackjack.h"
#include "envs/toy_text/catch.h"
#include "envs/toy_text/cliff_walking.h"
#include "envs/toy_text/frozen_lake.h"
#include "envs/toy_text/nchain.h"
#include "envs/toy_text/taxi.h"

namespace envpool_x {

void BindToyText(py::module_& m) {
  BindEnv<FrozenLake>(m);
  BindEnv<Taxi>(m);
  BindEnv<CliffWalking>(m);
  BindEnv<Blackjack>(m);
  BindEnv<Catch>(m);
  BindEnv<NChain>(m);
}

}  // namespace envpool_x

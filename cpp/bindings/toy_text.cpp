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
  BindEnv<FrozenLake>(m, "FrozenLake");
  BindEnv<Taxi>(m, "Taxi");
  BindEnv<CliffWalking>(m, "CliffWalking");
  BindEnv<Blackjack>(m, "Blackjack");
  BindEnv<Catch>(m, "Catch");
  BindEnv<NChain>(m, "NChain");
}

}  // namespace envpool_x

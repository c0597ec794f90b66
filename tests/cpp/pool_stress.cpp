// Concurrency stress test of the engine, built with ThreadSanitizer and with
// AddressSanitizer + UBSan by scripts/sanitize.sh. Many threads, tiny batches,
// sync and async, partial steps, resets with seeds, injected exceptions,
// close with work in flight. Exits non-zero on any broken invariant.
//
// The parts: pool_stress_engine.cpp (queue, pool, faults, output fields),
// pool_stress_pairs.h (envs stepped in parts, pair chunks),
// pool_stress_families.cpp (every env family); pool_stress_support.h holds
// what they share. This file runs them in order, then many pools created and
// closed with work in flight.
#include <sched.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "envs/classic_control/cartpole.h"
#include "pool_stress_pairs.h"
#include "pool_stress_support.h"

int main() {
  Report("start");
  QueueStress();
  Report("queue");
  for (int threads : {1, 2, 4, 8}) {
    for (int chunk : {0, 1, 3}) SyncStress(threads, chunk);
    for (int batch : {1, 2, 5, 22}) AsyncStress(threads, batch);
    FaultStress(threads);
  }
  {
    // One usable CPU: a sync step runs on the caller alone (its one worker
    // sits it out), and a recv that does not help must still finish.
    cpu_set_t all, one;
    CHECK(sched_getaffinity(0, sizeof(all), &all) == 0);
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &all)) {
        CPU_SET(c, &one);
        break;
      }
    }
    CHECK(sched_setaffinity(0, sizeof(one), &one) == 0);
    for (int threads : {1, 2}) SyncStress(threads, 0);
    CHECK(sched_setaffinity(0, sizeof(all), &all) == 0);
  }
  Report("sync, async and faults");
  OutputFieldChecks();
  Report("output fields");
  {
    Config self_ending = PartedCounter::DefaultConfig();
    self_ending.Set("truncate_odd_at", int64_t{3});  // envs 3 and 7 are in pairs
    const int64_t steals = PairStress<PartedCounter>(self_ending, 300, true);
    Config fault = PartedCounter::DefaultConfig();
    fault.Set("fault_env_id", int64_t{7});  // the last env: always in a pair
    fault.Set("throw_at_step", int64_t{3});
    PairStress<PartedCounter>(fault, 100, true, true);
    Report("pairs (" + std::to_string(steals) + " steals)");
  }
  FamiliesStress();
  // Many pools created and destroyed, some with work in flight.
  for (int i = 0; i < 200; ++i) {
    EnvPool<CartPole> pool(CartPole::DefaultConfig(), Options(16, 4, 3, 0));
    std::vector<int32_t> ids(16);
    for (int k = 0; k < 16; ++k) ids[k] = k;
    pool.SendReset(ids, nullptr);
  }
  Report("200 pools");
  // Closed from two threads at once, with work in flight: one stops and joins
  // the workers, the other returns.
  for (int i = 0; i < 50; ++i) {
    EnvPool<CartPole> pool(CartPole::DefaultConfig(), Options(16, 4, 3, 0));
    std::vector<int32_t> ids(16);
    for (int k = 0; k < 16; ++k) ids[k] = k;
    pool.SendReset(ids, nullptr);
    std::thread a([&] { pool.Close(); });
    std::thread b([&] { pool.Close(); });
    a.join();
    b.join();
    CHECK(pool.closed());
  }
  Report("concurrent closes");
  std::puts("pool_stress: ok");
  return 0;
}

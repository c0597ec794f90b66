// What the parts of the pool_stress test (tests/cpp/pool_stress*.cpp) share:
// CHECK, the progress report, the pool options every stress run starts from,
// and the runs each part defines (main in pool_stress.cpp calls them).
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/env_pool.h"

using namespace envpool_x;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

// Prints "<what> ok" with the seconds since the previous report (to see
// where the sanitizer run spends its time).
inline void Report(const std::string& what) {
  using Clock = std::chrono::steady_clock;
  static Clock::time_point last = Clock::now();
  const Clock::time_point now = Clock::now();
  std::printf("pool_stress: %s ok (%.1f s)\n", what.c_str(),
              std::chrono::duration<double>(now - last).count());
  std::fflush(stdout);
  last = now;
}

inline PoolOptions Options(int num_envs, int batch, int threads, int chunk) {
  PoolOptions opt;
  opt.num_envs = num_envs;
  opt.batch_size = batch;
  opt.num_threads = threads;
  opt.max_episode_steps = 7;
  opt.chunk_size = chunk;
  for (int i = 0; i < num_envs; ++i) opt.env_seeds.push_back(1000 + i);
  return opt;
}

// pool_stress_engine.cpp: the queue, the pool sync and async, faults, output fields.
void QueueStress();
void SyncStress(int threads, int chunk);
void AsyncStress(int threads, int batch);
void FaultStress(int threads);
void OutputFieldChecks();

// pool_stress_families.cpp: every env family's own code under the pool.
void FamiliesStress();

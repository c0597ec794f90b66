// A pool's options (sizes, threads, autoreset mode, seeds) and their checks;
// the CPUs this process may use.
#pragma once

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "core/autoreset.h"
#include "core/errors.h"
#include "core/spec.h"
#include "core/step_output.h"

namespace envpool_x {

inline AutoresetMode ParseAutoresetMode(const std::string& s) {
  std::string all;
  constexpr size_t kCount = std::size(kAutoresetModeNames);
  for (size_t i = 0; i < kCount; ++i) {
    if (s == kAutoresetModeNames[i].name) return kAutoresetModeNames[i].mode;
    all += std::string(i == 0            ? ""
                       : i + 1 == kCount ? " or "
                                         : ", ") +
           "'" + kAutoresetModeNames[i].name + "'";
  }
  throw ValueError("autoreset_mode must be " + all + ", got '" + s + "'");
}

struct PoolOptions {
  int num_envs = 1;
  int batch_size = 0;               // 0: num_envs
  int num_threads = 0;              // 0: min(batch_size, usable CPUs)
  int thread_affinity_offset = -1;  // < 0: no pinning
  int max_episode_steps = 0;        // <= 0: no time limit
  AutoresetMode autoreset = AutoresetMode::kNextStep;
  std::vector<uint64_t> env_seeds;  // one per env
  int chunk_size = 0;               // 0: automatic
};

// CPUs this process may run on (its affinity mask: taskset, cgroups'
// cpusets), not every CPU of the machine that hardware_concurrency counts.
inline int UsableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
    return CPU_COUNT(&set);
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Checks `opt` for a pool of envs with `spec` and fills in its defaults
// (batch_size 0 -> num_envs, num_threads 0 -> min(batch_size, usable CPUs)).
inline PoolOptions CheckedPoolOptions(const EnvSpec& spec, PoolOptions opt) {
  if (opt.num_envs < 1) {
    throw ValueError("num_envs must be >= 1, got " + std::to_string(opt.num_envs));
  }
  if (opt.batch_size == 0) opt.batch_size = opt.num_envs;
  if (opt.batch_size < 1 || opt.batch_size > opt.num_envs) {
    throw ValueError("batch_size must be in [1, num_envs=" + std::to_string(opt.num_envs) +
                     "], got " + std::to_string(opt.batch_size));
  }
  if (opt.num_threads > 4096) {
    throw ValueError("num_threads must be at most 4096, got " + std::to_string(opt.num_threads));
  }
  if (opt.num_threads < 0) {
    throw ValueError("num_threads must be >= 0 (0 picks a default), got " +
                     std::to_string(opt.num_threads));
  }
  if (opt.num_threads == 0) {
    opt.num_threads = std::max(1, std::min(opt.batch_size, UsableCpus()));
  }
  if (static_cast<int>(opt.env_seeds.size()) != opt.num_envs) {
    throw ValueError("need one seed per env: got " + std::to_string(opt.env_seeds.size()) +
                     " seeds for num_envs=" + std::to_string(opt.num_envs));
  }
  if (spec.obs.size() > kMaxFields || spec.info.size() > kMaxFields) {
    throw ValueError("an env may declare at most " + std::to_string(kMaxFields) +
                     " observation and " + std::to_string(kMaxFields) + " info fields");
  }
  return opt;
}

}  // namespace envpool_x

// Concurrency stress test of the engine, built with ThreadSanitizer and with
// AddressSanitizer + UBSan by scripts/sanitize.sh. Many threads, tiny batches,
// sync and async, partial steps, resets with seeds, injected exceptions,
// close with work in flight. Exits non-zero on any broken invariant.
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/env_pool.h"
#include "core/ring_queue.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"
#include "envs/multi_agent/tag_continuous.h"
#include "envs/multi_agent/tag_gridworld.h"
#include "envs/testing/fault_injection.h"
#include "envs/toy_text/blackjack.h"
#include "envs/toy_text/catch.h"
#include "envs/toy_text/cliff_walking.h"
#include "envs/toy_text/frozen_lake.h"
#include "envs/toy_text/nchain.h"
#include "envs/toy_text/taxi.h"
#ifdef ENVPOOL_X_STRESS_ATARI
#include "envs/atari/atari.h"
#endif
#ifdef ENVPOOL_X_STRESS_MUJOCO
#include "envs/mujoco/ant.h"
#include "envs/mujoco/half_cheetah.h"
#include "envs/mujoco/hopper.h"
#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/reacher.h"
#endif

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
static void Report(const std::string& what) {
  using Clock = std::chrono::steady_clock;
  static Clock::time_point last = Clock::now();
  const Clock::time_point now = Clock::now();
  std::printf("pool_stress: %s ok (%.1f s)\n", what.c_str(),
              std::chrono::duration<double>(now - last).count());
  std::fflush(stdout);
  last = now;
}

static PoolOptions Options(int num_envs, int batch, int threads, int chunk) {
  PoolOptions opt;
  opt.num_envs = num_envs;
  opt.batch_size = batch;
  opt.num_threads = threads;
  opt.max_episode_steps = 7;
  opt.chunk_size = chunk;
  for (int i = 0; i < num_envs; ++i) opt.env_seeds.push_back(1000 + i);
  return opt;
}

// Many producers and consumers on one ring: every value arrives exactly once.
static void QueueStress() {
  RingQueue<int> q(64);
  constexpr int kPerProducer = 20000, kProducers = 4;
  std::atomic<int> consumed{0};
  std::vector<std::atomic<int>> seen(kPerProducer * kProducers);
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        while (!q.TryPush(p * kPerProducer + i)) std::this_thread::yield();
      }
    });
  }
  for (int c = 0; c < 4; ++c) {
    threads.emplace_back([&] {
      int v;
      while (consumed.load() < kPerProducer * kProducers) {
        if (q.TryPop(&v)) {
          seen[v].fetch_add(1);
          consumed.fetch_add(1);
        } else {
          std::this_thread::yield();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& s : seen) CHECK(s.load() == 1);
}

// Sync: full and partial steps keep env_id order; elapsed steps add up.
static void SyncStress(int threads, int chunk) {
  const int n = 37;
  EnvPool<CartPole> pool(CartPole::DefaultConfig(), Options(n, 0, threads, chunk));
  const auto& all = pool.ResolveIds(nullptr, 0, false);
  std::vector<int32_t> ids(all.begin(), all.end());
  pool.SendReset(ids, nullptr);
  pool.Recv(true);
  std::vector<int32_t> act(n, 1);
  // Timed rounds: the workers write their lanes while the caller reads them.
  pool.round_profile().Enable(true);
  for (int r = 0; r < 300; ++r) {
    std::vector<int32_t> sub;
    for (int i = r % 3; i < n; i += 1 + r % 4) sub.push_back(i);
    // Every fifth round goes to every env (in flight as a whole round).
    const std::vector<int32_t>& send = r % 5 == 0 ? all : sub;
    pool.StoreActions(send, act.data());
    if (r % 2) {
      pool.SendStepForRecv(send);
    } else {
      pool.SendStep(send);
    }
    // Mostly help in a sync step's recv, as the bindings do; sometimes not,
    // which must still finish when the step left a worker out for the caller.
    Batch b = pool.Recv(!(r % 4 == 3 || r % 8 == 0));
    pool.round_profile().MarkReturn();
    CHECK(b.count == static_cast<int>(send.size()));
    const int32_t* got = reinterpret_cast<const int32_t*>(b.data[pool.layout().env_id]);
    for (int k = 0; k < b.count; ++k) CHECK(got[k] == send[k]);
  }
  CHECK(pool.round_profile().Summary().at("rounds") == 300);
}

// Async: every recv returns batch_size distinct envs that were in flight.
static void AsyncStress(int threads, int batch) {
  const int n = 23;
  EnvPool<CartPole> pool(CartPole::DefaultConfig(), Options(n, batch, threads, 0));
  std::vector<int32_t> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  pool.SendReset(ids, nullptr);
  std::vector<int> in_flight(n, 1);
  std::vector<int32_t> act(n, 0);
  for (int r = 0; r < 2000; ++r) {
    Batch b = pool.Recv(r % 3 == 0);
    CHECK(b.count == batch);
    const int32_t* got = reinterpret_cast<const int32_t*>(b.data[pool.layout().env_id]);
    std::vector<int32_t> back(got, got + b.count);
    std::set<int32_t> unique(back.begin(), back.end());
    CHECK(static_cast<int>(unique.size()) == batch);
    for (int32_t id : back) {
      CHECK(in_flight[id] == 1);
      in_flight[id] = 0;
    }
    pool.StoreActions(back, act.data());
    if (r % 7 == 0) {
      std::vector<uint64_t> seeds(back.size(), static_cast<uint64_t>(r));
      pool.SendReset(back, &seeds);
    } else {
      pool.SendStep(back);
    }
    for (int32_t id : back) in_flight[id] = 1;
  }
  // Closing with work in flight must return and not touch freed memory.
  pool.Close();
}

// Any env under async send/recv with resets mixed in, tiny batches and short
// time limits (so auto-resets happen often): the envs' own Reset/Step code
// runs under the sanitizers, on many threads. Discrete envs get varied
// actions; an all-zero box is valid for every continuous env here.
template <typename Env>
static void EnvStress(const Config& cfg, int threads, int batch, int rounds, int n = 11) {
  PoolOptions opt = Options(n, batch, threads, 0);
  opt.max_episode_steps = 17;
  EnvPool<Env> pool(cfg, opt);
  std::vector<int32_t> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  const ActionSpec& spec = pool.spec().action;
  const int64_t width = spec.NumElements();
  std::vector<float> box(static_cast<size_t>(n * width), 0.0f);
  std::vector<int32_t> discrete(static_cast<size_t>(n * width), 0);
  pool.SendReset(ids, nullptr);
  for (int r = 0; r < rounds; ++r) {
    Batch b = pool.Recv(false);
    CHECK(b.count == batch);
    const int32_t* got = reinterpret_cast<const int32_t*>(b.data[pool.layout().env_id]);
    std::vector<int32_t> back(got, got + b.count);
    if (spec.discrete) {
      for (int k = 0; k < b.count; ++k) {
        for (int64_t j = 0; j < width; ++j) {  // one value per agent / element
          discrete[k * width + j] =
              static_cast<int32_t>((r * 7 + back[k] + j) % spec.Categories(j));
        }
      }
      pool.StoreActions(back, discrete.data());
    } else {
      pool.StoreActions(back, box.data());
    }
    if (r % 13 == 0) {
      std::vector<uint64_t> seeds(back.size(), static_cast<uint64_t>(r));
      pool.SendReset(back, &seeds);
    } else {
      pool.SendStep(back);
    }
    // A send to envs in flight is refused before it writes their actions:
    // a worker may be reading them (TSan flags such a write).
    bool refused = false;
    try {
      pool.StoreActions(back, spec.discrete ? static_cast<const void*>(discrete.data())
                                            : static_cast<const void*>(box.data()));
    } catch (const StateError&) {
      refused = true;
    }
    CHECK(refused);
  }
  pool.Close();
}

// Stepped in parts (core/env.h) and expensive, so that sync full steps run
// pair chunks (EnvPool's RunPairT / StealPartT). Observes [steps since reset,
// parts of the last step]; env `fault_env_id` throws in the second part of
// its `throw_at_step`-th step; odd envs end their episodes themselves
// (truncated) after `truncate_odd_at` steps.
class PartedCounter {
 public:
  static constexpr const char* kName = "PartedCounter";
  static constexpr bool kCheap = false;
  static constexpr int kParts = 4;

  static Config DefaultConfig() {
    return Config{{"fault_env_id", int64_t{-1}},
                  {"throw_at_step", int64_t{-1}},
                  {"truncate_odd_at", int64_t{-1}}};
  }
  static EnvSpec Spec(const Config&) {
    EnvSpec s;
    s.obs.push_back(ArraySpec{"obs", DType::kFloat32, {2}, {}, {}});
    s.action.discrete = true;
    s.action.n = 2;
    return s;
  }
  PartedCounter(const Config& c, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")),
        fault_env_(c.Int("fault_env_id")),
        throw_at_(c.Int("throw_at_step")),
        truncate_at_(c.Int("truncate_odd_at")) {}
  void SetEnvId(int id) { env_id_ = id; }

  void Reset(Rng&, const StepOutput& out) {
    steps_ = 0;
    out[obs_][0] = out[obs_][1] = 0.0f;
  }
  void BeginStep(const void* action) {
    ++steps_;
    parts_ = 0;
    action_ = DiscreteAction(action);
  }
  bool StepPart() {
    ++parts_;
    // Some work, so that a part of one thread overlaps parts of others.
    volatile double x = 0.0;
    for (int i = 0; i < 3000; ++i) x = x + i;
    if (env_id_ == fault_env_ && steps_ == throw_at_ && parts_ == 2) {
      throw std::runtime_error("injected fault in a part");
    }
    return parts_ == kParts;
  }
  void EndStep(const StepOutput& out) {
    out[obs_][0] = static_cast<float>(steps_);
    out[obs_][1] = static_cast<float>(parts_);
    *out.reward = static_cast<float>(action_);
    *out.terminated = false;
    if (out.truncated && env_id_ % 2 == 1 && steps_ == truncate_at_) *out.truncated = true;
  }
  std::vector<double> GetState() const { return {static_cast<double>(steps_)}; }
  void SetState(const std::vector<double>& s) { steps_ = static_cast<int64_t>(s.at(0)); }

 private:
  OutputField<float> obs_;
  int64_t fault_env_;
  int64_t throw_at_;
  int64_t truncate_at_;
  int env_id_ = -1;
  int64_t steps_ = 0;
  int parts_ = 0;
  int32_t action_ = 0;
};

// Sync full steps of an env stepped in parts: each thread's last two envs go
// as a pair whose offered env an idle thread (a worker, or the caller while
// it waits) takes over; time-limit resets in both autoreset modes land inside
// pairs. `check`: the env is PartedCounter, whose rows are checked exactly;
// `faults`: it throws (some recv()s raise).
template <typename Env>
static int64_t PairStress(const Config& cfg, int rounds, bool check, bool faults = false) {
  int64_t steals = 0;
  const int64_t truncate_at = check ? cfg.Int("truncate_odd_at") : -1;
  for (int threads : {1, 2, 3}) {
    for (AutoresetMode mode : {AutoresetMode::kNextStep, AutoresetMode::kSameStep}) {
      PoolOptions opt = Options(8, 0, threads, 0);
      opt.autoreset = mode;
      EnvPool<Env> pool(cfg, opt);
      const std::vector<int32_t>& all = pool.ResolveIds(nullptr, 0, false);
      pool.SendReset(all, nullptr, true);
      pool.Recv(true);
      const ActionSpec& spec = pool.spec().action;
      std::vector<float> box(static_cast<size_t>(8 * spec.NumElements()), 0.0f);
      std::vector<int32_t> discrete(8, 1);
      int errors = 0;
      for (int r = 0; r < rounds; ++r) {
        pool.StoreActions(all, spec.discrete ? static_cast<const void*>(discrete.data())
                                             : static_cast<const void*>(box.data()));
        pool.SendStepForRecv(all);
        Batch b;
        try {
          b = pool.Recv(true);
        } catch (const std::runtime_error&) {
          ++errors;
          continue;
        }
        CHECK(b.count == 8);
        const FieldLayout& L = pool.layout();
        const int32_t* ids = reinterpret_cast<const int32_t*>(b.data[L.env_id]);
        const int32_t* elapsed = reinterpret_cast<const int32_t*>(b.data[L.elapsed_step]);
        const bool* truncated = reinterpret_cast<const bool*>(b.data[L.truncated]);
        for (int k = 0; k < 8; ++k) {
          CHECK(ids[k] == k);
          if (!check) continue;
          const float* obs = reinterpret_cast<const float*>(b.data[0]) + 2 * k;
          CHECK(obs[0] == static_cast<float>(elapsed[k]));
          CHECK(elapsed[k] == 0 || obs[1] == static_cast<float>(PartedCounter::kParts));
          // Episodes end at the time limit (7), odd envs' also where they
          // truncate themselves; same_step rows show the next episode's start.
          const bool self_ends = k % 2 == 1 && truncate_at > 0;
          if (mode == AutoresetMode::kNextStep) {
            CHECK(truncated[k] == (elapsed[k] == 7 || (self_ends && elapsed[k] == truncate_at)));
            CHECK(!self_ends || elapsed[k] <= truncate_at);
          } else {
            CHECK(!truncated[k] || elapsed[k] == 0);
            CHECK(!self_ends || elapsed[k] < truncate_at);
          }
        }
      }
      CHECK(faults ? errors > 0 : errors == 0);
      steals += pool.pair_steals();
      pool.Close();
    }
  }
  return steals;
}

template <typename Env>
static void EnvStressAll(const Config& cfg, int rounds) {
  for (int threads : {1, 3}) {
    for (int batch : {1, 4}) EnvStress<Env>(cfg, threads, batch, rounds);
  }
  Report(Env::kName);
}

#ifdef ENVPOOL_X_STRESS_ATARI
// A few games with different preprocessing (fire reset, episodic life, sticky
// actions, RGB, frame_skip 1, no no-ops), more threads than envs can keep
// busy, tiny batches. The ROMs of the installed ale-py (scripts/sanitize.sh
// passes their folder).
static void AtariStress() {
  const char* dir = std::getenv("ENVPOOL_X_ATARI_ROMS");
  CHECK(dir != nullptr);
  auto game = [&](const char* rom) {
    Config cfg = Atari::DefaultConfig();
    cfg.Set("task", std::string(rom));
    cfg.Set("rom_path", std::string(dir) + "/" + rom + ".bin");
    return cfg;
  };
  Config pong = game("pong");
  Config breakout = game("breakout");
  breakout.Set("episodic_life", true);
  breakout.Set("zero_discount_on_life_loss", true);
  breakout.Set("repeat_action_probability", 0.25);
  Config invaders = game("space_invaders");
  invaders.Set("gray_scale", false);
  invaders.Set("frame_skip", int64_t{1});
  invaders.Set("noop_max", int64_t{0});
  invaders.Set("use_inter_area_resize", false);
  // Emulation under TSan runs at a few hundred frames a second: two pools a
  // game (4 threads for 5 envs with batches of 1; 2 threads, batches of 3).
  for (const Config* cfg : {&pong, &breakout, &invaders}) {
    EnvStress<Atari>(*cfg, 4, 1, 40, 5);
    EnvStress<Atari>(*cfg, 2, 3, 30, 5);
    Report("Atari " + cfg->String("task"));
  }
}
#endif

static void FamiliesStress() {
  EnvStressAll<CartPole>(CartPole::DefaultConfig(), 400);
  EnvStressAll<Pendulum>(Pendulum::DefaultConfig(), 400);
  EnvStressAll<MountainCar>(MountainCar::DefaultConfig(), 400);
  EnvStressAll<MountainCarContinuous>(MountainCarContinuous::DefaultConfig(), 400);
  EnvStressAll<Acrobot>(Acrobot::DefaultConfig(), 400);
  EnvStressAll<FrozenLake>(FrozenLake::DefaultConfig(), 400);
  EnvStressAll<Taxi>(Taxi::DefaultConfig(), 400);
  EnvStressAll<CliffWalking>(CliffWalking::DefaultConfig(), 400);
  EnvStressAll<Blackjack>(Blackjack::DefaultConfig(), 400);
  EnvStressAll<Catch>(Catch::DefaultConfig(), 400);
  EnvStressAll<NChain>(NChain::DefaultConfig(), 400);
  // Multi-agent rows (an agent axis in actions, rewards and observations).
  Config grid = TagGridworld::DefaultConfig();
  grid.Set("grid_length", int64_t{3});
  EnvStressAll<TagGridworld>(grid, 400);
  Config tag = TagContinuous::DefaultConfig();
  tag.Set("num_taggers", int64_t{3});
  tag.Set("num_runners", int64_t{6});
  tag.Set("num_other_agents_observed", int64_t{4});
  tag.Set("tagging_distance", 0.2);
  EnvStressAll<TagContinuous>(tag, 200);
#ifdef ENVPOOL_X_STRESS_ATARI
  AtariStress();
#endif
#ifdef ENVPOOL_X_STRESS_MUJOCO
  // The model XMLs of the installed gymnasium (scripts/sanitize.sh passes
  // their folder).
  const char* dir = std::getenv("ENVPOOL_X_MUJOCO_ASSETS");
  CHECK(dir != nullptr);
  auto with_xml = [&](Config cfg, const char* xml) {
    cfg.Set("xml_file", std::string(dir) + "/" + xml);
    return cfg;
  };
  EnvStressAll<HalfCheetah<5>>(with_xml(HalfCheetah<5>::DefaultConfig(), "half_cheetah.xml"), 60);
  EnvStressAll<Hopper<4>>(with_xml(Hopper<4>::DefaultConfig(), "hopper.xml"), 60);
  EnvStressAll<Ant<5>>(with_xml(Ant<5>::DefaultConfig(), "ant.xml"), 60);
  EnvStressAll<Humanoid<5>>(with_xml(Humanoid<5>::DefaultConfig(), "humanoid.xml"), 30);
  EnvStressAll<Reacher<5>>(with_xml(Reacher<5>::DefaultConfig(), "reacher.xml"), 60);
  PairStress<HalfCheetah<5>>(with_xml(HalfCheetah<5>::DefaultConfig(), "half_cheetah.xml"), 40,
                             false);
  PairStress<Ant<5>>(with_xml(Ant<5>::DefaultConfig(), "ant.xml"), 40, false);
  Report("MuJoCo pairs");
#endif
}

// Exceptions inside envs reach the caller; the pool keeps working.
static void FaultStress(int threads) {
  const int n = 9;
  Config cfg = FaultInjection::DefaultConfig();
  cfg.Set("throw_at_step", int64_t{3});
  cfg.Set("fault_env_id", int64_t{4});
  EnvPool<FaultInjection> pool(cfg, Options(n, 0, threads, 0));
  std::vector<int32_t> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  std::vector<int32_t> act(n, 1);
  pool.SendReset(ids, nullptr);
  pool.Recv(false);
  int errors = 0;
  for (int r = 0; r < 50; ++r) {
    pool.StoreActions(ids, act.data());
    pool.SendStep(ids);
    try {
      pool.Recv(false);
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()).find("env 4 raised") != std::string::npos);
      ++errors;
    }
  }
  CHECK(errors >= 5);  // episodes of 7 steps, the fault at step 3 of each
}

// Output fields resolve by name with their dtype checked; a missing name or
// a wrong type is the env's bug, caught when the env is built.
static void OutputFieldChecks() {
  EnvSpec spec;
  spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {3}, {}, {}});
  spec.info.push_back(ArraySpec{"lives", DType::kInt32, {}, {}, {}});
  spec.info.push_back(ArraySpec{"ram", DType::kUInt8, {4}, {}, {}});
  auto throws = [](auto f, const std::string& part) {
    try {
      f();
    } catch (const std::logic_error& e) {
      return std::string(e.what()).find(part) != std::string::npos;
    }
    return false;
  };
  const OutputField<float> obs = ObsField<float>(spec, "obs");
  const OutputField<uint8_t> ram = InfoField<uint8_t>(spec, "ram");
  CHECK(obs.bound() && obs.slot() == 0);
  CHECK(ram.slot() == StepOutput::kInfoSlot + 1);
  CHECK(!OptionalInfoField<float>(spec, "discount").bound());
  CHECK(throws([&] { ObsField<double>(spec, "obs"); }, "declared float32"));
  CHECK(throws([&] { InfoField<int64_t>(spec, "lives"); }, "written as int64"));
  CHECK(throws([&] { InfoField<float>(spec, "discount"); }, "no info field 'discount'"));
  CHECK(throws([&] { ObsField<float>(spec, "lives"); }, "no observation field 'lives'"));
  float row[3] = {0, 0, 0};
  uint8_t bytes[4] = {0, 0, 0, 0};
  StepOutput out;
  out.slots[obs.slot()] = reinterpret_cast<uint8_t*>(row);
  out.slots[ram.slot()] = bytes;
  out[obs][2] = 1.5f;
  out[ram][3] = 7;
  CHECK(row[2] == 1.5f && bytes[3] == 7);
#ifdef ENVPOOL_X_CHECKED
  CHECK(throws([&] { out[OutputField<float>()][0] = 1.0f; }, "unbound"));
#endif
}

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

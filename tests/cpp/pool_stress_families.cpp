// Every env family's own Reset/Step code under the pool: async send/recv with
// resets mixed in, tiny batches and short time limits, on many threads
// (classic control, toy text, multi-agent Tag; Atari and MuJoCo where the build
// has them, MuJoCo's pair chunks too).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"
#include "envs/multi_agent/tag_continuous.h"
#include "envs/multi_agent/tag_gridworld.h"
#include "envs/toy_text/blackjack.h"
#include "envs/toy_text/catch.h"
#include "envs/toy_text/cliff_walking.h"
#include "envs/toy_text/frozen_lake.h"
#include "envs/toy_text/nchain.h"
#include "envs/toy_text/taxi.h"
#include "pool_stress_pairs.h"
#include "pool_stress_support.h"
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

void FamiliesStress() {
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

// The 16 Procgen games, stepped by procgen's own compiled engine (libenv.h):
// one libenv handle of one game per env, with procgen's stepping threads off,
// so that our worker thread steps it.
//
// Seeding: env i of a pool seeded with S plays the levels of game i of
// procgen's own env made with num >= i + 1 and rand_seed = S mod 2^32 (as
// EnvPool's env i does). The env finds S from its own seed and index
// (PoolSeedOf) at a reset that starts its seed stream, and sets its game's
// level generator to game i's (level_stream.h). A reset in the middle of an
// episode starts the next level of that generator (procgen's forced reset).
// procgen cannot save a game with generated assets: such an env instead makes
// its handle with rand_seed = the seed of game i's generator (game 0 of
// procgen's env made with num=1 and that rand_seed).
// Procgen starts the next level itself inside the step that ends an episode
// (that step's observation is the next level's first frame), so the pool's
// reset after a finished episode only repeats that frame and keeps procgen's
// sequence of levels.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/planar_rgb.h"
#include "core/random.h"
#include "envs/procgen/level_stream.h"
#include "envs/procgen/libenv.h"

namespace envpool_x {

namespace procgen_detail {

// Each game's step limit (procgen's `timeout` per game) and the distribution
// modes its level generator knows (0 easy, 1 hard, 2 extreme, 10 memory).
struct GameInfo {
  const char* name;
  int timeout;
  std::vector<int> modes;
};

inline const std::vector<GameInfo>& Games() {
  static const std::vector<GameInfo> games = {
      {"bigfish", 6000, {0, 1}},          {"bossfight", 4000, {0, 1}},
      {"caveflyer", 1000, {0, 1, 10}},    {"chaser", 1000, {0, 1, 2}},
      {"climber", 1000, {0, 1}},          {"coinrun", 1000, {0, 1}},
      {"dodgeball", 1000, {0, 1, 2, 10}}, {"fruitbot", 1000, {0, 1}},
      {"heist", 1000, {0, 1, 10}},        {"jumper", 1000, {0, 1, 10}},
      {"leaper", 500, {0, 1, 2}},         {"maze", 500, {0, 1, 10}},
      {"miner", 1000, {0, 1, 10}},        {"ninja", 1000, {0, 1}},
      {"plunder", 4000, {0, 1}},          {"starpilot", 1000, {0, 1, 2}},
  };
  return games;
}

inline const GameInfo& FindGame(const std::string& name) {
  for (const GameInfo& g : Games()) {
    if (name == g.name) return g;
  }
  std::string known;
  for (const GameInfo& g : Games()) {
    if (!known.empty()) known += ", ";
    known += g.name;
  }
  throw ValueError("env_name '" + name + "' is not a Procgen game; known: " + known);
}

}  // namespace procgen_detail

class Procgen {
 public:
  static constexpr const char* kName = "Procgen";
  static constexpr bool kCheap = false;
  static constexpr int kRes = 64;
  static constexpr int kActions = 15;
  static constexpr size_t kFrameBytes = size_t{kRes} * kRes * 3;

  static Config DefaultConfig() {
    return Config{{"env_name", std::string("bigfish")},
                  {"distribution_mode", int64_t{1}},
                  {"num_levels", int64_t{0}},
                  {"start_level", int64_t{0}},
                  {"use_sequential_levels", false},
                  {"center_agent", true},
                  {"use_backgrounds", true},
                  {"use_monochrome_assets", false},
                  {"restrict_themes", false},
                  {"use_generated_assets", false},
                  {"paint_vel_info", false},
                  {"use_easy_jump", false},
                  {"channel_first", true},
                  {"library_path", std::string("")},
                  {"resource_root", std::string("")}};
  }

  static EnvSpec Spec(const Config& config) {
    const procgen_detail::GameInfo& game = procgen_detail::FindGame(config.String("env_name"));
    const int64_t mode = config.Int("distribution_mode");
    if (std::find(game.modes.begin(), game.modes.end(), mode) == game.modes.end()) {
      std::string known;
      for (int m : game.modes) {
        if (!known.empty()) known += ", ";
        known += std::to_string(m);
      }
      throw ValueError("distribution_mode " + std::to_string(mode) + " is not a mode of " +
                       game.name + " (its modes: " + known + ")");
    }
    for (const char* key : {"num_levels", "start_level"}) {
      if (config.Int(key) < 0 || config.Int(key) > INT32_MAX) {
        throw ValueError(std::string(key) + " must be in [0, 2**31), got " +
                         std::to_string(config.Int(key)));
      }
    }
    if (config.Int("start_level") + config.Int("num_levels") > INT32_MAX) {
      throw ValueError("start_level + num_levels must be below 2**31");
    }
    EnvSpec spec;
    std::vector<int64_t> shape = config.Bool("channel_first") ? std::vector<int64_t>{3, kRes, kRes}
                                                              : std::vector<int64_t>{kRes, kRes, 3};
    spec.obs.push_back(ArraySpec{"obs", DType::kUInt8, shape, {0}, {255}});
    spec.info.push_back(ArraySpec{"level_seed", DType::kInt32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"prev_level_seed", DType::kInt32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"prev_level_complete", DType::kInt32, {}, {0}, {1}});
    spec.action.discrete = true;
    spec.action.n = kActions;
    return spec;
  }

  Procgen(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<uint8_t>(spec, "obs")),
        level_seed_out_(InfoField<int32_t>(spec, "level_seed")),
        prev_level_seed_out_(InfoField<int32_t>(spec, "prev_level_seed")),
        prev_level_complete_out_(InfoField<int32_t>(spec, "prev_level_complete")),
        api_(procgen_detail::LoadLibenv(config.String("library_path"))),
        game_(procgen_detail::FindGame(config.String("env_name"))),
        channel_first_(config.Bool("channel_first")),
        can_save_game_(!config.Bool("use_generated_assets")),
        frame_(kFrameBytes) {
    // Procgen's option names and types (bools as uint8, ints as int32, strings
    // as uint8 bytes). rand_seed only picks the handle's first level, which
    // no one sees, where a reset sets the game's level generator (level_stream.h).
    AddString("env_name", config.String("env_name"));
    AddString("resource_root", config.String("resource_root"));
    for (const char* key :
         {"use_sequential_levels", "center_agent", "use_backgrounds", "use_monochrome_assets",
          "restrict_themes", "use_generated_assets", "paint_vel_info", "use_easy_jump"}) {
      AddInt(key, config.Bool(key) ? 1 : 0, procgen_detail::kUInt8);
    }
    AddInt("render_human", 1, procgen_detail::kUInt8);
    AddInt("distribution_mode", static_cast<int32_t>(config.Int("distribution_mode")));
    AddInt("num_levels", static_cast<int32_t>(config.Int("num_levels")));
    AddInt("start_level", static_cast<int32_t>(config.Int("start_level")));
    AddInt("num_actions", kActions);
    AddInt("num_threads", 0);
    AddInt("debug_mode", 0);
    rand_seed_slot_ = static_cast<size_t>(AddInt("rand_seed", 0));
  }

  ~Procgen() {
    if (handle_ != nullptr) api_.close(handle_);
  }
  Procgen(const Procgen&) = delete;
  Procgen& operator=(const Procgen&) = delete;

  // The pool tells each env its index once, before any reset.
  void SetEnvId(int env_id) { env_id_ = env_id; }

  void Reset(Rng& rng, const StepOutput& out) {
    if (handle_ == nullptr || rng.counter() == 0) {
      // A freshly seeded stream: the levels of game env_id_ of procgen's env
      // made with the pool's seed. The draw marks the stream begun, so that
      // only a reseed starts another.
      const uint32_t generator_seed = LevelSeedGeneratorSeed(rng.key(), env_id_);
      if (can_save_game_) {
        if (handle_ == nullptr) MakeHandle(0);
        StartLevelStream(generator_seed);
      } else {
        MakeHandle(static_cast<int32_t>(generator_seed));
      }
      rng.NextU64();
    } else if (!last_done_) {
      ForceNextLevel();  // a reset the game did not already do itself
    }
    last_done_ = false;
    steps_ = 0;
    WriteOutput(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    action_ = DiscreteAction(action);
    api_.act(handle_);
    ++steps_;
    const bool done = first_ != 0;
    // Procgen ends an episode at its step limit as it ends a lost or won one;
    // the limit is a truncation.
    const bool timed_out = done && steps_ >= game_.timeout;
    *out.reward = reward_;
    *out.terminated = done && !timed_out;
    if (timed_out) *out.truncated = true;
    last_done_ = done;
    WriteOutput(out);
  }

  // render(): the 512 x 512 frame of procgen's human view. Handles are made
  // with render_human on, which costs nothing until libenv_observe draws that
  // frame into the handle's "rgb" info buffer; every handle shares one such
  // buffer, used under a lock (frames are drawn rarely, and never by a step).
  static constexpr int kRenderHeight = 512;
  static constexpr int kRenderWidth = 512;
  void Render(uint8_t* rgb) {
    std::lock_guard<std::mutex> lock(HumanFrameMutex());
    api_.observe(handle_);
    std::memcpy(rgb, HumanFrame().data(), HumanFrame().size());
  }

  std::vector<double> GetState() const {
    throw ValueError("Procgen envs have no get_state; a game's state is not a vector of numbers");
  }
  void SetState(const std::vector<double>& /*s*/) {
    throw ValueError("Procgen envs have no set_state; a game's state is not a vector of numbers");
  }

  // The seed of the level generator of env `env_id` seeded with `env_seed`:
  // game env_id's of procgen's env made with rand_seed = the pool's seed
  // (PoolSeedOf), whose 32 bits procgen's RandGen takes.
  static uint32_t LevelSeedGeneratorSeed(uint64_t env_seed, int env_id) {
    const uint64_t pool_seed = PoolSeedOf(env_seed, static_cast<uint64_t>(env_id));
    return procgen_detail::GameLevelSeedGeneratorSeed(static_cast<uint32_t>(pool_seed),
                                                      static_cast<uint64_t>(env_id));
  }

  // Seconds for `steps` libenv_act calls on one game (rand_seed 0), actions
  // cycling through the buttons: the engine's own cost, for the benchmarks.
  static double ActLoopSeconds(const Config& config, const EnvSpec& spec, int64_t steps) {
    Procgen env(config, spec);
    env.MakeHandle(0);
    auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < steps; ++i) {
      env.action_ = static_cast<int32_t>(i % kActions);
      env.api_.act(env.handle_);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  // Each option's value is kept as its raw bytes (libenv reads `data` as
  // int32, uint8 or chars by the option's dtype).
  int AddInt(const char* name, int32_t value, int dtype = procgen_detail::kInt32) {
    std::string bytes(dtype == procgen_detail::kInt32 ? sizeof(int32_t) : 1, '\0');
    if (dtype == procgen_detail::kInt32) {
      std::memcpy(bytes.data(), &value, sizeof(value));
    } else {
      bytes[0] = static_cast<char>(value);
    }
    return AddOption(name, dtype, 1, std::move(bytes));
  }
  void AddString(const char* name, const std::string& value) {
    AddOption(name, procgen_detail::kUInt8, static_cast<int>(value.size()), value);
  }
  int AddOption(const char* name, int dtype, int count, std::string bytes) {
    procgen_detail::LibenvOption o{};
    std::strncpy(o.name, name, procgen_detail::kNameLen - 1);
    o.dtype = dtype;
    o.count = count;
    options_.push_back(o);
    values_.push_back(std::move(bytes));
    return static_cast<int>(options_.size()) - 1;
  }

  // The env's handle of one game, made with procgen's `rand_seed` (once, at
  // the first reset, where the game can be saved).
  void MakeHandle(int32_t rand_seed) {
    if (handle_ != nullptr) api_.close(handle_);
    handle_ = nullptr;
    std::memcpy(values_[rand_seed_slot_].data(), &rand_seed, sizeof(rand_seed));
    for (size_t i = 0; i < options_.size(); ++i) options_[i].data = values_[i].data();
    handle_ = api_.make(
        1, procgen_detail::LibenvOptions{options_.data(), static_cast<int>(options_.size())});
    ob_ptr_ = frame_.data();
    ac_ptr_ = &action_;
    info_ptrs_ = {&prev_level_seed_, &prev_level_complete_, &level_seed_, HumanFrame().data()};
    procgen_detail::LibenvBuffers buffers{&ob_ptr_, &reward_, &first_, info_ptrs_.data(), &ac_ptr_};
    api_.set_buffers(handle_, &buffers);  // procgen's first reset and frame
  }

  // The game's levels from now on come from the generator procgen seeds with
  // `generator_seed`; the level in play is replaced by its first. The outputs
  // are then a new game's: no previous level.
  void StartLevelStream(uint32_t generator_seed) {
    procgen_detail::SetLevelSeedGenerator(api_, handle_, game_.name, env_id_, generator_seed);
    ForceNextLevel();
    prev_level_seed_ = 0;
    prev_level_complete_ = 0;
  }

  // procgen's forced reset: action -1 ends the episode in one step (of the
  // default action, whose outcome is discarded) and starts the next level.
  void ForceNextLevel() {
    action_ = -1;
    api_.act(handle_);
  }

  static std::vector<uint8_t>& HumanFrame() {
    static std::vector<uint8_t> frame(size_t{kRenderHeight} * kRenderWidth * 3);
    return frame;
  }
  static std::mutex& HumanFrameMutex() {
    static std::mutex mutex;
    return mutex;
  }

  void WriteOutput(const StepOutput& out) {
    uint8_t* obs = out[obs_];
    if (channel_first_) {
      constexpr size_t kPlane = size_t{kRes} * kRes;
      SplitRgbPlanes(frame_.data(), kPlane, obs, obs + kPlane, obs + 2 * kPlane);
    } else {
      std::memcpy(obs, frame_.data(), kFrameBytes);
    }
    *out[level_seed_out_] = level_seed_;
    *out[prev_level_seed_out_] = prev_level_seed_;
    *out[prev_level_complete_out_] = prev_level_complete_;
  }

  OutputField<uint8_t> obs_;
  OutputField<int32_t> level_seed_out_, prev_level_seed_out_, prev_level_complete_out_;
  const procgen_detail::Libenv& api_;
  const procgen_detail::GameInfo& game_;
  bool channel_first_;
  std::vector<procgen_detail::LibenvOption> options_;
  std::vector<std::string> values_;
  bool can_save_game_;  // procgen saves no game with generated assets
  size_t rand_seed_slot_ = 0;
  int env_id_ = 0;

  void* handle_ = nullptr;
  // The buffers the game writes (libenv_set_buffers keeps their addresses).
  std::vector<uint8_t> frame_;
  float reward_ = 0.0f;
  uint8_t first_ = 0;
  int32_t action_ = 0;
  int32_t level_seed_ = 0, prev_level_seed_ = 0;
  uint8_t prev_level_complete_ = 0;
  void* ob_ptr_ = nullptr;
  void* ac_ptr_ = nullptr;
  std::array<void*, 4> info_ptrs_{};
  bool last_done_ = false;
  int steps_ = 0;
};

}  // namespace envpool_x

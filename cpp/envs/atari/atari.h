// Atari 2600 games on ALE, with EnvPool's preprocessing and reset semantics:
// no-op starts, fire reset, episodic life, frame skip with a max-pool of the
// last two frames, grayscale or RGB straight from the palette, area resize,
// and a channel-first stack of the last stack_num frames.
//
// Where this differs from EnvPool (on purpose):
// - noop_max = 0 means no no-op frames (EnvPool crashes).
// - frame_skip = 1 pushes the frame itself (EnvPool max-pools it with a
//   running maximum of all earlier frames of the episode).
// - When the game ends in the first frame_skip - 2 frames of a step, the
//   last emulated frame is pushed (EnvPool pushes the previous step's frame).
// - ALE's own random stream (sticky actions) is reseeded from the env's seed
//   stream at every new game, so trajectories depend on (seed, env id) only.
// - No discount output: terminated covers game over and, with episodic_life,
//   a life lost; with zero_discount_on_life_loss an info field "discount"
//   (0 on termination or a change of lives) is added, and the dm_env front
//   end uses it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ale/ale_interface.hpp"
#include "core/env.h"
#include "core/errors.h"
#include "envs/atari/resize.h"
#include "envs/atari/rom.h"

namespace envpool_x {

class Atari {
 public:
  static constexpr const char* kName = "Atari";
  static constexpr bool kCheap = false;
  static constexpr int kRawHeight = 210;
  static constexpr int kRawWidth = 160;
  static constexpr int kRamSize = 128;
  static constexpr size_t kRawPixels = size_t{kRawHeight} * kRawWidth;

  static Config DefaultConfig() {
    return Config{{"task", std::string("pong")},
                  {"rom_path", std::string("")},
                  {"stack_num", int64_t{4}},
                  {"frame_skip", int64_t{4}},
                  {"noop_max", int64_t{30}},
                  {"episodic_life", false},
                  {"zero_discount_on_life_loss", false},
                  {"reward_clip", false},
                  {"use_fire_reset", true},
                  {"img_height", int64_t{84}},
                  {"img_width", int64_t{84}},
                  {"gray_scale", true},
                  {"use_inter_area_resize", true},
                  {"repeat_action_probability", 0.0},
                  {"full_action_space", false},
                  {"mode", int64_t{-1}},
                  {"difficulty", int64_t{-1}}};
  }

  static EnvSpec Spec(const Config& config) {
    const std::string& task = config.String("task");
    auto at_least = [&](const char* key, int64_t min) {
      int64_t v = config.Int(key);
      if (v < min) {
        throw ValueError(std::string(key) + " must be >= " + std::to_string(min) + ", got " +
                         std::to_string(v));
      }
      return v;
    };
    const int64_t stack_num = at_least("stack_num", 1);
    at_least("frame_skip", 1);
    at_least("noop_max", 0);
    const int64_t h = at_least("img_height", 1);
    const int64_t w = at_least("img_width", 1);
    const double p = config.Double("repeat_action_probability");
    if (!(p >= 0.0 && p <= 1.0)) {
      throw ValueError("repeat_action_probability must be in [0, 1], got " + std::to_string(p));
    }
    atari_detail::RomInfo rom = atari_detail::GetRomInfo(config.String("rom_path"), task);
    const int64_t mode = config.Int("mode");
    if (mode != -1 && std::find(rom.modes.begin(), rom.modes.end(), mode) == rom.modes.end()) {
      throw ValueError("mode " + std::to_string(mode) + " is not a mode of '" + task +
                       "'; available: " + atari_detail::JoinInts(rom.modes) +
                       " (-1: the game's default)");
    }
    const int64_t difficulty = config.Int("difficulty");
    if (difficulty != -1 && std::find(rom.difficulties.begin(), rom.difficulties.end(),
                                      difficulty) == rom.difficulties.end()) {
      throw ValueError("difficulty " + std::to_string(difficulty) + " is not a difficulty of '" +
                       task + "'; available: " + atari_detail::JoinInts(rom.difficulties) +
                       " (-1: the game's default)");
    }
    const int64_t channels = config.Bool("gray_scale") ? 1 : 3;
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs", DType::kUInt8, {stack_num * channels, h, w}, {0}, {255}});
    spec.info.push_back(ArraySpec{"lives", DType::kInt32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"reward", DType::kFloat32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"terminated", DType::kBool, {}, {0}, {1}});
    spec.info.push_back(ArraySpec{"ram", DType::kUInt8, {kRamSize}, {0}, {255}});
    if (config.Bool("zero_discount_on_life_loss")) {
      spec.info.push_back(ArraySpec{"discount", DType::kFloat32, {}, {0}, {1}});
    }
    spec.action.discrete = true;
    spec.action.n = config.Bool("full_action_space") ? rom.legal_actions : rom.minimal_actions;
    if (config.Bool("reward_clip")) {
      spec.reward_low = -1.0;
      spec.reward_high = 1.0;
    }
    return spec;
  }

  Atari(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<uint8_t>(spec, "obs")),
        lives_field_(InfoField<int32_t>(spec, "lives")),
        raw_reward_(InfoField<float>(spec, "reward")),
        game_over_(InfoField<bool>(spec, "terminated")),
        ram_(InfoField<uint8_t>(spec, "ram")),
        discount_(OptionalInfoField<float>(spec, "discount")),
        task_(config.String("task")),
        stack_num_(static_cast<int>(config.Int("stack_num"))),
        frame_skip_(static_cast<int>(config.Int("frame_skip"))),
        noop_max_(static_cast<int>(config.Int("noop_max"))),
        episodic_life_(config.Bool("episodic_life")),
        reward_clip_(config.Bool("reward_clip")),
        gray_scale_(config.Bool("gray_scale")),
        channels_(gray_scale_ ? 1 : 3),
        height_(static_cast<int>(config.Int("img_height"))),
        width_(static_cast<int>(config.Int("img_width"))),
        frame_bytes_(static_cast<size_t>(channels_) * height_ * width_),
        resizer_(kRawHeight, kRawWidth, height_, width_, config.Bool("use_inter_area_resize")),
        ale_(std::make_unique<ale::ALEInterface>()) {
    atari_detail::QuietAle();
    ale_->setFloat("repeat_action_probability",
                   static_cast<float>(config.Double("repeat_action_probability")));
    // Fixed here; reseeded from the env's own stream at every new game.
    ale_->setInt("random_seed", 0);
    atari_detail::LoadRom(*ale_, config.String("rom_path"), task_);
    if (config.Int("mode") != -1) ale_->setMode(static_cast<ale::game_mode_t>(config.Int("mode")));
    if (config.Int("difficulty") != -1) {
      ale_->setDifficulty(static_cast<ale::difficulty_t>(config.Int("difficulty")));
    }
    action_set_ =
        config.Bool("full_action_space") ? ale_->getLegalActionSet() : ale_->getMinimalActionSet();
    if (config.Bool("use_fire_reset")) {
      fire_reset_ = std::find(action_set_.begin(), action_set_.end(), ale::PLAYER_A_FIRE) !=
                    action_set_.end();
    }
    BuildPalette();
    prev_screen_.resize(kRawPixels);
    last_prev_.resize(kRawPixels);
    last_cur_.resize(kRawPixels);
    row_dirty_.resize(kRawHeight);
    planes_.resize(kRawPixels * channels_);
    stack_.resize(static_cast<size_t>(stack_num_) * frame_bytes_);
  }

  // The pool's time limit: with episodic_life a game goes on over several
  // episodes (one per life), and the limit counts the steps of the game, as in
  // EnvPool (see ElapsedAfterReset).
  void SetMaxEpisodeSteps(int steps) { max_episode_steps_ = steps; }
  // Steps of the current game so far: 0 after a new game, the count of the
  // game after a life-loss reset.
  int ElapsedAfterReset() const { return elapsed_; }

  void Reset(Rng& rng, const StepOutput& out) {
    bool new_game = !continue_game_;
    continue_game_ = false;
    if (new_game) NewGame(rng);
    int noops = 0;
    if (noop_max_ > 0) {
      noops = static_cast<int>(rng.UniformInt(static_cast<uint64_t>(noop_max_))) + 1 -
              (fire_reset_ ? 1 : 0);
    }
    for (int i = 0; i < noops; ++i) {
      ale_->act(ale::PLAYER_A_NOOP);
      if (ale_->game_over()) {
        NewGame(rng);
        new_game = true;
      }
    }
    if (fire_reset_) ale_->act(ale::PLAYER_A_FIRE);
    Push(nullptr, Screen(), /*fill=*/new_game);
    lives_ = ale_->lives();
    WriteOutput(out, 0.0f, 1.0f);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const ale::Action a = action_set_[DiscreteAction(action)];
    float reward = 0.0f;
    bool game_over = false;
    int f = 0;
    for (; f < frame_skip_; ++f) {
      reward += static_cast<float>(ale_->act(a));
      game_over = ale_->game_over();
      if (game_over) {
        ++f;
        break;
      }
      // Palette indices of the second-to-last frame (ALE overwrites its
      // screen every frame); the colours are looked up once, in Push.
      if (f == frame_skip_ - 2) std::memcpy(prev_screen_.data(), Screen(), kRawPixels);
    }
    // Max-pool the last two frames when every frame of the skip ran.
    const bool pool = frame_skip_ > 1 && f == frame_skip_;
    Push(pool ? prev_screen_.data() : nullptr, Screen(), /*fill=*/false);
    ++elapsed_;
    const int lives = ale_->lives();
    bool terminated = game_over;
    const bool life_lost = lives < lives_ && lives > 0;
    if (episodic_life_ && life_lost) terminated = true;
    const bool time_left = max_episode_steps_ <= 0 || elapsed_ < max_episode_steps_;
    continue_game_ = episodic_life_ && life_lost && !game_over && time_left;
    const float discount = (terminated || lives != lives_) ? 0.0f : 1.0f;
    lives_ = lives;
    *out.terminated = terminated;
    *out.reward = reward_clip_ ? static_cast<float>((reward > 0.0f) - (reward < 0.0f)) : reward;
    WriteOutput(out, reward, discount);
  }

  // render(): ALE's RGB screen of the last emulated frame, as ale-py's render(),
  // cut to the 210 x 160 the observation shows: a few games have a taller
  // screen (Adventure: 250 rows), which ALE writes whole.
  static constexpr int kRenderHeight = kRawHeight;
  static constexpr int kRenderWidth = kRawWidth;
  void Render(uint8_t* rgb) {
    std::vector<unsigned char> frame;  // resized by ALE to its screen
    ale_->getScreenRGB(frame);
    const size_t width = ale_->getScreen().width();
    const size_t rows = std::min<size_t>(ale_->getScreen().height(), kRawHeight);
    const size_t row_bytes = std::min<size_t>(width, kRawWidth) * 3;
    std::memset(rgb, 0, kRawPixels * 3);
    for (size_t y = 0; y < rows; ++y) {
      std::memcpy(rgb + y * kRawWidth * 3, frame.data() + y * width * 3, row_bytes);
    }
  }

  std::vector<double> GetState() const {
    throw ValueError("Atari envs have no get_state; ALE's state is not a vector of numbers");
  }
  void SetState(const std::vector<double>& /*s*/) {
    throw ValueError("Atari envs have no set_state; ALE's state is not a vector of numbers");
  }

 private:
  void NewGame(Rng& rng) {
    ale_->environment->getEnvironmentRNG().seed(static_cast<uint32_t>(rng.NextU64() >> 32));
    ale_->reset_game();
    elapsed_ = 0;
  }

  // ALE's screen: palette indices of the last emulated frame.
  const uint8_t* Screen() { return ale_->getScreen().getArray(); }

  // Our own lookup tables from palette index to grey level or R, G, B, made
  // with ALE's palette functions so they match getScreenGrayscale/RGB.
  void BuildPalette() {
    uint8_t index[256];
    // Screens only hold even indices (TIA colour registers drop bit 0); 255
    // would make ALE's grey lookup read past its table, so it reuses 254.
    for (int i = 0; i < 256; ++i) index[i] = static_cast<uint8_t>(std::min(i, 254));
    auto& palette = ale_->theOSystem->colourPalette();
    if (gray_scale_) {
      palette.applyPaletteGrayscale(lut_[0].data(), index, 256);
    } else {
      uint8_t rgb[3 * 256];
      palette.applyPaletteRGB(rgb, index, 256);
      for (int i = 0; i < 256; ++i) {
        for (int c = 0; c < 3; ++c) lut_[c][i] = rgb[3 * i + c];
      }
    }
  }

  // Colours of `cur` (with `prev`: the per-channel max of both frames) into
  // channel-first planes, then resized into the newest slot of the stack
  // (dropping the oldest); with fill, into every slot.
  //
  // Only what changed is redone: a source row whose palette indices (of both
  // frames) equal the last Push's keeps its colours in planes_, and a target
  // row reading only such rows is copied from the previous slot. Static
  // backgrounds (most of Pong's or Breakout's screen) cost a compare.
  void Push(const uint8_t* prev, const uint8_t* cur, bool fill) {
    const bool pooled = prev != nullptr;
    const bool reuse = have_last_ && last_pooled_ == pooled && resizer_.RowWise();
    for (int y = 0; y < kRawHeight; ++y) {
      const size_t o = static_cast<size_t>(y) * kRawWidth;
      const bool dirty = !reuse || std::memcmp(cur + o, last_cur_.data() + o, kRawWidth) != 0 ||
                         (pooled && std::memcmp(prev + o, last_prev_.data() + o, kRawWidth) != 0);
      row_dirty_[y] = dirty;
      if (!dirty) continue;
      for (int c = 0; c < channels_; ++c) {
        atari_detail::ApplyPalette(lut_[c].data(), pooled ? prev + o : nullptr, cur + o,
                                   planes_.data() + c * kRawPixels + o, kRawWidth);
      }
    }
    std::memcpy(last_cur_.data(), cur, kRawPixels);
    if (pooled) std::memcpy(last_prev_.data(), prev, kRawPixels);
    have_last_ = true;
    last_pooled_ = pooled;

    const uint8_t* last_slot = stack_.data() + static_cast<size_t>(head_) * frame_bytes_;
    head_ = (head_ + 1) % stack_num_;
    uint8_t* slot = stack_.data() + static_cast<size_t>(head_) * frame_bytes_;
    const size_t plane = static_cast<size_t>(height_) * width_;
    for (int c = 0; c < channels_; ++c) {
      const uint8_t* src = planes_.data() + c * kRawPixels;
      uint8_t* dst = slot + c * plane;
      if (!reuse) {
        resizer_.Resize(src, dst);
        continue;
      }
      for (int dy = 0; dy < height_; ++dy) {
        auto [first, last] = resizer_.SourceRows(dy);
        bool dirty = false;
        for (int y = first; y < last; ++y) dirty |= row_dirty_[y] != 0;
        if (dirty) {
          resizer_.ResizeRow(src, dst, dy);
        } else if (slot != last_slot) {  // stack_num 1: the row is already there
          std::memcpy(dst + static_cast<size_t>(dy) * width_,
                      last_slot + c * plane + static_cast<size_t>(dy) * width_, width_);
        }
      }
    }
    if (fill) {
      for (int i = 0; i < stack_num_; ++i) {
        if (i != head_) std::memcpy(stack_.data() + i * frame_bytes_, slot, frame_bytes_);
      }
    }
  }

  void WriteOutput(const StepOutput& out, float raw_reward, float discount) {
    uint8_t* obs = out[obs_];
    // Oldest first: the slot after head_ is the oldest.
    for (int i = 0; i < stack_num_; ++i) {
      int slot = (head_ + 1 + i) % stack_num_;
      std::memcpy(obs + i * frame_bytes_, stack_.data() + slot * frame_bytes_, frame_bytes_);
    }
    *out[lives_field_] = lives_;
    *out[raw_reward_] = raw_reward;
    *out[game_over_] = ale_->game_over();
    std::memcpy(out[ram_], ale_->getRAM().array(), kRamSize);
    if (discount_.bound()) *out[discount_] = discount;
  }

  // Output fields; `discount` is bound only with zero_discount_on_life_loss.
  OutputField<uint8_t> obs_;
  OutputField<int32_t> lives_field_;
  OutputField<float> raw_reward_;
  OutputField<bool> game_over_;
  OutputField<uint8_t> ram_;
  OutputField<float> discount_;
  std::string task_;
  int stack_num_, frame_skip_, noop_max_;
  bool episodic_life_, reward_clip_, gray_scale_;
  int channels_, height_, width_;
  size_t frame_bytes_;
  PlaneResizer resizer_;
  std::unique_ptr<ale::ALEInterface> ale_;
  ale::ActionVect action_set_;
  bool fire_reset_ = false;
  std::array<std::array<uint8_t, 256>, 3> lut_{};  // palette index -> level, per channel
  std::vector<uint8_t> prev_screen_;  // palette indices of a skip's second-to-last frame
  std::vector<uint8_t> planes_;       // channel-first 210 x 160 colour planes
  // The palette indices the last Push coloured, to redo only changed rows.
  std::vector<uint8_t> last_prev_, last_cur_;
  std::vector<uint8_t> row_dirty_;  // per source row, this Push
  bool have_last_ = false;
  bool last_pooled_ = false;
  std::vector<uint8_t> stack_;  // stack_num frames, ring buffer
  int head_ = 0;                // newest slot of stack_
  int lives_ = 0;
  int elapsed_ = 0;
  int max_episode_steps_ = 0;
  bool continue_game_ = false;
};

}  // namespace envpool_x

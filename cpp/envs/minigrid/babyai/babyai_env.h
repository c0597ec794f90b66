// BabyAIEnv: the BabyAI levels (minigrid 3.2.0's envs/babyai) on the MiniGrid
// engine, one pool class for every level (the `level` config key). A reset
// draws a layout and an instruction (rejection sampling), a step is the
// MiniGrid step followed by the instruction's verifier: success ends the
// episode with 1 - 0.9 * step_count / max_steps, failure with 0. max_steps is
// the level's own limit, or the number of navigations the instruction needs
// times the maze's area (RoomGridLevel), and the env truncates there itself
// (the pool's max_episode_steps is only an outer bound).
//
// Observation (EnvPool 1.2.5's): "direction", "image" and "mission" (the
// mission text as mission_bytes zero-padded UTF-8 bytes, 512 by default).
// Info: "mission_id" (always -1: BabyAI missions are free text, as in
// EnvPool) and "agent_pos".
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/minigrid/babyai/levels.h"
#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid::babyai {

class BabyAIEnv {
 public:
  static constexpr const char* kName = "BabyAI";
  static constexpr bool kCheap = true;
  // State hook extras: the start-carried object's place, then the instruction.
  static constexpr int kNumExtra = 2 + kMaxNodes * kNodeValues;
  // Rejection sampling gives up after this many draws (a config that cannot fit).
  static constexpr int kMaxAttempts = 10000;

  static Config DefaultConfig() {
    return Config{{"level", std::string("GoToRedBall")},
                  {"room_size", int64_t{8}},
                  {"num_rows", int64_t{3}},
                  {"num_cols", int64_t{3}},
                  {"num_dists", int64_t{18}},
                  {"num_objs", int64_t{8}},
                  {"objs_per_room", int64_t{4}},
                  {"num_doors", int64_t{2}},
                  {"doors_open", false},
                  {"debug", false},
                  {"strict", false},
                  {"start_carrying", false},
                  {"distractors", false},
                  {"select_by", std::string()},
                  {"first_color", std::string()},
                  {"second_color", std::string()},
                  {"agent_view_size", int64_t{7}},
                  {"mission_bytes", int64_t{512}}};
  }

  static LevelParams Params(const Config& c, const LevelEntry** entry) {
    const std::string& name = c.String("level");
    *entry = FindLevel(name);
    if (*entry == nullptr) throw ValueError("BabyAI: unknown level '" + name + "'");
    LevelParams p;
    p.room_size = static_cast<int>(c.Int("room_size"));
    p.num_rows = static_cast<int>(c.Int("num_rows"));
    p.num_cols = static_cast<int>(c.Int("num_cols"));
    p.num_dists = static_cast<int>(c.Int("num_dists"));
    p.num_objs = static_cast<int>(c.Int("num_objs"));
    p.objs_per_room = static_cast<int>(c.Int("objs_per_room"));
    p.num_doors = static_cast<int>(c.Int("num_doors"));
    p.doors_open = c.Bool("doors_open");
    p.debug = c.Bool("debug");
    p.strict = c.Bool("strict");
    p.start_carrying = c.Bool("start_carrying");
    p.distractors = c.Bool("distractors");
    p.select_by = c.String("select_by");
    p.first_color = c.String("first_color");
    p.second_color = c.String("second_color");
    (*entry)->shape(p);
    auto check = [&](bool ok, const std::string& what) {
      if (!ok) throw ValueError("BabyAI " + name + ": " + what);
    };
    check(p.room_size >= 3 && p.room_size <= 32, "room_size must be in [3, 32]");
    check(p.num_rows >= 1 && p.num_rows <= 8 && p.num_cols >= 1 && p.num_cols <= 8,
          "num_rows and num_cols must be in [1, 8]");
    check(p.num_dists >= 0 && p.num_dists <= 64 && p.num_objs >= 2 && p.num_objs <= 18,
          "num_dists must be in [0, 64] and num_objs in [2, 18]");
    check(p.objs_per_room >= 1 && p.objs_per_room <= 9, "objs_per_room must be in [1, 9]");
    check(p.num_doors >= 2 && p.num_doors <= 4, "num_doors must be in [2, 4]");
    check(p.select_by.empty() || p.select_by == "color" || p.select_by == "loc",
          "select_by must be '', 'color' or 'loc'");
    for (const std::string* s : {&p.first_color, &p.second_color}) {
      check(s->empty() || ColorByName(*s) >= 0, "unknown colour '" + *s + "'");
    }
    const std::string problem = LevelOptionsProblem(**entry, p);
    check(problem.empty(), problem + " (" + OptionsText(p) + ")");
    return p;
  }

  // The options a layout depends on, for messages.
  static std::string OptionsText(const LevelParams& p) {
    return "room_size=" + std::to_string(p.room_size) + ", num_rows=" + std::to_string(p.num_rows) +
           ", num_cols=" + std::to_string(p.num_cols) +
           ", num_dists=" + std::to_string(p.num_dists) +
           ", num_objs=" + std::to_string(p.num_objs) +
           ", objs_per_room=" + std::to_string(p.objs_per_room) +
           ", num_doors=" + std::to_string(p.num_doors);
  }

  static EnvSpec Spec(const Config& config) {
    const LevelEntry* entry = nullptr;
    const LevelParams p = Params(config, &entry);
    const int64_t view = config.Int("agent_view_size");
    if (view < 3 || view % 2 == 0 || view > 63) {
      throw ValueError("BabyAI agent_view_size must be odd and in [3, 63], got " +
                       std::to_string(view));
    }
    const int64_t bytes = config.Int("mission_bytes");
    if (bytes < 64 || bytes > 4096) {
      throw ValueError("BabyAI mission_bytes must be in [64, 4096], got " + std::to_string(bytes));
    }
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("direction", 4, DType::kInt32));
    spec.obs.push_back(ArraySpec{"image", DType::kUInt8, {view, view, 3}, {0.0}, {255.0}});
    spec.obs.push_back(ArraySpec{"mission", DType::kUInt8, {bytes}, {0.0}, {255.0}});
    spec.info.push_back(ArraySpec{"mission_id", DType::kInt32, {}, {-1.0}, {-1.0}});
    const double far = (p.room_size - 1) * std::max(p.num_rows, p.num_cols);
    spec.info.push_back(ArraySpec{"agent_pos", DType::kInt32, {2}, {0.0}, {far}});
    spec.action.discrete = true;
    spec.action.n = kNumActions;
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  BabyAIEnv(const Config& config, const EnvSpec& spec)
      : params_(Params(config, &entry_)),
        level_(world_, params_),
        direction_(ObsField<int32_t>(spec, "direction")),
        image_(ObsField<uint8_t>(spec, "image")),
        mission_(ObsField<uint8_t>(spec, "mission")),
        mission_id_(InfoField<int32_t>(spec, "mission_id")),
        agent_pos_(InfoField<int32_t>(spec, "agent_pos")),
        mission_bytes_(static_cast<int>(config.Int("mission_bytes"))) {
    world_.grid.Resize(level_.rooms.width(), level_.rooms.height());
    world_.view_size = static_cast<int>(config.Int("agent_view_size"));
    view_.resize(static_cast<size_t>(world_.view_size) * world_.view_size);
    visible_.assign(view_.size(), 0);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    level_.rng = &rng;
    for (int attempt = 0;; ++attempt) {
      if (attempt == kMaxAttempts) {
        throw ValueError("BabyAI " + std::string(entry_->name) + ": no valid layout in " +
                         std::to_string(kMaxAttempts) + " draws with " + OptionsText(params_) +
                         " (too many objects for the rooms?)");
      }
      level_.Begin();
      try {
        entry_->gen(level_);
        level_.table.Assign(world_);
        level_.Validate();
        break;
      } catch (const LayoutDeadEnd&) {  // Reject, or a generator's dead end
      }
    }
    carry_from_ = level_.carry_from;
    StartEpisode();
    WriteObs(out);
  }

  void Step(const void* action, Rng&, const StepOutput& out) {
    const int a = DiscreteAction(action);
    const StepEvent ev = world_.Step(a);
    level_.table.AfterStep(world_, a, ev);
    auto find = [this](ObjDesc* d, bool use_location) { level_.Find(d, use_location); };
    if (a == kDrop) level_.instr.UpdatePositions(find);
    const int status = level_.instr.Verify(world_, level_.table, a);
    *out.reward = status == kSuccess ? world_.SuccessReward() : 0.0f;
    *out.terminated = status == kSuccess || status == kFailure;
    *out.truncated = world_.step_count >= world_.max_steps;
    WriteObs(out);
  }

  const std::string& mission() const { return mission_text_; }
  std::vector<double> GetState() const;
  void SetState(const std::vector<double>& s);

 private:
  // After a layout: reset_verifier, the mission text, max_steps, then
  // PutNext's start_carrying (the object is taken from the grid after the
  // verifier has seen it there, as minigrid's reset does).
  void StartEpisode() {
    auto find = [this](ObjDesc* d, bool use_location) { level_.Find(d, use_location); };
    level_.instr.ResetVerifier(find);
    mission_text_ = level_.instr.Surface();
    if (static_cast<int>(mission_text_.size()) > mission_bytes_) {
      throw ValueError("BabyAI mission longer than mission_bytes (" +
                       std::to_string(mission_bytes_) + "): " + mission_text_);
    }
    const LevelParams& p = params_;
    const int area = p.room_size * p.room_size * p.num_rows * p.num_cols;
    world_.max_steps = p.max_steps > 0 ? p.max_steps : level_.instr.NumNavs() * area;
    const Pos c = carry_from_;
    if (c.x >= 0) {
      ObjectTable& t = level_.table;
      world_.carrying = world_.grid.Get(c.x, c.y);
      world_.grid.Remove(c.x, c.y);
      t.carried = t.At(c);
      t.At(c) = 0;
    }
  }

  void WriteObs(const StepOutput& out) {
    *out[direction_] = world_.dir;
    world_.EncodeView(out[image_], view_.data(), reinterpret_cast<bool*>(visible_.data()));
    uint8_t* bytes = out[mission_];
    std::memset(bytes, 0, mission_bytes_);
    std::memcpy(bytes, mission_text_.data(), mission_text_.size());
    *out[mission_id_] = -1;
    out[agent_pos_][0] = world_.agent.x;
    out[agent_pos_][1] = world_.agent.y;
  }

  const LevelEntry* entry_ = nullptr;
  LevelParams params_;
  World world_;
  Level level_;
  Pos carry_from_{-1, -1};
  std::string mission_text_;
  std::vector<Cell> view_;
  std::vector<uint8_t> visible_;
  OutputField<int32_t> direction_;
  OutputField<uint8_t> image_;
  OutputField<uint8_t> mission_;
  OutputField<int32_t> mission_id_;
  OutputField<int32_t> agent_pos_;
  int mission_bytes_ = 512;
};

}  // namespace envpool_x::minigrid::babyai

#include "envs/minigrid/babyai/state_hook.h"

// MiniGridEnv<Task>: one pool class per MiniGrid environment. The task (one
// header each) declares its config keys, grid size, sight rule and missions,
// generates a layout on reset and may add rules to the base step; this class
// owns the world, the observation and the state hook tests load layouts with.
//
// Observation (EnvPool 1.2.5's names): "direction" (int32, 0..3), "image"
// (view x view x 3 uint8, minigrid's encoding), "mission" (the mission string
// as mission_bytes UTF-8 bytes, zero padded). Info: "mission_id" (index of the
// mission in the task's mission list) and "agent_pos" (x, y).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/minigrid/engine.h"

namespace envpool_x::minigrid {

// What every task inherits: no extra state, minigrid's base step.
struct TaskBase {
  static constexpr int kNumExtra = 0;  // extra state values (GetState / SetState)
  static constexpr int kNumActions = 7;
  static constexpr double kRewardLow = 0.0;
  bool see_through_walls = false;
  int width = 0;
  int height = 0;
  StepEvent Step(World& w, int action, Rng&) { return w.Step(action); }
  void GetExtra(double*) const {}
  void SetExtra(const double*) {}
  // A position among the extra values, checked to lie in the grid.
  Pos ExtraPos(const double* e) const {
    if (!(e[0] >= 0 && e[0] < width && e[1] >= 0 && e[1] < height)) {
      throw ValueError("MiniGrid state: a position outside the grid");
    }
    return Pos{static_cast<int>(e[0]), static_cast<int>(e[1])};
  }
};

// The state layout of the test hook: width, height, agent x, y, dir,
// step_count, mission_id, the carried object (5 codes), then the grid row by
// row (5 codes a cell: type, color, state, box content type and color), then
// the task's extra values.
constexpr int kStateHeader = 12;

template <typename Task>
class MiniGridEnv {
 public:
  static constexpr const char* kName = Task::kName;
  static constexpr bool kCheap = true;
  // Layouts drawn again after a dead end (LayoutDeadEnd) before giving up.
  static constexpr int kMaxLayoutAttempts = 1000;

  static Config DefaultConfig() {
    Config c = Task::Defaults();
    c.Set("agent_view_size", int64_t{7});
    c.Set("mission_bytes", int64_t{96});
    return c;
  }

  static EnvSpec Spec(const Config& config) {
    const Task task(config);
    const int64_t view = ViewSize(config);
    const int64_t bytes = config.Int("mission_bytes");
    size_t longest = 0;
    for (const std::string& m : task.Missions()) longest = std::max(longest, m.size());
    if (bytes < 1 || static_cast<size_t>(bytes) < longest || bytes > 4096) {
      throw ValueError("MiniGrid mission_bytes must hold the longest mission (" +
                       std::to_string(longest) + " bytes) and be at most 4096, got " +
                       std::to_string(bytes));
    }
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("direction", 4, DType::kInt32));
    spec.obs.push_back(ArraySpec{"image", DType::kUInt8, {view, view, 3}, {0.0}, {255.0}});
    spec.obs.push_back(ArraySpec{"mission", DType::kUInt8, {bytes}, {0.0}, {255.0}});
    const double n_missions = static_cast<double>(task.Missions().size());
    spec.info.push_back(ArraySpec{"mission_id", DType::kInt32, {}, {0.0}, {n_missions - 1}});
    const double far = std::max(task.width, task.height) - 1;
    spec.info.push_back(ArraySpec{"agent_pos", DType::kInt32, {2}, {0.0}, {far}});
    spec.action.discrete = true;
    spec.action.n = Task::kNumActions;
    spec.reward_low = Task::kRewardLow;
    spec.reward_high = 1.0;
    return spec;
  }

  MiniGridEnv(const Config& config, const EnvSpec& spec)
      : task_(config),
        direction_(ObsField<int32_t>(spec, "direction")),
        image_(ObsField<uint8_t>(spec, "image")),
        mission_(ObsField<uint8_t>(spec, "mission")),
        mission_id_(InfoField<int32_t>(spec, "mission_id")),
        agent_pos_(InfoField<int32_t>(spec, "agent_pos")),
        mission_bytes_(static_cast<int>(config.Int("mission_bytes"))),
        options_(OptionsText(config)) {
    world_.grid.Resize(task_.width, task_.height);
    world_.see_through_walls = task_.see_through_walls;
    world_.view_size = static_cast<int>(ViewSize(config));
    view_.resize(static_cast<size_t>(world_.view_size) * world_.view_size);
    visible_.assign(view_.size(), 0);
  }

  void SetMaxEpisodeSteps(int steps) { world_.max_steps = steps; }

  // A layout that runs into a dead end (where minigrid would sample forever)
  // is drawn again, from where the stream is.
  void Reset(Rng& rng, const StepOutput& out) {
    for (int attempt = 1;; ++attempt) {
      world_.BeginReset();
      try {
        mission_id_value_ = task_.Generate(world_, rng);
        break;
      } catch (const LayoutDeadEnd& e) {
        if (attempt == kMaxLayoutAttempts) {
          throw ValueError(std::string(kName) + ": no layout in " + std::to_string(attempt) +
                           " attempts with " + options_ + " (" + e.what() + ")");
        }
      }
    }
    WriteObs(out);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    const StepEvent ev = task_.Step(world_, DiscreteAction(action), rng);
    *out.reward = ev.reward;
    *out.terminated = ev.terminated;
    WriteObs(out);
  }

  std::vector<double> GetState() const {
    const Grid& g = world_.grid;
    std::vector<double> s = {
        static_cast<double>(g.width()),        static_cast<double>(g.height()),
        static_cast<double>(world_.agent.x),   static_cast<double>(world_.agent.y),
        static_cast<double>(world_.dir),       static_cast<double>(world_.step_count),
        static_cast<double>(mission_id_value_)};
    AppendCell(&s, world_.carrying);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) AppendCell(&s, g.Get(x, y));
    }
    s.resize(s.size() + NumExtra());
    task_.GetExtra(s.data() + s.size() - NumExtra());
    return s;
  }

  // The test hook: loads a whole world (a layout read from minigrid).
  void SetState(const std::vector<double>& s) {
    const int w = task_.width, h = task_.height;
    const size_t want = kStateHeader + static_cast<size_t>(w) * h * 5 + NumExtra();
    if (s.size() != want || s[0] != w || s[1] != h) {
      throw ValueError(std::string(kName) + " state must hold " + std::to_string(want) +
                       " values for a " + std::to_string(w) + "x" + std::to_string(h) +
                       " grid, got " + std::to_string(s.size()));
    }
    const Pos agent{static_cast<int>(s[2]), static_cast<int>(s[3])};
    if (!world_.grid.Inside(agent.x, agent.y) || !(s[4] >= 0 && s[4] < 4) || s[5] < 0 ||
        !(s[6] >= 0 && s[6] < static_cast<double>(task_.Missions().size()))) {
      throw ValueError(std::string(kName) +
                       " state: agent position, direction, step count "
                       "or mission id out of range");
    }
    world_.agent = agent;
    world_.dir = static_cast<int>(s[4]);
    world_.step_count = static_cast<int>(s[5]);
    mission_id_value_ = static_cast<int>(s[6]);
    world_.carrying = CellFromCodes(s[7], s[8], s[9], s[10], s[11]);
    const double* c = s.data() + kStateHeader;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x, c += 5) {
        world_.grid.Set(x, y, CellFromCodes(c[0], c[1], c[2], c[3], c[4]));
      }
    }
    task_.SetExtra(c);
  }

 private:
  // Extra state values: a fixed count, or one that depends on the config.
  int NumExtra() const {
    if constexpr (requires { task_.NumExtra(); }) {
      return task_.NumExtra();
    } else {
      return Task::kNumExtra;
    }
  }
  static int64_t ViewSize(const Config& config) {
    const int64_t v = config.Int("agent_view_size");
    if (v < 3 || v % 2 == 0 || v > 63) {
      throw ValueError("MiniGrid agent_view_size must be odd and in [3, 63], got " +
                       std::to_string(v));
    }
    return v;
  }
  // "size=5, num_objs=4": the task's own options, for messages.
  static std::string OptionsText(const Config& config) {
    std::string text;
    const Config defaults = Task::Defaults();
    for (const auto& [key, unused] : defaults.values()) {
      (void)unused;
      if (!text.empty()) text += ", ";
      text += key + "=" + ValueText(config.Get(key));
    }
    return text.empty() ? "no options" : text;
  }
  static std::string ValueText(const ConfigValue& v) {
    std::ostringstream t;
    if (const bool* b = std::get_if<bool>(&v)) t << (*b ? "True" : "False");
    if (const int64_t* i = std::get_if<int64_t>(&v)) t << *i;
    if (const double* d = std::get_if<double>(&v)) t << *d;
    if (const std::string* str = std::get_if<std::string>(&v)) t << "'" << *str << "'";
    if (const auto* l = std::get_if<std::vector<double>>(&v)) {
      t << "(";
      for (size_t k = 0; k < l->size(); ++k) t << (k ? ", " : "") << (*l)[k];
      t << ")";
    }
    return t.str();
  }
  static void AppendCell(std::vector<double>* s, const Cell& c) {
    s->insert(s->end(), {static_cast<double>(c.type), static_cast<double>(c.color),
                         static_cast<double>(c.state), static_cast<double>(c.inner_type),
                         static_cast<double>(c.inner_color)});
  }

  void WriteObs(const StepOutput& out) {
    *out[direction_] = world_.dir;
    world_.EncodeView(out[image_], view_.data(), reinterpret_cast<bool*>(visible_.data()));
    const std::string& m = task_.Missions()[mission_id_value_];
    uint8_t* bytes = out[mission_];
    std::memset(bytes, 0, mission_bytes_);
    std::memcpy(bytes, m.data(), m.size());
    *out[mission_id_] = mission_id_value_;
    out[agent_pos_][0] = world_.agent.x;
    out[agent_pos_][1] = world_.agent.y;
  }

  Task task_;
  World world_;
  std::vector<Cell> view_;
  std::vector<uint8_t> visible_;  // bools (vector<bool> has no data())
  OutputField<int32_t> direction_;
  OutputField<uint8_t> image_;
  OutputField<uint8_t> mission_;
  OutputField<int32_t> mission_id_;
  OutputField<int32_t> agent_pos_;
  int mission_bytes_ = 96;
  int mission_id_value_ = 0;
  std::string options_;  // OptionsText of the config
};

}  // namespace envpool_x::minigrid

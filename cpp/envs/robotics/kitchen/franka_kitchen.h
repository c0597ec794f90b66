// FrankaKitchen-v1 (gymnasium-robotics 1.4.2's franka_kitchen: KitchenEnv on
// FrankaRobot, a gymnasium MujocoEnv with frame_skip 40).
//
// - config: franka_config holds, for each of the model's nv dofs, the
//   position bounds, velocity bounds and the two noise amplitudes of
//   franka_config.xml (6 values a dof; Python reads them from the installed
//   package). tasks_to_complete names the episode's tasks (kitchen_tasks.h).
// - observation (gymnasium's sorted Dict): achieved_goal.<task> (the task's
//   qpos entries) and desired_goal.<task> (its goal) for each chosen task,
//   by name; observation (59): the robot's 9 joint positions and 9
//   velocities, then qpos[9:] and qvel[9:], each plus noise: ratio * amp *
//   U(-1, 1) with the robot ratio and amps of dofs 0-8, the object ratio and
//   amps of dofs 8.. for qpos[9:] (gymnasium-robotics' offset) and 9.. for
//   qvel[9:].
// - step: the action clipped to [-1, 1] and doubled (the actuators' range),
//   clipped to the velocity bounds, times dt added to the last noisy robot
//   positions, clipped to the position bounds: that is ctrl. 40 mj_steps,
//   mj_rnePostConstraint.
// - reward: the number of remaining tasks completed now; completed tasks
//   leave the remaining set (remove_task_when_completed); terminated once
//   every task was completed in the episode (terminate_on_tasks_completed).
// - info (Python makes gymnasium-robotics' lists of them): remaining_tasks
//   and step_completions as bit masks (bit i: KitchenTasks()[i]),
//   completion_order the tasks in the order the episode completed them (-1
//   after the last).
// - reset: mj_resetData, gymnasium-robotics' fixed initial qpos, zero qvel,
//   mj_forward; no draws but the observation noise.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"
#include "envs/robotics/kitchen/kitchen_tasks.h"

namespace envpool_x {

class FrankaKitchen : public MujocoEnvBase {
 public:
  static constexpr const char* kName = "FrankaKitchen";
  static constexpr int kFrameSkip = 40;
  static constexpr int kRobotDofs = 9;
  static constexpr int kObsSize = 59;
  static constexpr int kNumTasks = 7;
  static constexpr int kSpecsPerDof = 6;  // pos low, pos high, vel low, vel high, pos amp, vel amp

  static Config DefaultConfig() {
    std::vector<std::string> all;
    for (const auto& task : robotics::KitchenTasks()) all.emplace_back(task.name);
    return Config{{"xml_file", std::string()},          {"franka_config", std::vector<double>()},
                  {"tasks_to_complete", all},           {"terminate_on_tasks_completed", true},
                  {"remove_task_when_completed", true}, {"robot_noise_ratio", 0.01},
                  {"object_noise_ratio", 0.0005}};
  }

  // The chosen tasks' indices, sorted by name (gymnasium's Dict order);
  // duplicates count once, as in gymnasium-robotics' set.
  static std::vector<int> ChosenTasks(const Config& config) {
    const auto& names = config.Strings("tasks_to_complete");
    if (names.empty()) throw ValueError("tasks_to_complete must name at least one task");
    std::vector<int> chosen;
    for (const auto& name : names) {
      const int index = robotics::KitchenTaskIndex(name);
      if (index < 0) {
        std::string known;
        for (const auto& task : robotics::KitchenTasks()) {
          known += std::string(known.empty() ? "" : ", ") + "'" + task.name + "'";
        }
        throw ValueError("tasks_to_complete: unknown task '" + name + "' (tasks: " + known + ")");
      }
      if (std::find(chosen.begin(), chosen.end(), index) == chosen.end()) chosen.push_back(index);
    }
    std::sort(chosen.begin(), chosen.end(), [](int a, int b) {
      return std::string(robotics::KitchenTasks()[a].name) < robotics::KitchenTasks()[b].name;
    });
    return chosen;
  }

  static EnvSpec Spec(const Config& config) {
    const auto chosen = ChosenTasks(config);
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    CheckFrankaConfig(config, model->nv);
    EnvSpec spec;
    for (const char* group : {"achieved_goal.", "desired_goal."}) {
      for (int index : chosen) {
        const auto& task = robotics::KitchenTasks()[index];
        spec.obs.push_back(mujoco_detail::UnboundedF64(group + std::string(task.name),
                                                       static_cast<int64_t>(task.goal.size())));
      }
    }
    spec.obs.push_back(mujoco_detail::UnboundedF64("observation", kObsSize));
    spec.info.push_back(ArraySpec{"remaining_tasks", DType::kInt32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"step_completions", DType::kInt32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"completion_order", DType::kInt32, {kNumTasks}, {}, {}});
    spec.action.discrete = false;
    spec.action.box = ArraySpec{"action",
                                DType::kFloat32,
                                {model->nu},
                                std::vector<double>(model->nu, -1.0),
                                std::vector<double>(model->nu, 1.0)};
    return spec;
  }

  FrankaKitchen(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), kFrameSkip),
        chosen_(ChosenTasks(config)),
        specs_(config.Doubles("franka_config")),
        terminate_on_completed_(config.Bool("terminate_on_tasks_completed")),
        remove_when_completed_(config.Bool("remove_task_when_completed")),
        robot_noise_(config.Double("robot_noise_ratio")),
        object_noise_(config.Double("object_noise_ratio")),
        observation_(ObsField<double>(spec, "observation")),
        remaining_info_(InfoField<int32_t>(spec, "remaining_tasks")),
        step_info_(InfoField<int32_t>(spec, "step_completions")),
        order_info_(InfoField<int32_t>(spec, "completion_order")) {
    CheckFrankaConfig(config, model_->nv);
    if (model_->nu != kRobotDofs || model_->nq != 30 || model_->nv != 29) {
      throw ValueError("FrankaKitchen: unexpected model sizes (nq 30, nv 29, nu 9 expected)");
    }
    for (int index : chosen_) {
      const std::string name = robotics::KitchenTasks()[index].name;
      achieved_.push_back(ObsField<double>(spec, "achieved_goal." + name));
      desired_.push_back(ObsField<double>(spec, "desired_goal." + name));
      all_mask_ |= 1 << index;
    }
    // robot_get_obs: the joints whose names start with "robot", in model order.
    for (int j = 0; j < model_->njnt && static_cast<int>(robot_qpos_.size()) < kRobotDofs; ++j) {
      const char* name = mj_id2name(model_.get(), mjOBJ_JOINT, j);
      if (name != nullptr && std::string(name).rfind("robot", 0) == 0) {
        robot_qpos_.push_back(model_->jnt_qposadr[j]);
        robot_dof_.push_back(model_->jnt_dofadr[j]);
      }
    }
    if (static_cast<int>(robot_qpos_.size()) != kRobotDofs) {
      throw ValueError("FrankaKitchen: the model must have 9 joints named robot*");
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    mj_resetData(model_.get(), data_.get());
    SetQposQvel(kInitQpos.data(), init_qvel_.data());  // init_qvel: zeros
    remaining_ = all_mask_;
    completed_ = 0;
    order_.fill(-1);
    completions_ = 0;
    WriteObs(rng, out);
    *out[step_info_] = 0;
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    const float* a = BoxAction(action);
    for (int w : kInstabilityWarnings) data_->warning[w].number = 0;
    const double step_dt = dt();
    for (int i = 0; i < kRobotDofs; ++i) {
      // np.clip of the float64 action, then act_mid (0) + a * act_rng (2).
      const double velocity = 0.0 + std::clamp(static_cast<double>(a[i]), -1.0, 1.0) * 2.0;
      const double feasible = std::clamp(velocity, Franka(i, 2), Franka(i, 3));
      const double moved = step_dt * feasible;  // numpy: vel * dt, then the add
      const double position = last_robot_qpos_[i] + moved;
      data_->ctrl[i] = std::clamp(position, Franka(i, 0), Franka(i, 1));
    }
    parts_left_ = frame_skip_;
    while (!StepPart()) {
    }
    WriteObs(rng, out);
    // compute_reward: the remaining tasks within the threshold of their goal.
    int32_t now = 0;
    for (int index = 0; index < kNumTasks; ++index) {
      if ((remaining_ & (1 << index)) && TaskDistance(index) < robotics::kKitchenTaskThreshold) {
        now |= 1 << index;
      }
    }
    if (remove_when_completed_) remaining_ &= ~now;
    int count = 0;
    for (int index = 0; index < kNumTasks; ++index) {
      if (!(now & (1 << index))) continue;
      ++count;
      if (!(completed_ & (1 << index))) {
        completed_ |= 1 << index;
        order_[completions_++] = index;
      }
    }
    *out.reward = static_cast<float>(count);
    *out.terminated = terminate_on_completed_ && completed_ == all_mask_;
    *out[remaining_info_] = remaining_;
    *out[step_info_] = now;
    std::copy(order_.begin(), order_.end(), out[order_info_]);
    EndEpisodeIfUnstable(out);
  }

  // Test hook: qpos, qvel (MujocoEnvBase's), then the last noisy robot
  // positions that the next step's control starts from.
  std::vector<double> GetState() const {
    std::vector<double> s = MujocoEnvBase::GetState();
    s.insert(s.end(), last_robot_qpos_.begin(), last_robot_qpos_.end());
    return s;
  }

  void SetState(const std::vector<double>& s) {
    const size_t physics = static_cast<size_t>(model_->nq + model_->nv);
    if (s.size() != physics + kRobotDofs) {
      throw ValueError(
          "FrankaKitchen state must have nq + nv + 9 = " + std::to_string(physics + kRobotDofs) +
          " values (qpos, qvel, the last observed robot positions), got " +
          std::to_string(s.size()));
    }
    MujocoEnvBase::SetState(std::vector<double>(s.begin(), s.begin() + physics));
    std::copy(s.begin() + physics, s.end(), last_robot_qpos_.begin());
  }

 private:
  // KitchenEnv's initial qpos (gymnasium-robotics 1.4.2, kitchen_env.py).
  static constexpr std::array<double, 30> kInitQpos = {
      1.48388023e-01,  -1.76848573e00,  1.84390296e00,   -2.47685760e00,  2.60252026e-01,
      7.12533105e-01,  1.59515394e00,   4.79267505e-02,  3.71350919e-02,  -2.66279850e-04,
      -5.18043486e-05, 3.12877220e-05,  -4.51199853e-05, -3.90842156e-06, -4.22629655e-05,
      6.28065475e-05,  4.04984708e-05,  4.62730939e-04,  -2.26906415e-04, -4.65501369e-04,
      -6.44129196e-03, -1.77048263e-03, 1.08009684e-03,  -2.69397440e-01, 3.50383255e-01,
      1.61944683e00,   1.00618764e00,   4.06395120e-03,  -6.62095997e-03, -2.68278933e-04};

  static void CheckFrankaConfig(const Config& config, int nv) {
    const size_t want = static_cast<size_t>(kSpecsPerDof) * nv;
    if (config.Doubles("franka_config").size() != want) {
      throw ValueError("franka_config must hold " + std::to_string(want) +
                       " values (franka_config.xml's 6 per dof), got " +
                       std::to_string(config.Doubles("franka_config").size()));
    }
  }

  // franka_config value `k` (see kSpecsPerDof) of dof `dof`.
  double Franka(int dof, int k) const { return specs_[kSpecsPerDof * dof + k]; }

  // np.linalg.norm(achieved - goal) of task `index` (numpy's dot: the
  // squares summed left to right).
  double TaskDistance(int index) const {
    const auto& task = robotics::KitchenTasks()[index];
    double sum = 0.0;
    for (size_t k = 0; k < task.goal.size(); ++k) {
      const double d = data_->qpos[task.first_qpos + k] - task.goal[k];
      sum += d * d;
    }
    return std::sqrt(sum);
  }

  // value + ratio * amp * U(-1, 1), in numpy's order of operations.
  static double Noisy(double value, double ratio, double amp, Rng& rng) {
    const double u = rng.Uniform(-1.0, 1.0);
    return value + (ratio * amp) * u;
  }

  // The observation (with noise) and the goal fields; keeps the noisy robot
  // positions for the next step's control.
  void WriteObs(Rng& rng, const StepOutput& out) {
    double* obs = out[observation_];
    for (int i = 0; i < kRobotDofs; ++i) {
      obs[i] = Noisy(data_->qpos[robot_qpos_[i]], robot_noise_, Franka(i, 4), rng);
      last_robot_qpos_[i] = obs[i];
    }
    for (int i = 0; i < kRobotDofs; ++i) {
      obs[kRobotDofs + i] = Noisy(data_->qvel[robot_dof_[i]], robot_noise_, Franka(i, 5), rng);
    }
    double* o = obs + 2 * kRobotDofs;
    const int nq = model_->nq, nv = model_->nv;
    for (int q = kRobotDofs; q < nq; ++q) {
      *o++ = Noisy(data_->qpos[q], object_noise_, Franka(q - 1, 4), rng);
    }
    for (int v = kRobotDofs; v < nv; ++v)
      *o++ = Noisy(data_->qvel[v], object_noise_, Franka(v, 5), rng);
    for (size_t t = 0; t < chosen_.size(); ++t) {
      const auto& task = robotics::KitchenTasks()[chosen_[t]];
      std::copy(data_->qpos + task.first_qpos, data_->qpos + task.first_qpos + task.goal.size(),
                out[achieved_[t]]);
      std::copy(task.goal.begin(), task.goal.end(), out[desired_[t]]);
    }
    *out[remaining_info_] = remaining_;
    std::copy(order_.begin(), order_.end(), out[order_info_]);
  }

  std::vector<int> chosen_;
  std::vector<double> specs_;
  bool terminate_on_completed_, remove_when_completed_;
  double robot_noise_, object_noise_;
  OutputField<double> observation_;
  OutputField<int32_t> remaining_info_, step_info_, order_info_;
  std::vector<OutputField<double>> achieved_, desired_;
  std::vector<int> robot_qpos_, robot_dof_;
  std::array<double, kRobotDofs> last_robot_qpos_{};
  int32_t all_mask_ = 0, remaining_ = 0, completed_ = 0;
  std::array<int32_t, kNumTasks> order_{};
  int completions_ = 0;
};

}  // namespace envpool_x

// HandReach-v3 and HandReachDense-v3 (gymnasium-robotics 1.4.2's
// MujocoHandReachEnv): bring the thumb and one finger's tips together, at a
// goal of all five fingertip positions (15 values).
//
// - make: the joints take gymnasium-robotics' DEFAULT_INITIAL_QPOS, then
//   mj_forward; the fingertips' positions are the initial goal, the palm
//   body's position is kept.
// - reset: mj_resetData, the initial state, mj_forward; the goal drawn: a
//   meeting point (the palm plus (0, -0.09, 0.05) plus N(0, 0.005) per
//   coordinate); the thumb's and one of the four fingers' goals move to
//   0.005 from it, towards their initial tips; with probability 0.1 the goal
//   is the initial tips instead.
// - observation (63): robot joint positions and velocities (48), the
//   fingertips (15). Success: the 15-d distance under 0.01.
#pragma once

#include <array>
#include <string>
#include <utility>

#include "envs/robotics/hand/hand_env.h"

namespace envpool_x {

class HandReach : public robotics::HandEnv {
 public:
  static constexpr const char* kName = "HandReach";
  static constexpr double kDistanceThreshold = 0.01;
  static constexpr int kGoalSize = 15;

  static Config DefaultConfig() { return robotics::HandConfig(); }
  static EnvSpec Spec(const Config& config) {
    return robotics::HandSpec(config, robotics::kHandRobotObs + kGoalSize, kGoalSize);
  }

  HandReach(const Config& config, const EnvSpec& spec) : HandEnv(config, spec, kGoalSize) {
    static const char* const kTips[5] = {"robot0:S_fftip", "robot0:S_mftip", "robot0:S_rftip",
                                         "robot0:S_lftip", "robot0:S_thtip"};
    for (int k = 0; k < 5; ++k) tips_[k] = Id(mjOBJ_SITE, kTips[k]);
    // _env_setup.
    for (const auto& [name, value] : InitialQpos()) {
      data_->qpos[model_->jnt_qposadr[Id(mjOBJ_JOINT, name)]] = value;
    }
    mj_forward(model_.get(), data_.get());
    AchievedGoal(initial_goal_.data());
    const double* palm = data_->xpos + 3 * Id(mjOBJ_BODY, "robot0:palm");
    std::copy(palm, palm + 3, palm_.begin());
    time_ = data_->time;
    qpos_.assign(data_->qpos, data_->qpos + model_->nq);
    qvel_.assign(data_->qvel, data_->qvel + model_->nv);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    mj_resetData(model_.get(), data_.get());
    data_->time = time_;
    std::copy(qpos_.begin(), qpos_.end(), data_->qpos);
    std::copy(qvel_.begin(), qvel_.end(), data_->qvel);
    mj_forward(model_.get(), data_.get());
    SampleGoal(rng);
    WriteObservation(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    float clipped[robotics::kHandActions];
    ClipAction(action, clipped);
    SetControls(clipped);
    Simulate();
    const double distance = WriteObservation(out);
    // -(d > threshold) in float32 (a success is -0.0, as numpy's), or -d.
    *out.reward =
        sparse_ ? (distance > kDistanceThreshold ? -1.0f : -0.0f) : static_cast<float>(-distance);
    *out.terminated = false;
  }

 private:
  // gymnasium-robotics' DEFAULT_INITIAL_QPOS of the reach task.
  static const std::array<std::pair<const char*, double>, 24>& InitialQpos() {
    static const std::array<std::pair<const char*, double>, 24> qpos{{
        {"robot0:WRJ1", -0.16514339750464327},   {"robot0:WRJ0", -0.31973286565062153},
        {"robot0:FFJ3", 0.14340512546557435},    {"robot0:FFJ2", 0.32028208333591573},
        {"robot0:FFJ1", 0.7126053607727917},     {"robot0:FFJ0", 0.6705281001412586},
        {"robot0:MFJ3", 0.000246444303701037},   {"robot0:MFJ2", 0.3152655251085491},
        {"robot0:MFJ1", 0.7659800313729842},     {"robot0:MFJ0", 0.7323156897425923},
        {"robot0:RFJ3", 0.00038520700007378114}, {"robot0:RFJ2", 0.36743546201985233},
        {"robot0:RFJ1", 0.7119514095008576},     {"robot0:RFJ0", 0.6699446327514138},
        {"robot0:LFJ4", 0.0525442258033891},     {"robot0:LFJ3", -0.13615534724474673},
        {"robot0:LFJ2", 0.39872030433433003},    {"robot0:LFJ1", 0.7415570009679252},
        {"robot0:LFJ0", 0.704096378652974},      {"robot0:THJ4", 0.003673823825070126},
        {"robot0:THJ3", 0.5506291436028695},     {"robot0:THJ2", -0.014515151997119306},
        {"robot0:THJ1", -0.0015229223564485414}, {"robot0:THJ0", -0.7894883021600622},
    }};
    return qpos;
  }

  void AchievedGoal(double* goal) const {
    for (int k = 0; k < 5; ++k) {
      std::copy(data_->site_xpos + 3 * tips_[k], data_->site_xpos + 3 * tips_[k] + 3, goal + 3 * k);
    }
  }

  // _sample_goal (its draws from our seed stream: the finger, the meeting
  // point's noise, the 10% keep-the-initial-tips draw).
  void SampleGoal(Rng& rng) {
    constexpr int kThumb = 4;
    const int finger = static_cast<int>(rng.UniformInt(4));
    const double offset[3] = {0.0, -0.09, 0.05};
    double meeting[3];
    for (int k = 0; k < 3; ++k) meeting[k] = palm_[k] + offset[k];
    for (int k = 0; k < 3; ++k) meeting[k] += 0.005 * rng.Normal();
    std::copy(initial_goal_.begin(), initial_goal_.end(), goal_.begin());
    for (int idx : {kThumb, finger}) {
      std::array<double, 3> direction;
      for (int k = 0; k < 3; ++k) direction[k] = meeting[k] - goal_[3 * idx + k];
      const double norm = robotics::Norm(direction);
      for (int k = 0; k < 3; ++k) {
        goal_[3 * idx + k] = meeting[k] - 0.005 * (direction[k] / norm);
      }
    }
    if (rng.Uniform() < 0.1) std::copy(initial_goal_.begin(), initial_goal_.end(), goal_.begin());
  }

  // _get_obs; also the goal fields and is_success. Returns the distance.
  double WriteObservation(const StepOutput& out) {
    double* o = WriteRobotObs(ObservationOut(out));
    AchievedGoal(o);
    WriteGoalFields(out, o);
    const double distance = robotics::NumpyGoalDistance(o, goal_.data(), kGoalSize);
    WriteSuccess(out, distance < kDistanceThreshold);
    return distance;
  }

  int tips_[5] = {};
  std::array<double, kGoalSize> initial_goal_{};
  std::array<double, 3> palm_{};
  double time_ = 0.0;
  std::vector<double> qpos_, qvel_;
};

}  // namespace envpool_x

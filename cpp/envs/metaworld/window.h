// window-open-v3 and window-close-v3 (metaworld 3.1.1's
// SawyerWindowOpenEnvV3 and SawyerWindowCloseEnvV3, reward version v2):
// slide the window 0.2 open (close: shut from 0.2 open), its handle within
// 0.05 of the goal in x. rand_vec: the window's position. Their reset_model
// sets the slide joint without mj_forward, so the reset observation (and the
// handle's start) show the window as the hand's reset left it.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kClose>
class MetaWorldWindowTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kClose ? "MetaWorldWindowClose" : "MetaWorldWindowOpen";
  static constexpr double kTargetRadius = 0.05;
  static constexpr double kHandleRadius = 0.02;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout open{
        "window-open-v3",
        48,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)},
        {-0.1, 0.7, 0.16},
        {0.1, 0.9, 0.16},
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5}};
    static const metaworld::TaskLayout close{
        "window-close-v3",
        49,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)},
        {0.0, 0.75, 0.2},
        {0.0, 0.9, 0.2},
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5}};
    return kClose ? close : open;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldWindowTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        window_(Id(mjOBJ_BODY, "window")),
        handle_(Id(mjOBJ_SITE, kClose ? "handleCloseStart" : "handleOpenStart")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        slide_qpos_(model_->jnt_qposadr[Id(mjOBJ_JOINT, "window_slide")]) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 goal;
    Goal(rand_vec, goal.data());
    SetModelBodyPos(window_, rand_vec);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    Goal(rand_vec, target_.data());
    PlaceInModel(rand_vec);
    const double* handle = SitePos(handle_);
    // close: + (0.2, 0, 0); open: the site's position itself.
    handle_init_ = kClose ? metaworld::Vec3{handle[0] + 0.2, handle[1] + 0.0, handle[2] + 0.0}
                          : metaworld::Vec3{handle[0], handle[1], handle[2]};
    data_->qpos[slide_qpos_] = kClose ? 0.2 : 0.0;
  }

  void ObjectObs(double* objects) const override {
    std::copy(SitePos(handle_), SitePos(handle_) + 3, objects);
  }

  double Evaluate(const double* /*obs*/, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = SitePos(handle_);
    const metaworld::Vec3 tcp = TcpCenter();
    // np.linalg.norm of one number: the square root of its square.
    auto norm1 = [](double x) { return std::sqrt(x * x); };
    const double target_to_obj = norm1(obj[0] - target_[0]);
    const double target_to_obj_init = norm1((kClose ? handle_init_[0] : obj_init_[0]) - target_[0]);
    const double in_place =
        Tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                  Sigmoid::kLongTail);
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(handle_init_.data(), init_tcp_.data());
    const double reach =
        Tolerance(tcp_to_obj, 0.0, kHandleRadius, std::abs(tcp_to_obj_init - kHandleRadius),
                  kClose ? Sigmoid::kGaussian : Sigmoid::kLongTail);
    const double reward = 10 * metaworld::HamacherProduct(reach, in_place);
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

  // window_handle_pos_init.
  int NumTaskValues() const override { return 3; }
  void GetTaskValues(double* out) const override {
    std::copy(handle_init_.begin(), handle_init_.end(), out);
  }
  void SetTaskValues(const double* in) override { std::copy(in, in + 3, handle_init_.begin()); }

 private:
  // open: 0.2 right of the window; close: the window's position.
  static void Goal(const double* rand_vec, double* goal) {
    goal[0] = kClose ? rand_vec[0] : rand_vec[0] + 0.2;
    goal[1] = kClose ? rand_vec[1] : rand_vec[1] + 0.0;
    goal[2] = kClose ? rand_vec[2] : rand_vec[2] + 0.0;
  }

  int window_, handle_, goal_site_, slide_qpos_;
  metaworld::Vec3 handle_init_{};
};

using MetaWorldWindowOpen = MetaWorldWindowTask<false>;
using MetaWorldWindowClose = MetaWorldWindowTask<true>;

}  // namespace envpool_x

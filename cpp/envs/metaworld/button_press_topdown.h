// button-press-topdown-v3 and button-press-topdown-wall-v3 (metaworld 3.1.1's
// SawyerButtonPressTopdownEnvV3 and ...WallEnvV3, reward version v2): press
// the button from above (behind a wall), within 0.024 of its end. rand_vec:
// the button box's position. Their reset leaves the button's joint where the
// hand's reset left it (no _set_obj_xyz). They differ in the model and in the
// gripper term: 1 - opening without the wall, max(opening, 0) with it.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kWall>
class MetaWorldButtonPressTopdownTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName =
      kWall ? "MetaWorldButtonPressTopdownWall" : "MetaWorldButtonPressTopdown";

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        kWall ? "button-press-topdown-wall-v3" : "button-press-topdown-v3",
        kWall ? 5 : 4,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)},
        {-0.1, 0.8, 0.115},
        {0.1, 0.9, 0.115},
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldButtonPressTopdownTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        box_(Id(mjOBJ_BODY, "box")),
        button_(Id(mjOBJ_BODY, "button")),
        hole_(Id(mjOBJ_SITE, "hole")),
        button_start_(Id(mjOBJ_SITE, "buttonStart")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelBodyPos(box_, rand_vec); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    PlaceInModel(rand_vec);
    Forward();
    std::copy(SitePos(hole_), SitePos(hole_) + 3, target_.begin());
    obj_to_target_init_ = std::abs(target_[2] - SitePos(button_start_)[2]);
  }

  void ObjectObs(double* objects) const override {
    const double* button = BodyPos(button_);
    objects[0] = button[0] + 0.0;
    objects[1] = button[1] + 0.0;
    objects[2] = button[2] + 0.193;
    std::copy(data_->xquat + 4 * button_, data_->xquat + 4 * button_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = obs + 4;
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(obj, init_tcp_.data());
    const double obj_to_target = std::abs(target_[2] - obj[2]);
    const double tcp_closed = kWall ? std::max(obs[3], 0.0) : 1 - obs[3];
    const double near_button =
        Tolerance(tcp_to_obj, 0.0, 0.01, tcp_to_obj_init, Sigmoid::kLongTail);
    const double button_pressed =
        Tolerance(obj_to_target, 0.0, 0.005, obj_to_target_init_, Sigmoid::kLongTail);
    double reward = 5 * metaworld::HamacherProduct(tcp_closed, near_button);
    if (tcp_to_obj <= 0.03) reward += 5 * button_pressed;
    info->success = obj_to_target <= 0.024 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = obs[3] > 0 ? 1.0 : 0.0;
    info->grasp_reward = near_button;
    info->in_place_reward = button_pressed;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

  int NumTaskValues() const override { return 1; }
  void GetTaskValues(double* out) const override { out[0] = obj_to_target_init_; }
  void SetTaskValues(const double* in) override { obj_to_target_init_ = in[0]; }

 private:
  int box_, button_, hole_, button_start_;
  double obj_to_target_init_ = 0;
};

using MetaWorldButtonPressTopdown = MetaWorldButtonPressTopdownTask<false>;
using MetaWorldButtonPressTopdownWall = MetaWorldButtonPressTopdownTask<true>;

}  // namespace envpool_x

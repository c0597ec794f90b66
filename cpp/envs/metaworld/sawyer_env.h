// What every Meta-World task shares: metaworld 3.1.1's SawyerXYZEnv (the
// Sawyer arm moved by a mocap body welded to its hand, a two-finger gripper
// driven by two position actuators), read from its sawyer_xyz_env.py:
//
// - step: the xyz action, clipped to [-1, 1] and scaled by 1/100 (in float32,
//   as numpy multiplies a float32 action), moves the mocap body, clipped to the
//   task's mocap box; the gripper's controls are (a[3], -a[3]); 5 mj_steps,
//   mj_rnePostConstraint, mj_forward; the observation is clipped to Meta-World's
//   observation space; reward and info come from the task's evaluate_state.
// - reset: the hand is driven to its start (50 control steps with the mocap
//   held there, gripper open), then the task places its objects and goal from
//   the variation's `rand_vec`. Meta-World's reset runs reset_model twice with
//   an mj_resetData between; only the task's model edits survive the first,
//   so here they are applied, then mj_resetData, then reset_model once.
// - observation (39): hand position, gripper opening, 14 object values
//   (position + quaternion per object, zero padded); the previous step's 18;
//   the goal position (zeros when partially observable: Meta-World's default
//   and its ML benchmarks; its MT benchmarks show it).
// - goal variations: the 50 `rand_vec`s that MT1(task, seed=task_seed) draws
//   (numpy's legacy generator, replayed here); `task_index` picks one, or -1
//   draws one per reset from the env's seed stream (Meta-World's
//   RandomTaskSelectWrapper).
// - render: Meta-World's rgb_array frame (frame.h).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/random.h"
#include "core/spec.h"
#include "envs/metaworld/frame.h"
#include "envs/metaworld/reward_utils.h"
#include "envs/metaworld/task_layout.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {
namespace metaworld {

class SawyerEnv {
 public:
  static constexpr bool kCheap = false;

  SawyerEnv(const TaskLayout& layout, const Config& config, const EnvSpec& spec)
      : layout_(layout),
        shared_(mujoco_detail::LoadModel(config.String("xml_file"))),
        model_(std::make_unique<mjModel>(*shared_)),
        variations_(DrawVariations(layout, static_cast<uint32_t>(config.Int("task_seed")))),
        fixed_index_(static_cast<int>(config.Int("task_index"))),
        partially_observable_(config.Bool("partially_observable")),
        obs_(ObsField<double>(spec, "obs")),
        task_id_(InfoField<int32_t>(spec, "task_id")),
        task_index_field_(InfoField<int32_t>(spec, "task_index")) {
    for (const char* name : {"success", "near_object", "grasp_success", "grasp_reward",
                             "in_place_reward", "obj_to_target", "unscaled_reward"}) {
      info_.push_back(InfoField<double>(spec, name));
    }
    // The env's own copies of what the tasks write into the model (object
    // bodies, the goal site) and of the weld parameters Meta-World sets; the
    // rest is the shared model's (this shallow copy is never deleted by MuJoCo).
    const mjModel* m = shared_.get();
    body_pos_.assign(m->body_pos, m->body_pos + 3 * m->nbody);
    site_pos_.assign(m->site_pos, m->site_pos + 3 * m->nsite);
    eq_data_.assign(m->eq_data, m->eq_data + mjNEQDATA * m->neq);
    model_->body_pos = body_pos_.data();
    model_->site_pos = site_pos_.data();
    model_->eq_data = eq_data_.data();
    // reset_mocap_welds: every weld gets anchor 0, relative pose 0 with the
    // quaternion (-1, 0, 0, 0), torque scale 5. Meta-World writes the 11
    // values of MuJoCo 3.3's weld data; MuJoCo 3.17's has a 12th (whether
    // the compiler computed the relative pose), left as compiled.
    static_assert(mjNEQDATA >= 11, "weld data: anchor, relative pose, torque scale");
    if (m->nmocap > 0) {
      for (int i = 0; i < m->neq; ++i) {
        if (m->eq_type[i] != mjEQ_WELD) continue;
        double* e = eq_data_.data() + mjNEQDATA * i;
        std::fill(e, e + 11, 0.0);
        e[6] = -1.0;
        e[10] = 5.0;
      }
    }
    data_.reset(mj_makeData(model_.get()));
    if (!data_) throw std::runtime_error("MuJoCo could not allocate mjData");
    if (model_->nu != 2) throw ValueError("Meta-World model must have 2 actuators (the gripper)");
    hand_ = Id(mjOBJ_BODY, "hand");
    right_claw_ = Id(mjOBJ_BODY, "rightclaw");
    left_claw_ = Id(mjOBJ_BODY, "leftclaw");
    left_pad_ = Id(mjOBJ_BODY, "leftpad");
    right_pad_ = Id(mjOBJ_BODY, "rightpad");
    right_effector_ = Id(mjOBJ_SITE, "rightEndEffector");
    left_effector_ = Id(mjOBJ_SITE, "leftEndEffector");
    left_pad_geom_ = Id(mjOBJ_GEOM, "leftpad_geom");
    right_pad_geom_ = Id(mjOBJ_GEOM, "rightpad_geom");
    mocap_ = model_->body_mocapid[Id(mjOBJ_BODY, "mocap")];
    state_size_ = mj_stateSize(model_.get(), kStateSig);
    SetParams(ParamValuesOf(metaworld::ParamSpecs(), config).data());
  }
  virtual ~SawyerEnv() = default;
  SawyerEnv(const SawyerEnv&) = delete;
  SawyerEnv& operator=(const SawyerEnv&) = delete;

  // For a task of a benchmark's set (task_set.h): the set's draws of this
  // task's variations, and the id info["task_id"] reports (its place in the set).
  void UseVariations(Variations variations) { variations_ = std::move(variations); }
  void ReportTaskIdAs(int task_id) { reported_task_id_ = task_id; }

  // The per-env parameters (task_layout.h's ParamSpecs): scales on this env's
  // shallow model copy; the reset's hand warm-up runs with them.
  static std::vector<ParamSpec> ParamSpecs() { return metaworld::ParamSpecs(); }
  void SetParams(const double* values) {
    mujoco_detail::ScaleOwnModel(&param_arrays_, model_.get(), values, /*timestep=*/true);
  }
  static size_t ParamCopyBytes(const Config& config) {
    return mujoco_detail::OwnModelCopyBytes(
        mujoco_detail::LoadModel(config.String("xml_file")).get());
  }

  // Meta-World's render_mode="rgb_array" frame: height x width x 3.
  static constexpr int kRenderSide = 480;
  std::array<int, 2> RenderSize() const { return {kRenderSide, kRenderSide}; }
  void Render(uint8_t* rgb) { DrawFrame(shared_, model_.get(), data_.get(), kRenderSide, rgb); }

  void Reset(Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    task_index_ =
        fixed_index_ >= 0 ? fixed_index_ : static_cast<int>(rng.UniformInt(kNumVariations));
    rand_vec_ = variations_[task_index_];
    PlaceInModel(rand_vec_.data());
    mj_resetData(model_.get(), data_.get());
    ResetHand();
    ResetTask(rand_vec_.data());
    // The reset observation is not clipped; its previous frame is itself.
    double* o = out[obs_];
    CurrentObs(o);
    std::copy(o, o + kCurrentObs, o + kCurrentObs);
    std::copy(o, o + kCurrentObs, prev_obs_.begin());
    WriteGoal(o + 2 * kCurrentObs);
    for (const auto& f : info_) *out[f] = 0.0;
    WriteTaskIds(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    const float* a = BoxAction(action);
    SetXyzAction(a);
    data_->ctrl[0] = static_cast<double>(a[3]);
    data_->ctrl[1] = -static_cast<double>(a[3]);
    Simulate();
    mj_forward(model_.get(), data_.get());
    double* o = out[obs_];
    CurrentObs(o);
    std::copy(prev_obs_.begin(), prev_obs_.end(), o + kCurrentObs);
    std::copy(o, o + kCurrentObs, prev_obs_.begin());
    WriteGoal(o + 2 * kCurrentObs);
    ClipObs(o);
    StepInfo info;
    const double reward = Evaluate(o, a, &info);
    const double values[] = {info.success,        info.near_object,     info.grasp_success,
                             info.grasp_reward,   info.in_place_reward, info.obj_to_target,
                             info.unscaled_reward};
    for (size_t k = 0; k < info_.size(); ++k) *out[info_[k]] = values[k];
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
    WriteTaskIds(out);
  }

  // Test hook: mj_getState(mjSTATE_INTEGRATION), then rand_vec (6, zero
  // padded), the goal, obj_init_pos, init_tcp, the previous observation (18)
  // and the variation's index; then the task's own values (TaskValues).
  std::vector<double> GetState() const {
    std::vector<double> s(state_size_ + kBaseValues + NumTaskValues());
    mj_getState(model_.get(), data_.get(), s.data(), kStateSig);
    double* v = s.data() + state_size_;
    v = std::copy(rand_vec_.begin(), rand_vec_.end(), v);
    v = std::copy(target_.begin(), target_.end(), v);
    v = std::copy(obj_init_.begin(), obj_init_.end(), v);
    v = std::copy(init_tcp_.begin(), init_tcp_.end(), v);
    v = std::copy(prev_obs_.begin(), prev_obs_.end(), v);
    *v++ = task_index_;
    GetTaskValues(v);
    return s;
  }

  // As if the env's reset had ended in this state: the model edits of
  // rand_vec, the physics state, mj_forward, the task values.
  void SetState(const std::vector<double>& s) {
    const size_t want = static_cast<size_t>(state_size_ + kBaseValues + NumTaskValues());
    if (s.size() != want) {
      throw ValueError("Meta-World state must have " + std::to_string(want) + " values, got " +
                       std::to_string(s.size()));
    }
    const double* v = s.data() + state_size_;
    std::copy(v, v + kMaxRandVec, rand_vec_.begin());
    PlaceInModel(rand_vec_.data());
    mj_setState(model_.get(), data_.get(), s.data(), kStateSig);
    mj_forward(model_.get(), data_.get());
    v += kMaxRandVec;
    std::copy(v, v + 3, target_.begin());
    std::copy(v + 3, v + 6, obj_init_.begin());
    std::copy(v + 6, v + 9, init_tcp_.begin());
    std::copy(v + 9, v + 9 + kCurrentObs, prev_obs_.begin());
    task_index_ = static_cast<int>(v[9 + kCurrentObs]);
    SetTaskValues(v + 10 + kCurrentObs);
  }

 protected:
  static constexpr unsigned kStateSig = mjSTATE_INTEGRATION;
  // rand_vec, goal, obj_init_pos, init_tcp, previous observation, index.
  static constexpr int kBaseValues = kMaxRandVec + 3 * 3 + kCurrentObs + 1;

  // ---- the task's part ----
  // Model edits that depend only on rand_vec (object bodies, the goal site).
  virtual void PlaceInModel(const double* rand_vec) = 0;
  // reset_model after _reset_hand: set target_, obj_init_ and the objects.
  virtual void ResetTask(const double* rand_vec) = 0;
  // The 14 object values of the observation (zeroed before).
  virtual void ObjectObs(double* objects) const = 0;
  // evaluate_state: the reward and the info keys, from the clipped observation.
  virtual double Evaluate(const double* obs, const float* action, StepInfo* info) const = 0;
  // Task values beyond the base's, for the test hook.
  virtual int NumTaskValues() const { return 0; }
  virtual void GetTaskValues(double* /*out*/) const {}
  virtual void SetTaskValues(const double* /*in*/) {}

  // ---- helpers for the tasks ----
  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model_.get(), type, name);
    if (id < 0) {
      throw ValueError(std::string("Meta-World model has no ") + mju_type2Str(type) + " '" + name +
                       "'");
    }
    return id;
  }
  const double* BodyPos(int body) const { return data_->xpos + 3 * body; }  // get_body_com
  const double* SitePos(int site) const { return data_->site_xpos + 3 * site; }
  const double* GeomPos(int geom) const { return data_->geom_xpos + 3 * geom; }
  void SetModelBodyPos(int body, const double* pos) {
    std::copy(pos, pos + 3, &body_pos_[3 * body]);
  }
  void SetModelSitePos(int site, const double* pos) {
    std::copy(pos, pos + 3, &site_pos_[3 * site]);
  }

  // The centre between the two fingertips.
  Vec3 TcpCenter() const {
    const double* r = SitePos(right_effector_);
    const double* l = SitePos(left_effector_);
    return {(r[0] + l[0]) / 2.0, (r[1] + l[1]) / 2.0, (r[2] + l[2]) / 2.0};
  }

  // set_state(qpos, qvel) after the task edits them: mj_forward.
  void Forward() { mj_forward(model_.get(), data_.get()); }

  // touching_object: both pads' summed contact forces with the geom are
  // positive. A contact without constraint rows (efc_address -1) reads the
  // last row, as numpy's index -1 does in Meta-World.
  bool TouchingObject(int geom) const {
    double left = 0, right = 0;
    for (int i = 0; i < data_->ncon; ++i) {
      const mjContact& c = data_->contact[i];
      const bool with_object = c.geom[0] == geom || c.geom[1] == geom;
      if (!with_object || data_->nefc == 0) continue;
      const int row = c.efc_address >= 0 ? c.efc_address : data_->nefc + c.efc_address;
      const double force = data_->efc_force[row];
      if (c.geom[0] == left_pad_geom_ || c.geom[1] == left_pad_geom_) left += force;
      if (c.geom[0] == right_pad_geom_ || c.geom[1] == right_pad_geom_) right += force;
    }
    return left > 0 && right > 0;
  }

  // Rotation.from_matrix(xmat).as_quat() (scipy: x, y, z, w).
  static void MatrixToQuatXyzw(const double* m, double* q);

  const TaskLayout& layout_;
  std::shared_ptr<const mjModel> shared_;
  std::unique_ptr<mjModel> model_;
  mujoco_detail::ModelParamArrays param_arrays_;  // the scaled arrays, while a value is not 1
  std::unique_ptr<mjData, mujoco_detail::DataDeleter> data_;
  Vec3 target_{};    // _target_pos
  Vec3 obj_init_{};  // obj_init_pos
  Vec3 init_tcp_{};  // init_tcp (set by _reset_hand)
  int left_pad_ = 0, right_pad_ = 0;

 private:
  // _reset_hand: 50 control steps with the mocap at the hand's start.
  void ResetHand() {
    for (int k = 0; k < 50; ++k) {
      double* p = data_->mocap_pos + 3 * mocap_;
      double* q = data_->mocap_quat + 4 * mocap_;
      std::copy(layout_.hand_init.begin(), layout_.hand_init.end(), p);
      q[0] = 1, q[1] = 0, q[2] = 1, q[3] = 0;
      data_->ctrl[0] = -1.0;
      data_->ctrl[1] = 1.0;
      Simulate();
    }
    init_tcp_ = TcpCenter();
  }

  // set_xyz_action: every mocap body moves by the delta, the first is
  // clipped to the mocap box; all get the quaternion (1, 0, 1, 0).
  void SetXyzAction(const float* a) {
    float delta[3];
    for (int k = 0; k < 3; ++k)
      delta[k] = std::clamp(a[k], -1.0f, 1.0f) * static_cast<float>(kActionScale);
    for (int i = 0; i < model_->nmocap; ++i) {
      double* p = data_->mocap_pos + 3 * i;
      for (int k = 0; k < 3; ++k) {
        p[k] += static_cast<double>(delta[k]);
        if (i == 0) p[k] = std::clamp(p[k], layout_.mocap_low[k], layout_.mocap_high[k]);
      }
      double* q = data_->mocap_quat + 4 * i;
      q[0] = 1, q[1] = 0, q[2] = 1, q[3] = 0;
    }
  }

  // do_simulation: frame_skip mj_steps, then mj_rnePostConstraint.
  void Simulate() {
    for (int k = 0; k < kFrameSkip; ++k) mj_step(model_.get(), data_.get());
    mj_rnePostConstraint(model_.get(), data_.get());
  }

  // _get_curr_obs_combined_no_goal.
  void CurrentObs(double* o) const {
    std::copy(BodyPos(hand_), BodyPos(hand_) + 3, o);
    const double apart = Dist3(BodyPos(right_claw_), BodyPos(left_claw_));
    o[3] = std::clamp(apart / 0.1, 0.0, 1.0);
    std::fill(o + 4, o + kCurrentObs, 0.0);
    ObjectObs(o + 4);
  }

  void WriteGoal(double* goal) const {
    for (int k = 0; k < 3; ++k) goal[k] = partially_observable_ ? 0.0 : target_[k];
  }

  // np.clip to Meta-World's observation space.
  void ClipObs(double* o) const {
    for (int frame = 0; frame < 2; ++frame) {
      double* f = o + frame * kCurrentObs;
      for (int k = 0; k < 3; ++k) f[k] = std::clamp(f[k], kHandSpaceLow[k], kHandSpaceHigh[k]);
      f[3] = std::clamp(f[3], -1.0, 1.0);
    }
    double* goal = o + 2 * kCurrentObs;
    for (int k = 0; k < 3; ++k) {
      goal[k] = partially_observable_
                    ? 0.0
                    : std::clamp(goal[k], layout_.goal_low[k], layout_.goal_high[k]);
    }
  }

  void WriteTaskIds(const StepOutput& out) const {
    *out[task_id_] = reported_task_id_;
    *out[task_index_field_] = task_index_;
  }

  std::vector<double> body_pos_, site_pos_, eq_data_;
  Variations variations_;
  std::array<double, kMaxRandVec> rand_vec_{};
  std::array<double, kCurrentObs> prev_obs_{};
  int fixed_index_;
  int reported_task_id_ = layout_.task_id;
  int task_index_ = 0;
  bool partially_observable_;
  int state_size_ = 0;
  int hand_ = 0, right_claw_ = 0, left_claw_ = 0;
  int right_effector_ = 0, left_effector_ = 0, left_pad_geom_ = 0, right_pad_geom_ = 0;
  int mocap_ = 0;
  OutputField<double> obs_;
  std::vector<OutputField<double>> info_;
  OutputField<int32_t> task_id_;
  OutputField<int32_t> task_index_field_;
};

// scipy's from_matrix for an orthogonal matrix: the largest of the diagonal
// and the trace picks the formula, then the quaternion is normalised.
inline void SawyerEnv::MatrixToQuatXyzw(const double* m, double* q) {
  const double trace = m[0] + m[4] + m[8];
  const double decision[4] = {m[0], m[4], m[8], trace};
  int choice = 0;
  for (int k = 1; k < 4; ++k) {
    if (decision[k] > decision[choice]) choice = k;
  }
  if (choice == 3) {
    q[0] = m[7] - m[5];
    q[1] = m[2] - m[6];
    q[2] = m[3] - m[1];
    q[3] = 1 + trace;
  } else {
    const int i = choice, j = (i + 1) % 3, k = (j + 1) % 3;
    q[i] = 1 - trace + 2 * m[4 * i];
    q[j] = m[3 * j + i] + m[3 * i + j];
    q[k] = m[3 * k + i] + m[3 * i + k];
    q[3] = m[3 * k + j] - m[3 * j + k];
  }
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; ++k) q[k] /= n;
}

}  // namespace metaworld
}  // namespace envpool_x

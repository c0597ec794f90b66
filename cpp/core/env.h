// The contract between an environment and the pool.
//
// An env is a class with:
//   static constexpr const char* kName;      // e.g. "CartPole" (C++ side name)
//   static constexpr bool kCheap;            // true: scheduled many per chunk
//   static constexpr bool kMayStall;         // optional, default false: true when
//                                            // a step may block for seconds; such
//                                            // steps never run on the thread
//                                            // waiting in recv()
//   static Config DefaultConfig();           // its own keys with defaults
//   static EnvSpec Spec(const Config&);      // fields and action for a config
//   Env(const Config&, const EnvSpec&);      // the spec is Spec(config), built
//                                            // once per pool: resolve the output
//                                            // fields by name here (step_output.h)
//   void Reset(Rng&, const StepOutput&);     // writes obs (+ info fields) through
//                                            // the fields it resolved
//   void Step(const void* action, Rng&, const StepOutput&);
//                                            // writes obs, *reward, *terminated;
//                                            // may set *truncated (see StepOutput)
// An env whose step is many short physics substeps may offer it in parts
// instead of Step (the pool then lets two threads share the last steps of a
// sync round; see EnvPool's pair chunks):
//   void BeginStep(const void* action);      // up to the first substep; keeps
//                                            // `action` until EndStep
//   bool StepPart();                         // one substep; true after the last
//   void EndStep(const StepOutput&);         // writes what Step would
// An env that draws its own frames (Atari: ALE's screen) may also have
//   static constexpr int kRenderHeight, kRenderWidth;
//   void Render(uint8_t* rgb);               // height x width x 3, row-major
// (the other families are drawn from their state, in Python or by
// envpool_x._core.render_classic).
// The pool owns elapsed steps, truncation (max_episode_steps), auto-reset and
// seeding; the env only simulates. Reset and Step must not allocate.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/random.h"
#include "core/spec.h"
#include "core/step_output.h"

namespace envpool_x {

// Env::kMayStall when the env declares it, else false (detected the C++17
// way: the CUDA sources include this header too).
template <typename Env, typename = void>
struct MayStallOf : std::false_type {};
template <typename Env>
struct MayStallOf<Env, std::void_t<decltype(Env::kMayStall)>> : std::bool_constant<Env::kMayStall> {
};
template <typename Env>
constexpr bool MayStall() {
  return MayStallOf<Env>::value;
}

// Env::BeginStep / StepPart / EndStep exist (see above).
template <typename Env, typename = void>
struct SteppedInPartsOf : std::false_type {};
template <typename Env>
struct SteppedInPartsOf<
    Env, std::void_t<decltype(std::declval<Env&>().BeginStep(nullptr)),
                     decltype(std::declval<Env&>().StepPart()),
                     decltype(std::declval<Env&>().EndStep(std::declval<const StepOutput&>()))>>
    : std::true_type {};
template <typename Env>
constexpr bool SteppedInParts() {
  return SteppedInPartsOf<Env>::value;
}

// Env::Render and its frame size exist (see above).
template <typename Env, typename = void>
struct RendersItselfOf : std::false_type {};
template <typename Env>
struct RendersItselfOf<Env, std::void_t<decltype(std::declval<Env&>().Render(nullptr)),
                                        decltype(Env::kRenderHeight), decltype(Env::kRenderWidth)>>
    : std::true_type {};
// An env whose frame size is set by its config has instead
//   std::array<int, 2> RenderSize() const;   // {height, width}, the same for every env of a pool
template <typename Env, typename = void>
struct RendersAtConfigSizeOf : std::false_type {};
template <typename Env>
struct RendersAtConfigSizeOf<Env, std::void_t<decltype(std::declval<Env&>().Render(nullptr)),
                                              decltype(std::declval<const Env&>().RenderSize())>>
    : std::true_type {};
template <typename Env>
constexpr bool RendersAtConfigSize() {
  return RendersAtConfigSizeOf<Env>::value;
}
template <typename Env>
constexpr bool RendersItself() {
  return RendersItselfOf<Env>::value || RendersAtConfigSize<Env>();
}

// Helpers for the common action kinds.
inline int32_t DiscreteAction(const void* action) { return *static_cast<const int32_t*>(action); }
inline const float* BoxAction(const void* action) { return static_cast<const float*>(action); }

// One whole step, for envs with Step and for envs stepped in parts alike.
template <typename Env>
void StepWhole(Env& env, const void* action, Rng& rng, const StepOutput& out) {
  if constexpr (SteppedInParts<Env>()) {
    env.BeginStep(action);
    while (!env.StepPart()) {
    }
    env.EndStep(out);
  } else {
    env.Step(action, rng, out);
  }
}

// The optional env hooks, shared by the pool and the raw benchmark loop so
// both treat an env alike (detected the C++17 way, as above). Envs whose
// episodes may span several resets (Atari's episodic_life) count the time
// limit themselves.
template <typename Env, typename = void>
struct HasSetMaxEpisodeSteps : std::false_type {};
template <typename Env>
struct HasSetMaxEpisodeSteps<Env, std::void_t<decltype(std::declval<Env&>().SetMaxEpisodeSteps(0))>>
    : std::true_type {};
template <typename Env>
void ApplyMaxEpisodeSteps(Env& env, int max_episode_steps) {
  if constexpr (HasSetMaxEpisodeSteps<Env>::value) env.SetMaxEpisodeSteps(max_episode_steps);
}

// elapsed_step after a reset: 0, unless the env continues an episode (Atari
// with episodic_life after a lost life keeps counting the game).
template <typename Env, typename = void>
struct HasElapsedAfterReset : std::false_type {};
template <typename Env>
struct HasElapsedAfterReset<Env,
                            std::void_t<decltype(std::declval<const Env&>().ElapsedAfterReset())>>
    : std::true_type {};
template <typename Env>
int32_t ElapsedAfterResetOf(const Env& env) {
  if constexpr (HasElapsedAfterReset<Env>::value) {
    return env.ElapsedAfterReset();
  } else {
    return 0;
  }
}

}  // namespace envpool_x

// The names of a step's result fields and of the info dict's final-row
// entries, shared by every backend: the CPU pool's output rows, the CUDA
// stepper's result blocks, and the Python side through
// _core.result_field_names(). Plain constants, so that one spelling exists.
#pragma once

namespace envpool_x {
namespace result_fields {

// A plain array observation's field (a Dict observation has one field per key).
inline constexpr char kObs[] = "obs";
inline constexpr char kReward[] = "reward";
inline constexpr char kTerminated[] = "terminated";
inline constexpr char kTruncated[] = "truncated";
// The info fields every env has, before its own.
inline constexpr char kEnvId[] = "env_id";
inline constexpr char kElapsedStep[] = "elapsed_step";
// same_step: which rows ended an episode (a field, and the info dict's mask
// for final_obs; kFinalInfoMask is the same mask for final_info).
inline constexpr char kFinalMask[] = "_final_obs";
inline constexpr char kFinalInfoMask[] = "_final_info";
// Flat field names of the CUDA stepper (a Dict's "obs/<key>", "info/<key>")
// and of the same_step final rows on every backend ("final_obs/<key>",
// "final_info/<key>").
inline constexpr char kObsPrefix[] = "obs/";
inline constexpr char kInfoPrefix[] = "info/";
inline constexpr char kFinalObsPrefix[] = "final_obs/";
inline constexpr char kFinalInfoPrefix[] = "final_info/";
// The info dict's entries holding the final rows, and the prefix of the
// per-key masks inside final_info ("_<key>").
inline constexpr char kFinalObs[] = "final_obs";
inline constexpr char kFinalInfo[] = "final_info";
inline constexpr char kMaskPrefix[] = "_";

struct Name {
  const char* key;  // the key in _core.result_field_names()
  const char* name;
};

// Every name above, for _core.result_field_names().
inline constexpr Name kAll[] = {
    {"obs", kObs},
    {"reward", kReward},
    {"terminated", kTerminated},
    {"truncated", kTruncated},
    {"env_id", kEnvId},
    {"elapsed_step", kElapsedStep},
    {"final_mask", kFinalMask},
    {"final_info_mask", kFinalInfoMask},
    {"obs_prefix", kObsPrefix},
    {"info_prefix", kInfoPrefix},
    {"final_obs_prefix", kFinalObsPrefix},
    {"final_info_prefix", kFinalInfoPrefix},
    {"final_obs", kFinalObs},
    {"final_info", kFinalInfo},
    {"mask_prefix", kMaskPrefix},
};

}  // namespace result_fields
}  // namespace envpool_x

// Per-env parameters on the CUDA stepper (docs/params.md), host side: the
// checks (ParamStore's, so the errors are the CPU pool's), a host mirror of
// each env's settings, and the device tables (kernel_param_tables.h) made
// by the first set_params. A pool that never sets a parameter has no tables
// and launches with ParamTables::count == 0.
//
// Calls are ordered with the launches on the caller's stream, and a device
// pool has no work "in flight" in the CPU pool's sense: a setting applies at
// each env's next reset, whether the host sends it or an autoreset does it
// on the device. Only immediate=True and get_params read values back (a
// synchronisation).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/param_store.h"
#include "core/params.h"
#include "cuda/device_ops.h"
#include "cuda/kernel_param_tables.h"

namespace envpool_x {
namespace cuda_pool {

class DeviceParamTables {
 public:
  // Device bytes per env once the tables exist (the memory check's figure).
  static int64_t DeviceBytesPerEnv(int64_t num_params) {
    if (num_params == 0) return 0;
    return num_params * static_cast<int64_t>(sizeof(KernelParamSetting) + sizeof(double)) +
           2 * static_cast<int64_t>(sizeof(uint64_t));
  }
  // Host bytes per env: the settings' mirror.
  static int64_t HostBytesPerEnv(int64_t num_params) {
    return num_params * static_cast<int64_t>(sizeof(KernelParamSetting));
  }

  void Init(std::vector<ParamSpec> specs, std::vector<double> defaults,
            std::vector<uint64_t> seeds) {
    num_envs_ = static_cast<int64_t>(seeds.size());
    seeds_ = std::move(seeds);
    checks_.Init(std::move(specs), std::move(defaults), static_cast<int>(num_envs_));
  }

  const std::vector<ParamSpec>& specs() const { return checks_.specs(); }
  int64_t count() const { return static_cast<int64_t>(checks_.count()); }
  bool made() const { return view_.count != 0; }
  // What a launch reads (count 0 until the first set_params).
  const ParamTables& view() const { return view_; }

  // A reset re-seeded env ids[k] (nullptr: env k) with seeds[k]: until the
  // tables exist the host keeps the seeds their parameter streams start from
  // (after that the kernel restarts the streams itself).
  void NoteSeeds(const std::vector<int32_t>* ids, const std::vector<uint64_t>& seeds,
                 const std::vector<uint8_t>* mask = nullptr) {
    if (made() || count() == 0) return;
    for (size_t k = 0; k < seeds.size(); ++k) {
      const int64_t e = ids ? (*ids)[k] : static_cast<int64_t>(k);
      if (mask == nullptr || (*mask)[e]) seeds_[e] = seeds[k];
    }
  }

  // The index of each of `names` once every setting is checked (the CPU
  // pool's errors; nothing changes on one).
  std::vector<size_t> Check(const std::vector<int32_t>& ids, const std::vector<std::string>& names,
                            const std::vector<std::vector<ParamSetting>>& settings,
                            bool immediate) const {
    return checks_.Check(ids, names, settings, immediate);
  }

  // After Check: settings[k] (one per env of `ids`, or one for all) for
  // parameter index[k]; `immediate`: their values apply now too.
  void Write(DeviceOps& ops, uintptr_t stream, const std::vector<int32_t>& ids,
             const std::vector<size_t>& index,
             const std::vector<std::vector<ParamSetting>>& settings, bool immediate) {
    if (ids.empty() || index.empty()) return;
    if (!made()) Make(ops, stream);
    const size_t n = checks_.count();
    bool moved = false;  // choices compacted: every env's offsets may change
    for (size_t k = 0; k < index.size(); ++k) {
      uint32_t begin = 0;
      if (settings[k][0].draw == ParamDraw::kChoice) {
        moved |= CompactChoices(settings[k][0].choices.size());
        begin = static_cast<uint32_t>(choices_.size());
        choices_.insert(choices_.end(), settings[k][0].choices.begin(),
                        settings[k][0].choices.end());
      }
      for (size_t j = 0; j < ids.size(); ++j) {
        const ParamSetting& s = settings[k][settings[k].size() == 1 ? 0 : j];
        KernelParamSetting& d = mirror_[ids[j] * n + index[k]];
        d = KernelParamSetting{s.a, s.b, begin, static_cast<uint32_t>(s.choices.size()), s.draw};
      }
    }
    const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
    const int64_t first = moved ? 0 : *lo;
    const int64_t rows = moved ? num_envs_ : *hi - *lo + 1;
    UploadChoices(ops, stream);
    ops.CopyToDevice(settings_ + first * n, mirror_.data() + first * n,
                     sizeof(KernelParamSetting) * n * rows, stream);
    if (immediate) {
      // Plain values, now: the rows of the parameters named, read back,
      // patched and written (other values may be draws only the device knows).
      std::vector<double> row(num_envs_);
      for (size_t k = 0; k < index.size(); ++k) {
        double* at = view_.values + index[k] * num_envs_;
        ops.CopyToHost(row.data(), at, sizeof(double) * num_envs_, stream);
        for (size_t j = 0; j < ids.size(); ++j) {
          row[ids[j]] = settings[k][settings[k].size() == 1 ? 0 : j].a;
        }
        ops.CopyToDevice(at, row.data(), sizeof(double) * num_envs_, stream);
      }
    }
  }

  // Row-major (ids.size(), parameters): the values each env runs with now.
  std::vector<double> Get(DeviceOps& ops, uintptr_t stream, const std::vector<int32_t>& ids) {
    const size_t n = checks_.count();
    std::vector<double> out(ids.size() * n);
    if (!made()) {
      for (size_t j = 0; j < ids.size(); ++j) {
        for (size_t p = 0; p < n; ++p) out[j * n + p] = checks_.Load(ids[j], p);
      }
      return out;
    }
    if (ids.empty()) return out;
    const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
    std::vector<double> row(*hi - *lo + 1);
    for (size_t p = 0; p < n; ++p) {
      ops.CopyToHost(row.data(), view_.values + p * num_envs_ + *lo, sizeof(double) * row.size(),
                     stream);
      for (size_t j = 0; j < ids.size(); ++j) out[j * n + p] = row[ids[j] - *lo];
    }
    return out;
  }

  // Frees the device tables (stream-ordered, after the launches that read them).
  void Free(DeviceOps& ops, uintptr_t stream) noexcept {
    for (void* p : owned_) ops.Free(p, stream);
    owned_.clear();
    view_ = ParamTables{};
    settings_ = nullptr;
  }

 private:
  // The tables, every env at the pool's values and fixed settings of them,
  // each parameter stream at the start of its env's current seed's.
  void Make(DeviceOps& ops, uintptr_t stream) {
    const int64_t n = count();
    const size_t cells = static_cast<size_t>(num_envs_ * n);
    std::vector<double> values(cells);
    std::vector<double> bounds;
    std::vector<uint64_t> keys(num_envs_);
    mirror_.assign(cells, KernelParamSetting{});
    for (int64_t p = 0; p < n; ++p) {
      const double v = checks_.Load(0, p);
      std::fill(values.begin() + p * num_envs_, values.begin() + (p + 1) * num_envs_, v);
      for (int64_t e = 0; e < num_envs_; ++e) mirror_[e * n + p].a = v;
      bounds.push_back(specs()[p].low);
      bounds.push_back(specs()[p].high);
    }
    for (int64_t e = 0; e < num_envs_; ++e) keys[e] = ParamStreamKey(seeds_[e]);
    ParamTables t;
    try {
      t.values = Upload(ops, stream, values);
      settings_ = static_cast<KernelParamSetting*>(Alloc(ops, sizeof(KernelParamSetting) * cells));
      ops.CopyToDevice(settings_, mirror_.data(), sizeof(KernelParamSetting) * cells, stream);
      t.settings = settings_;
      t.bounds = Upload(ops, stream, bounds);
      t.rng_key = Upload(ops, stream, keys);
      t.rng_counter = static_cast<uint64_t*>(Alloc(ops, sizeof(uint64_t) * num_envs_));
      ops.Memset(t.rng_counter, 0, sizeof(uint64_t) * num_envs_, stream);
    } catch (...) {
      Free(ops, stream);
      mirror_.clear();
      throw;
    }
    t.count = static_cast<int32_t>(n);
    view_ = t;
  }

  // Before `more` values are appended: drops the lists no setting uses any
  // longer once they outnumber the used ones. Returns whether offsets moved.
  bool CompactChoices(size_t more) {
    if (choices_.size() + more < 1024) return false;
    std::vector<double> kept;
    std::unordered_map<uint32_t, uint32_t> moved;
    for (const KernelParamSetting& s : mirror_) {
      if (s.draw != ParamDraw::kChoice || moved.count(s.choice_begin)) continue;
      moved.emplace(s.choice_begin, static_cast<uint32_t>(kept.size()));
      kept.insert(kept.end(), choices_.begin() + s.choice_begin,
                  choices_.begin() + s.choice_begin + s.choice_count);
    }
    if (2 * kept.size() > choices_.size()) return false;  // not worth moving
    for (KernelParamSetting& s : mirror_) {
      if (s.draw == ParamDraw::kChoice) s.choice_begin = moved[s.choice_begin];
    }
    choices_.swap(kept);
    return true;
  }

  // The choices' list on the device, reallocated when it outgrows its buffer.
  void UploadChoices(DeviceOps& ops, uintptr_t stream) {
    if (choices_.empty()) return;
    if (choices_.size() > choices_capacity_) {
      if (choices_dev_ != nullptr) {
        owned_.erase(std::find(owned_.begin(), owned_.end(), choices_dev_));
        ops.Free(choices_dev_, stream);
      }
      choices_capacity_ = std::max<size_t>(2 * choices_.size(), 64);
      choices_dev_ = static_cast<double*>(Alloc(ops, sizeof(double) * choices_capacity_));
      view_.choices = choices_dev_;
    }
    ops.CopyToDevice(choices_dev_, choices_.data(), sizeof(double) * choices_.size(), stream);
  }

  void* Alloc(DeviceOps& ops, size_t bytes) {
    owned_.reserve(owned_.size() + 1);  // no throw after the allocation
    void* p = ops.Alloc(bytes, 0);
    owned_.push_back(p);
    return p;
  }
  template <typename T>
  T* Upload(DeviceOps& ops, uintptr_t stream, const std::vector<T>& v) {
    T* p = static_cast<T*>(Alloc(ops, sizeof(T) * v.size()));
    ops.CopyToDevice(p, v.data(), sizeof(T) * v.size(), stream);
    return p;
  }

  ParamStore checks_;  // specs, the pool's values, the checks (its tables unused)
  int64_t num_envs_ = 0;
  std::vector<uint64_t> seeds_;  // each env's current seed, until the tables exist
  ParamTables view_;
  KernelParamSetting* settings_ = nullptr;  // view_.settings, writable
  std::vector<KernelParamSetting> mirror_;  // the settings on the host, [env][param]
  std::vector<double> choices_;             // every Choice's values, concatenated
  double* choices_dev_ = nullptr;
  size_t choices_capacity_ = 0;
  std::vector<void*> owned_;
};

}  // namespace cuda_pool
}  // namespace envpool_x

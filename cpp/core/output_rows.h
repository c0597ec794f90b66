// The output arrays of a pool: which fields there are (FieldLayout), the
// buffers that hold them (one block of rows, or several in first-finished
// mode), and the rows one env writes (StepOutput, the same_step final rows).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/pool_options.h"
#include "core/result_fields.h"
#include "core/spec.h"
#include "core/step_output.h"
#include "core/stream_rows.h"

namespace envpool_x {

// Roles of the output fields, in the order OutputRows lays them out.
struct FieldLayout {
  int num_obs = 0;
  int reward = 0, terminated = 0, truncated = 0, env_id = 0, elapsed_step = 0;
  int first_info = 0, num_info = 0;
  // same_step only (else -1): final copies of obs and of the info fields
  // (env_id, elapsed_step, extras), and the mask.
  int first_final_obs = -1, first_final_info = -1, final_mask = -1;
};

// `count` items of `item_bytes` bytes each, or std::length_error (Python's
// MemoryError when a pool is built) where that overflows: sizes that come
// from a user's options (an observation shape, a string's bytes) must fail
// there, never wrap around into a small buffer written past its end.
inline size_t CheckedBytes(size_t item_bytes, size_t count, const std::string& what) {
  size_t n = 0;
  if (__builtin_mul_overflow(item_bytes, count, &n)) {
    throw std::length_error(what + ": " + std::to_string(count) + " x " +
                            std::to_string(item_bytes) + " bytes do not fit in memory");
  }
  return n;
}

// Bytes of `rows` rows of field f.
inline size_t FieldBytes(const ArraySpec& f, size_t rows) {
  size_t n = ItemSize(f.dtype);
  for (int64_t d : f.shape) {
    if (d < 0) throw std::length_error("field '" + f.name + "' has a negative dimension");
    n = CheckedBytes(n, static_cast<size_t>(d), "field '" + f.name + "'");
  }
  return CheckedBytes(n, rows, "field '" + f.name + "'");
}

// A finished batch: `count` consecutive rows starting at `data[field]`;
// `block`: the block it came from in first-finished mode (-1: ordered mode).
struct Batch {
  std::vector<const uint8_t*> data;
  int count = 0;
  int block = -1;
};

// One env's row: the bases of its block's arrays (one per field, see
// OutputRows::RowAt) and its row in them.
struct Row {
  uint8_t* const* base;
  size_t slot;
};

class OutputRows {
 public:
  // `num_blocks` blocks of `block_cap` rows of every field.
  OutputRows(const EnvSpec& spec, AutoresetMode autoreset, int block_cap, int num_blocks)
      : block_cap_(block_cap), num_blocks_(num_blocks) {
    BuildLayout(spec, autoreset);
    for (const ArraySpec& f : fields_) {
      const size_t rows = static_cast<size_t>(block_cap_) * static_cast<size_t>(num_blocks_);
      buffers_.emplace_back(new uint8_t[FieldBytes(f, rows)]());
      row_bytes_.push_back(f.NumBytes());
    }
    base_.resize(fields_.size() * static_cast<size_t>(num_blocks_));
    for (int b = 0; b < num_blocks_; ++b) RestoreBlock(b);
    size_t bytes = 0;
    for (size_t f = 0; f < fields_.size(); ++f) bytes += FieldBytes(fields_[f], block_cap_);
    stream_ = bytes * static_cast<size_t>(num_blocks_) >= kStreamOutputBytes;
  }

  const std::vector<ArraySpec>& fields() const { return fields_; }
  const FieldLayout& layout() const { return layout_; }
  int block_cap() const { return block_cap_; }
  int num_blocks() const { return num_blocks_; }

  // Where row 0 of `block` of field f is written now (the pool's buffers or
  // arrays the block was redirected to).
  const uint8_t* BlockStart(size_t f, int block) const {
    return base_[static_cast<size_t>(block) * fields_.size() + f];
  }
  // Ordered mode (one block): where rows are being written now.
  const uint8_t* Current(size_t f) const { return base_[f]; }

  // The rows of `block` go to `bases` (one array of block_cap rows per
  // field) until RestoreBlock. Only while no worker can write the block:
  // ordered mode with nothing in flight, or in first-finished mode the block
  // just received, before the caller's next send (its next tickets come
  // after that send).
  void RedirectBlock(int block, const std::vector<uint8_t*>& bases) {
    std::copy(bases.begin(), bases.end(), base_.begin() + block * fields_.size());
  }
  void RestoreBlock(int block) {
    for (size_t f = 0; f < fields_.size(); ++f) {
      base_[block * fields_.size() + f] =
          buffers_[f].get() + static_cast<size_t>(block) * block_cap_ * row_bytes_[f];
    }
  }
  void RedirectTo(const std::vector<uint8_t*>& bases) { RedirectBlock(0, bases); }
  void RestoreOwnBuffers() { RestoreBlock(0); }

  // Row `slot` of `block` (ordered mode: block 0, slot = the env's row).
  Row RowAt(int block, size_t slot) const {
    return {base_.data() + static_cast<size_t>(block) * fields_.size(), slot};
  }

  // This env's row of every field the env writes (only those: the arrays
  // are not cleared, so the per-env cost stays a handful of adds).
  void Fill(Row row, StepOutput* out) const {
    uint8_t* const* base = row.base;
    const size_t r = row.slot;
    for (int i = 0; i < layout_.num_obs; ++i) out->slots[i] = base[i] + r * row_bytes_[i];
    const int num_extra = layout_.num_info - 2;  // after env_id and elapsed_step
    for (int i = 0; i < num_extra; ++i) {
      const int f = layout_.first_info + 2 + i;
      out->slots[StepOutput::kInfoSlot + i] = base[f] + r * row_bytes_[f];
    }
    // One float per agent (one for a single-agent env).
    out->reward = reinterpret_cast<float*>(base[layout_.reward] + r * row_bytes_[layout_.reward]);
    out->terminated = reinterpret_cast<bool*>(base[layout_.terminated]) + r;
    out->truncated = reinterpret_cast<bool*>(base[layout_.truncated]) + r;
  }

  // StepOutput::stream_rows for this pool's rows. Not set by Fill: see
  // EnvRunner::FillRow.
  bool stream_rows() const { return stream_; }

  template <typename T>
  T& At(int field, Row row) const {
    return reinterpret_cast<T*>(row.base[field])[row.slot];
  }

  bool has_final() const { return layout_.final_mask >= 0; }

  // same_step mode: an env that did not end this step has zero final rows
  // (the buffers are reused, so they would otherwise hold stale values).
  void ClearFinal(Row row) const {
    for (int i = 0; i < layout_.num_obs; ++i) {
      std::memset(RowOf(layout_.first_final_obs + i, row), 0, row_bytes_[i]);
    }
    for (int i = 0; i < layout_.num_info; ++i) {
      std::memset(RowOf(layout_.first_final_info + i, row), 0, row_bytes_[layout_.first_info + i]);
    }
    At<bool>(layout_.final_mask, row) = false;
  }

  // same_step mode: keeps the row of an env that ended its episode before
  // the reset overwrites it.
  void CopyFinal(Row row) const {
    for (int i = 0; i < layout_.num_obs; ++i) {
      std::memcpy(RowOf(layout_.first_final_obs + i, row), RowOf(i, row), row_bytes_[i]);
    }
    for (int i = 0; i < layout_.num_info; ++i) {
      const int f = layout_.first_info + i;
      std::memcpy(RowOf(layout_.first_final_info + i, row), RowOf(f, row), row_bytes_[f]);
    }
    At<bool>(layout_.final_mask, row) = true;
  }

 private:
  // The bases of the block holding `*row`; `*row` becomes its row in the block.
  uint8_t* RowOf(int field, Row row) const {
    return row.base[field] + row.slot * row_bytes_[field];
  }

  void BuildLayout(const EnvSpec& spec, AutoresetMode autoreset) {
    auto scalar = [](const std::string& name, DType d) {
      ArraySpec s;
      s.name = name;
      s.dtype = d;
      return s;
    };
    for (const ArraySpec& o : spec.obs) fields_.push_back(o);
    layout_.num_obs = static_cast<int>(spec.obs.size());
    layout_.reward = static_cast<int>(fields_.size());
    fields_.push_back(scalar(result_fields::kReward, DType::kFloat32));
    if (spec.num_agents() > 1) fields_.back().shape = {spec.num_agents()};
    layout_.terminated = static_cast<int>(fields_.size());
    fields_.push_back(scalar(result_fields::kTerminated, DType::kBool));
    layout_.truncated = static_cast<int>(fields_.size());
    fields_.push_back(scalar(result_fields::kTruncated, DType::kBool));
    layout_.first_info = static_cast<int>(fields_.size());
    layout_.env_id = layout_.first_info;
    fields_.push_back(scalar(result_fields::kEnvId, DType::kInt32));
    layout_.elapsed_step = layout_.first_info + 1;
    fields_.push_back(scalar(result_fields::kElapsedStep, DType::kInt32));
    for (const ArraySpec& i : spec.info) fields_.push_back(i);
    layout_.num_info = static_cast<int>(fields_.size()) - layout_.first_info;
    if (autoreset == AutoresetMode::kSameStep) {
      layout_.first_final_obs = static_cast<int>(fields_.size());
      for (int i = 0; i < layout_.num_obs; ++i) {
        ArraySpec f = fields_[i];
        f.name = result_fields::kFinalObsPrefix + f.name;
        fields_.push_back(f);
      }
      layout_.first_final_info = static_cast<int>(fields_.size());
      for (int i = 0; i < layout_.num_info; ++i) {
        ArraySpec f = fields_[layout_.first_info + i];
        f.name = result_fields::kFinalInfoPrefix + f.name;
        fields_.push_back(f);
      }
      layout_.final_mask = static_cast<int>(fields_.size());
      fields_.push_back(scalar(result_fields::kFinalMask, DType::kBool));
    }
  }

  int block_cap_;
  int num_blocks_;
  FieldLayout layout_;
  std::vector<ArraySpec> fields_;
  std::vector<std::unique_ptr<uint8_t[]>> buffers_;
  // Where workers write row 0 of field f of block b, at [b * fields + f]:
  // in buffers_, or in arrays the block was redirected to (RedirectBlock).
  // Workers must only ever write through base_.
  std::vector<uint8_t*> base_;
  std::vector<size_t> row_bytes_;  // fields_[f].NumBytes()
  bool stream_ = false;            // see stream_rows()
};

}  // namespace envpool_x

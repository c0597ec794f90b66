// PoolBase's receiving side (declared in core/pool_base.h): where the next
// rows go instead of the pool's own buffers, and Recv, which waits for a
// batch and frees its envs.
#pragma once

#include <string>
#include <vector>

#include "core/pool_base.h"

namespace envpool_x {

// Ordered mode, nothing in flight: the next round's results go straight to
// `bases` (one array per field, rows for the envs of the coming send) instead
// of the pool's buffers, which saves a copy. Valid until that round's Recv.
inline void PoolBase::WriteNextRoundTo(const std::vector<uint8_t*>& bases) {
  if (!ordered_ || pending_ != 0 || bases.size() != fields().size()) {
    throw StateError("WriteNextRoundTo needs ordered mode and nothing in flight");
  }
  rows_.RedirectTo(bases);
}

// First-finished mode: the next rows of the block the last Recv returned
// go to `bases` (one array of batch_size rows per field) instead of where
// they went before (the pool's buffers, or earlier arrays), so that the
// batch just received can be handed on without a copy. Only between that
// Recv and the next send: the block's next tickets come after that send.
inline void PoolBase::WriteReceivedBlockTo(const std::vector<uint8_t*>& bases) {
  if (ordered_ || received_block_ < 0 || bases.size() != fields().size()) {
    throw StateError("WriteReceivedBlockTo needs first-finished mode, right after a recv");
  }
  rows_.RedirectBlock(received_block_, bases);
}

// Waits for the next batch. `help`: the caller runs queued chunks itself
// while it waits (it would only sleep otherwise).
inline Batch PoolBase::Recv(bool help) {
  CheckOpen();
  Batch batch;
  const size_t num_fields = fields().size();
  batch.data.resize(num_fields);
  if (ordered_) {
    if (pending_ == 0) {
      throw StateError("recv() with nothing in flight: send() or async_reset() first");
    }
    WaitUntil([this] { return done_.load(std::memory_order_acquire) >= sent_; }, help);
    round_profile().MarkDone();
    batch.count = pending_;
    for (size_t f = 0; f < num_fields; ++f) batch.data[f] = rows_.Current(f);
    // The round is over: later rounds write to the pool's own buffers again.
    rows_.RestoreOwnBuffers();
    pending_ = 0;
  } else {
    if (pending_ < opt_.batch_size) {
      throw StateError("recv() would wait forever: " + std::to_string(pending_) +
                       " envs in flight but batch_size=" + std::to_string(opt_.batch_size) +
                       "; send() to more envs first");
    }
    const int b = static_cast<int>(recv_block_ % rows_.num_blocks());
    WaitUntil(
        [this, b] { return block_done_[b].load(std::memory_order_acquire) == opt_.batch_size; },
        help);
    block_done_[b].store(0, std::memory_order_relaxed);
    ++recv_block_;
    batch.count = opt_.batch_size;
    batch.block = b;
    received_block_ = b;
    for (size_t f = 0; f < num_fields; ++f) batch.data[f] = rows_.BlockStart(f, b);
    pending_ -= batch.count;
  }
  // These envs are free again.
  if (ordered_) {
    in_flight_.EndRound();
  } else {
    const int32_t* ids = reinterpret_cast<const int32_t*>(batch.data[layout().env_id]);
    for (int s = 0; s < batch.count; ++s) in_flight_.Free(ids[s]);
  }
  if (params_.has_staged()) CommitStagedParams();
  ThrowRecordedError();
  return batch;
}

}  // namespace envpool_x

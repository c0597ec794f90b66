// The engine's own parts under stress: the ring queue, sync and async pools of
// CartPole (partial steps, seeded resets, close with work in flight), exceptions
// inside envs, and output fields resolved by name.
#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/ring_queue.h"
#include "envs/classic_control/cartpole.h"
#include "envs/testing/fault_injection.h"
#include "pool_stress_support.h"

// Many producers and consumers on one ring: every value arrives exactly once.
void QueueStress() {
  RingQueue<int> q(64);
  constexpr int kPerProducer = 20000, kProducers = 4;
  std::atomic<int> consumed{0};
  std::vector<std::atomic<int>> seen(kPerProducer * kProducers);
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        while (!q.TryPush(p * kPerProducer + i)) std::this_thread::yield();
      }
    });
  }
  for (int c = 0; c < 4; ++c) {
    threads.emplace_back([&] {
      int v;
      while (consumed.load() < kPerProducer * kProducers) {
        if (q.TryPop(&v)) {
          seen[v].fetch_add(1);
          consumed.fetch_add(1);
        } else {
          std::this_thread::yield();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& s : seen) CHECK(s.load() == 1);
}

// Sync: full and partial steps keep env_id order; elapsed steps add up.
void SyncStress(int threads, int chunk) {
  const int n = 37;
  EnvPool<CartPole> pool(CartPole::DefaultConfig(), Options(n, 0, threads, chunk));
  const auto& all = pool.ResolveIds(nullptr, 0, false);
  std::vector<int32_t> ids(all.begin(), all.end());
  pool.SendReset(ids, nullptr);
  pool.Recv(true);
  std::vector<int32_t> act(n, 1);
  // Timed rounds: the workers write their lanes while the caller reads them.
  pool.round_profile().Enable(true);
  for (int r = 0; r < 300; ++r) {
    std::vector<int32_t> sub;
    for (int i = r % 3; i < n; i += 1 + r % 4) sub.push_back(i);
    // Every fifth round goes to every env (in flight as a whole round).
    const std::vector<int32_t>& send = r % 5 == 0 ? all : sub;
    pool.StoreActions(send, act.data());
    if (r % 2) {
      pool.SendStepForRecv(send);
    } else {
      pool.SendStep(send);
    }
    // Mostly help in a sync step's recv, as the bindings do; sometimes not,
    // which must still finish when the step left a worker out for the caller.
    Batch b = pool.Recv(!(r % 4 == 3 || r % 8 == 0));
    pool.round_profile().MarkReturn();
    CHECK(b.count == static_cast<int>(send.size()));
    const int32_t* got = reinterpret_cast<const int32_t*>(b.data[pool.layout().env_id]);
    for (int k = 0; k < b.count; ++k) CHECK(got[k] == send[k]);
  }
  CHECK(pool.round_profile().Summary().at("rounds") == 300);
}

// Async: every recv returns batch_size distinct envs that were in flight.
void AsyncStress(int threads, int batch) {
  const int n = 23;
  EnvPool<CartPole> pool(CartPole::DefaultConfig(), Options(n, batch, threads, 0));
  std::vector<int32_t> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  pool.SendReset(ids, nullptr);
  std::vector<int> in_flight(n, 1);
  std::vector<int32_t> act(n, 0);
  for (int r = 0; r < 2000; ++r) {
    Batch b = pool.Recv(r % 3 == 0);
    CHECK(b.count == batch);
    const int32_t* got = reinterpret_cast<const int32_t*>(b.data[pool.layout().env_id]);
    std::vector<int32_t> back(got, got + b.count);
    std::set<int32_t> unique(back.begin(), back.end());
    CHECK(static_cast<int>(unique.size()) == batch);
    for (int32_t id : back) {
      CHECK(in_flight[id] == 1);
      in_flight[id] = 0;
    }
    pool.StoreActions(back, act.data());
    if (r % 7 == 0) {
      std::vector<uint64_t> seeds(back.size(), static_cast<uint64_t>(r));
      pool.SendReset(back, &seeds);
    } else {
      pool.SendStep(back);
    }
    for (int32_t id : back) in_flight[id] = 1;
  }
  // Closing with work in flight must return and not touch freed memory.
  pool.Close();
}

// Exceptions inside envs reach the caller; the pool keeps working.
void FaultStress(int threads) {
  const int n = 9;
  Config cfg = FaultInjection::DefaultConfig();
  cfg.Set("throw_at_step", int64_t{3});
  cfg.Set("fault_env_id", int64_t{4});
  EnvPool<FaultInjection> pool(cfg, Options(n, 0, threads, 0));
  std::vector<int32_t> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  std::vector<int32_t> act(n, 1);
  pool.SendReset(ids, nullptr);
  pool.Recv(false);
  int errors = 0;
  for (int r = 0; r < 50; ++r) {
    pool.StoreActions(ids, act.data());
    pool.SendStep(ids);
    try {
      pool.Recv(false);
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()).find("env 4 raised") != std::string::npos);
      ++errors;
    }
  }
  CHECK(errors >= 5);  // episodes of 7 steps, the fault at step 3 of each
}

// Output fields resolve by name with their dtype checked; a missing name or
// a wrong type is the env's bug, caught when the env is built.
void OutputFieldChecks() {
  EnvSpec spec;
  spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {3}, {}, {}});
  spec.info.push_back(ArraySpec{"lives", DType::kInt32, {}, {}, {}});
  spec.info.push_back(ArraySpec{"ram", DType::kUInt8, {4}, {}, {}});
  auto throws = [](auto f, const std::string& part) {
    try {
      f();
    } catch (const std::logic_error& e) {
      return std::string(e.what()).find(part) != std::string::npos;
    }
    return false;
  };
  const OutputField<float> obs = ObsField<float>(spec, "obs");
  const OutputField<uint8_t> ram = InfoField<uint8_t>(spec, "ram");
  CHECK(obs.bound() && obs.slot() == 0);
  CHECK(ram.slot() == StepOutput::kInfoSlot + 1);
  CHECK(!OptionalInfoField<float>(spec, "discount").bound());
  CHECK(throws([&] { ObsField<double>(spec, "obs"); }, "declared float32"));
  CHECK(throws([&] { InfoField<int64_t>(spec, "lives"); }, "written as int64"));
  CHECK(throws([&] { InfoField<float>(spec, "discount"); }, "no info field 'discount'"));
  CHECK(throws([&] { ObsField<float>(spec, "lives"); }, "no observation field 'lives'"));
  float row[3] = {0, 0, 0};
  uint8_t bytes[4] = {0, 0, 0, 0};
  StepOutput out;
  out.slots[obs.slot()] = reinterpret_cast<uint8_t*>(row);
  out.slots[ram.slot()] = bytes;
  out[obs][2] = 1.5f;
  out[ram][3] = 7;
  CHECK(row[2] == 1.5f && bytes[3] == 7);
#ifdef ENVPOOL_X_CHECKED
  CHECK(throws([&] { out[OutputField<float>()][0] = 1.0f; }, "unbound"));
#endif
}

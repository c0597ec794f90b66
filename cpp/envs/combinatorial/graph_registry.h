// The MaxCut graph registry: weighted undirected graphs handed over from
// Python under a key naming their content (a hash), stored once per process
// in adjacency (CSR) form and shared read-only by every env that uses them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace envpool_x {
namespace combinatorial {

// A weighted undirected graph as adjacency lists in one array (CSR): the
// neighbours of node v are nbr[offset[v] .. offset[v + 1]), with the weights
// beside them. Each edge appears in both endpoints' lists; parallel edges stay
// separate entries; self-loops are dropped (they are never cut).
struct Graph {
  int32_t n = 0;
  int64_t num_edges = 0;     // as given, self-loops included
  int64_t negative_sum = 0;  // of the negative weights (self-loops excluded)
  int64_t positive_sum = 0;  // of the positive weights
  std::vector<int64_t> offset;
  std::vector<int32_t> nbr;
  std::vector<int64_t> weight;
};

// Builds the CSR form of n nodes and edges (u[k], v[k], w[k]), 0-based.
inline std::shared_ptr<const Graph> BuildGraph(const std::string& key, int64_t n,
                                               const std::vector<int64_t>& u,
                                               const std::vector<int64_t>& v,
                                               const std::vector<int64_t>& w) {
  if (n < 1 || n > (int64_t{1} << 30)) {
    throw ValueError("graph '" + key + "': the node count must be in [1, 2**30], got " +
                     std::to_string(n));
  }
  if (u.size() != v.size() || u.size() != w.size()) {
    throw ValueError("graph '" + key + "': edge arrays of different lengths");
  }
  auto g = std::make_shared<Graph>();
  g->n = static_cast<int32_t>(n);
  g->num_edges = static_cast<int64_t>(u.size());
  std::vector<int64_t> degree(n + 1, 0);
  for (size_t k = 0; k < u.size(); ++k) {
    if (u[k] < 0 || u[k] >= n || v[k] < 0 || v[k] >= n) {
      throw ValueError("graph '" + key + "': edge " + std::to_string(k) + " (" +
                       std::to_string(u[k]) + ", " + std::to_string(v[k]) +
                       ") names a node outside [0, " + std::to_string(n) + ")");
    }
    if (u[k] == v[k]) continue;
    (w[k] < 0 ? g->negative_sum : g->positive_sum) += w[k];
    ++degree[u[k] + 1];
    ++degree[v[k] + 1];
  }
  g->offset.assign(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) g->offset[i + 1] = g->offset[i] + degree[i + 1];
  g->nbr.resize(g->offset[n]);
  g->weight.resize(g->offset[n]);
  std::vector<int64_t> fill(g->offset.begin(), g->offset.end() - 1);
  for (size_t k = 0; k < u.size(); ++k) {
    if (u[k] == v[k]) continue;
    const int64_t a = fill[u[k]]++;
    g->nbr[a] = static_cast<int32_t>(v[k]);
    g->weight[a] = w[k];
    const int64_t b = fill[v[k]]++;
    g->nbr[b] = static_cast<int32_t>(u[k]);
    g->weight[b] = w[k];
  }
  return g;
}

class GraphRegistry {
 public:
  static GraphRegistry& Get() {
    static GraphRegistry registry;
    return registry;
  }

  // Registers a graph under `key` (which names its content: registering a
  // key again is a no-op). Graphs stay registered for the process's life.
  void Add(const std::string& key, int64_t n, const std::vector<int64_t>& u,
           const std::vector<int64_t>& v, const std::vector<int64_t>& w) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (graphs_.count(key) != 0) return;
    }
    std::shared_ptr<const Graph> g = BuildGraph(key, n, u, v, w);
    std::lock_guard<std::mutex> lock(mu_);
    graphs_.emplace(key, std::move(g));
  }

  bool Has(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    return graphs_.count(key) != 0;
  }

  std::shared_ptr<const Graph> Load(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = graphs_.find(key);
    if (it == graphs_.end()) {
      throw ValueError("no MaxCut graph '" + key +
                       "' is registered (envpool_x registers the graph when MaxCut-v0 is made)");
    }
    return it->second;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Graph>> graphs_;
};

}  // namespace combinatorial
}  // namespace envpool_x

// Combinatorial optimisation pools (MaxCut, TSP) and the MaxCut graph
// registry that Python fills (maxcut_add_graph) before making a pool.
#include "bindings/pool_binding.h"
#include "envs/combinatorial/graph_registry.h"
#include "envs/combinatorial/maxcut.h"
#include "envs/combinatorial/tsp.h"

namespace envpool_x {

void BindCombinatorial(py::module_& m) {
  using Ints = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;
  m.def(
      "maxcut_add_graph",
      [](const std::string& key, int64_t n, const Ints& u, const Ints& v, const Ints& w) {
        auto vec = [](const Ints& a) {
          return std::vector<int64_t>(a.data(), a.data() + a.size());
        };
        combinatorial::GraphRegistry::Get().Add(key, n, vec(u), vec(v), vec(w));
      },
      py::arg("key"), py::arg("n"), py::arg("u"), py::arg("v"), py::arg("w"),
      "Registers a MaxCut graph (n nodes, 0-based edges u[k]-v[k] of integer weight w[k]) "
      "under `key`, which names its content; a key registered before is kept as it is.");
  m.def(
      "maxcut_has_graph",
      [](const std::string& key) { return combinatorial::GraphRegistry::Get().Has(key); },
      py::arg("key"));
  BindEnv<MaxCut>(m);
  BindEnv<Tsp>(m);
}

}  // namespace envpool_x

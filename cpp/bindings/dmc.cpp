// DeepMind Control suite pools (built with ENVPOOL_X_MUJOCO): one pool class
// per domain, the task chosen by the "task_name" key, the model by "model"
// (a key Python registers with dmc_add_model before making a pool).
#include "bindings/pool_binding.h"
#include "envs/dmc/cheetah.h"
#include "envs/dmc/walker.h"

namespace envpool_x {

void BindDmc(py::module_& m) {
  m.def(
      "dmc_add_model",
      [](const std::string& key, const py::bytes& xml, std::vector<std::string> asset_names,
         const std::vector<py::bytes>& asset_data) {
        std::vector<std::string> data;
        data.reserve(asset_data.size());
        for (const py::bytes& b : asset_data) data.emplace_back(b);
        dmc::ModelRegistry::Get().Add(key, std::string(xml), std::move(asset_names),
                                      std::move(data));
      },
      py::arg("key"), py::arg("xml"), py::arg("asset_names"), py::arg("asset_data"),
      "Registers a dm_control model (XML and asset files) under `key` for the dmc pools.");
  m.def(
      "dmc_has_model", [](const std::string& key) { return dmc::ModelRegistry::Get().Has(key); },
      py::arg("key"));
  BindEnv<DmcCheetah>(m, "DmcCheetah");
  BindEnv<DmcWalker>(m, "DmcWalker");
}

}  // namespace envpool_x

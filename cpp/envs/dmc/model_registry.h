// The dm_control model registry: XML and assets handed over from Python,
// compiled once per process through a MuJoCo VFS and shared read-only by
// every env of a model (with a twin whose actuation is disabled).
#pragma once

#include <mujoco/mujoco.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {
namespace dmc {

// The two read-only models of one registered XML: as compiled, and a twin
// with actuation disabled for dm_control's reset-time mj_forward (which
// toggles the flag on its own model; a model shared by threads can't be
// toggled).
struct SharedModel {
  std::shared_ptr<const mjModel> model;
  std::shared_ptr<const mjModel> no_actuation;
};

class ModelRegistry {
 public:
  static ModelRegistry& Get() {
    static ModelRegistry registry;
    return registry;
  }

  // Python registers a model (dm_control's XML plus its asset files) under a
  // key that names its content; registering a key again is a no-op.
  void Add(const std::string& key, std::string xml, std::vector<std::string> asset_names,
           std::vector<std::string> asset_data) {
    if (asset_names.size() != asset_data.size()) {
      throw ValueError("dmc model '" + key + "': " + std::to_string(asset_names.size()) +
                       " asset names but " + std::to_string(asset_data.size()) + " contents");
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (sources_.count(key) != 0) return;
    sources_[key] = Source{std::move(xml), std::move(asset_names), std::move(asset_data)};
  }

  bool Has(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    return sources_.count(key) != 0;
  }

  SharedModel Load(const std::string& key) {
    mujoco_detail::InstallHandlers();
    std::lock_guard<std::mutex> lock(mu_);
    auto cached = models_.find(key);
    if (cached != models_.end()) {
      SharedModel m{cached->second.model.lock(), cached->second.no_actuation.lock()};
      if (m.model && m.no_actuation) return m;
    }
    auto src = sources_.find(key);
    if (src == sources_.end()) {
      throw ValueError("no DeepMind Control model '" + key +
                       "' is registered (envpool_x.dmc registers them when a task is made)");
    }
    mjModel* raw = Compile(key, src->second);
    mjModel* twin = mj_copyModel(nullptr, raw);
    twin->opt.disableflags |= mjDSBL_ACTUATION;
    SharedModel m{std::shared_ptr<const mjModel>(raw, mujoco_detail::ModelDeleter()),
                  std::shared_ptr<const mjModel>(twin, mujoco_detail::ModelDeleter())};
    models_[key] = Weak{m.model, m.no_actuation};
    return m;
  }

 private:
  struct Source {
    std::string xml;
    std::vector<std::string> asset_names;
    std::vector<std::string> asset_data;
  };
  struct Weak {
    std::weak_ptr<const mjModel> model;
    std::weak_ptr<const mjModel> no_actuation;
  };

  static mjModel* Compile(const std::string& key, const Source& src) {
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    // The XML's includes name the assets relative to the model's folder, as
    // dm_control's `common.ASSETS` keys do.
    const std::string model_name = "envpool_x_dmc_model.xml";
    int rc =
        mj_addBufferVFS(&vfs, model_name.c_str(), src.xml.data(), static_cast<int>(src.xml.size()));
    for (size_t i = 0; rc == 0 && i < src.asset_names.size(); ++i) {
      rc = mj_addBufferVFS(&vfs, src.asset_names[i].c_str(), src.asset_data[i].data(),
                           static_cast<int>(src.asset_data[i].size()));
    }
    if (rc != 0) {
      mj_deleteVFS(&vfs);
      throw ValueError("dmc model '" + key + "': MuJoCo's VFS refused an asset (code " +
                       std::to_string(rc) + ")");
    }
    char error[1000] = "";
    mjModel* m = mj_loadXML(model_name.c_str(), &vfs, error, sizeof(error));
    mj_deleteVFS(&vfs);
    if (m == nullptr) {
      throw ValueError("MuJoCo could not compile the dm_control model '" + key + "': " + error);
    }
    return m;
  }

  std::mutex mu_;
  std::map<std::string, Source> sources_;
  std::map<std::string, Weak> models_;
};

}  // namespace dmc
}  // namespace envpool_x

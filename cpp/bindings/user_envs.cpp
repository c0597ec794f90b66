// Pools of envs that are not built into _core: numba envs (NumbaEnv, whose
// code is the user's numba callbacks) and C++ envs compiled on the user's
// machine, loaded from their module through the table of extern/external_api.h.
#include <dlfcn.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/pool_binding.h"
#include "envs/user/numba_env.h"
#include "extern/external_api.h"

namespace envpool_x {
namespace {

// A loaded user module. It is never unloaded: worker threads of its pools
// run its code, and a pool may outlive every Python reference to the module.
class ExternalLibrary {
 public:
  explicit ExternalLibrary(const std::string& path) : path_(path) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      throw ValueError("could not load the env module '" + path + "': " + dlerror());
    }
    using ApiFn = const void* (*)();
    auto api_fn = reinterpret_cast<ApiFn>(dlsym(handle, "envpool_x_env_api"));
    if (api_fn == nullptr) {
      throw ValueError("'" + path + "' is not an envpool_x env module (no envpool_x_env_api)");
    }
    // api_version and abi_tag are read before anything else of the table:
    // their place in it never changes.
    api_ = static_cast<const ExternalEnvApi*>(api_fn());
    const std::string tag = api_->api_version == kExternalApiVersion ? api_->abi_tag : "";
    if (tag != ENVPOOL_X_ABI_TAG) {
      throw ValueError("the env module '" + path + "' was built for another envpool_x (" +
                       (tag.empty() ? "an older module format" : tag) +
                       "); this one is " ENVPOOL_X_ABI_TAG
                       ". Rebuild it "
                       "(register_cpp_env does when its cache key changes)");
    }
  }

  const ExternalEnvApi& api() const { return *api_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const ExternalEnvApi* api_ = nullptr;
};

// One user pool; keeps its module's table reachable for as long as it lives.
class ExternalPyPool final : public PyPool {
 public:
  ExternalPyPool(std::shared_ptr<ExternalLibrary> lib, std::unique_ptr<PoolBase> pool)
      : PyPool(std::move(pool)), lib_(std::move(lib)) {}

 private:
  std::shared_ptr<ExternalLibrary> lib_;
};

}  // namespace

void BindUserEnvs(py::module_& m) {
  BindEnv<NumbaEnv>(m);

  py::class_<ExternalLibrary, std::shared_ptr<ExternalLibrary>>(m, "ExternalEnvLibrary")
      .def(py::init<const std::string&>(), py::arg("path"),
           "Loads a module built by register_cpp_env; ValueError if it is not one or was "
           "built for another envpool_x.")
      .def_property_readonly("name", [](const ExternalLibrary& l) { return l.api().name; })
      .def_property_readonly("path", &ExternalLibrary::path)
      .def("memory_sizes",
           [](const ExternalLibrary& l) {
             py::dict d;
             d["env"] = l.api().env_size;
             d["stepped_in_parts"] = l.api().stepped_in_parts;
             d["cheap"] = l.api().cheap;
             return d;
           })
      .def(
          "bookkeeping_bytes",
          [](const ExternalLibrary& l, int64_t num_envs, int64_t batch_size, int64_t num_threads,
             int64_t action_bytes) {
            return PoolBase::BookkeepingBytes(num_envs, batch_size, num_threads, action_bytes,
                                              l.api().stepped_in_parts);
          },
          py::arg("num_envs"), py::arg("batch_size"), py::arg("num_threads"),
          py::arg("action_bytes"))
      .def("default_config",
           [](const ExternalLibrary& l) { return ConfigToDict(l.api().default_config()); })
      .def("env_spec",
           [](const ExternalLibrary& l, const py::dict& cfg) {
             const ExternalEnvApi& api = l.api();
             return EnvSpecToDict(api.spec(ConfigFromDict(api.default_config(), cfg)));
           })
      .def(
          "raw_loop",
          [](const ExternalLibrary& l, const py::dict& cfg, int num_envs, int64_t steps,
             uint64_t seed, int max_episode_steps) {
            const ExternalEnvApi& api = l.api();
            Config config = ConfigFromDict(api.default_config(), cfg);
            py::gil_scoped_release nogil;
            return api.raw_loop(config, num_envs, steps, seed, max_episode_steps);
          },
          py::arg("env_config"), py::arg("num_envs"), py::arg("steps"), py::arg("seed") = 0,
          py::arg("max_episode_steps") = 0, "As the built-in pools' raw_loop.");
  m.attr("external_abi_tag") = ENVPOOL_X_ABI_TAG;

  auto cls = py::class_<ExternalPyPool>(m, "ExternalPool");
  cls.def(
      py::init([](const std::shared_ptr<ExternalLibrary>& lib, const py::dict& env_config,
                  int num_envs, int batch_size, int num_threads, int thread_affinity_offset,
                  int max_episode_steps, const std::string& autoreset_mode,
                  const py::object& env_seeds, int chunk_size) {
        PoolOptions opt = MakePoolOptions(num_envs, batch_size, num_threads, thread_affinity_offset,
                                          max_episode_steps, autoreset_mode, chunk_size);
        const ExternalEnvApi& api = lib->api();
        Config cfg = ConfigFromDict(api.default_config(), env_config);
        const std::string what = "a pool of " + std::to_string(num_envs) + " " + api.name + " envs";
        return BuildOrMemoryError(what, [&] {
          opt.env_seeds = PoolSeeds(env_seeds, num_envs);
          std::unique_ptr<PoolBase> pool;
          {
            py::gil_scoped_release nogil;
            pool.reset(api.make_pool(cfg, opt));
          }
          return std::make_unique<ExternalPyPool>(lib, std::move(pool));
        });
      }),
      py::arg("library"), py::arg("env_config"), py::arg("num_envs"), py::arg("batch_size"),
      py::arg("num_threads"), py::arg("thread_affinity_offset"), py::arg("max_episode_steps"),
      py::arg("autoreset_mode"), py::arg("env_seeds"), py::arg("chunk_size") = 0);
  DefPoolMethods(cls);
}

}  // namespace envpool_x

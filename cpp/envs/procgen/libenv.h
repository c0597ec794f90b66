// Procgen's compiled engine (procgen/data/prebuilt/libenv.so from the procgen
// wheel), loaded with dlopen. It speaks gym3's libenv C ABI, declared here from
// that API's documented layout: a handle holds `num` games; the caller owns the
// buffers the games write into; libenv_act steps every game of the handle.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "core/errors.h"

namespace envpool_x::procgen_detail {

constexpr int kNameLen = 128;  // LIBENV_MAX_NAME_LEN
enum LibenvDType : int { kUInt8 = 1, kInt32 = 2 };

struct LibenvOption {
  char name[kNameLen];
  int dtype;
  int count;
  void* data;
};
struct LibenvOptions {
  LibenvOption* items;
  int count;
};
struct LibenvBuffers {
  void** ob;
  float* rew;
  uint8_t* first;
  void** info;
  void** ac;
};

// The library's entry points. Handles of one library may be stepped from
// different threads at once (procgen's own stepping threads do that); its
// sprites are loaded once, by the first handle made in the process.
struct Libenv {
  void* (*make)(int, LibenvOptions);
  void (*set_buffers)(void*, LibenvBuffers*);
  void (*observe)(void*);
  void (*act)(void*);
  void (*close)(void*);
  int (*version)();
  // procgen's own additions: one game's saved state (its Game::serialize).
  int (*get_state)(void*, int, char*, int);
  void (*set_state)(void*, int, char*, int);
};

template <typename Fn>
Fn Symbol(void* lib, const std::string& path, const char* name) {
  void* p = dlsym(lib, name);
  if (p == nullptr) {
    throw std::runtime_error(path + " has no " + name + ": not procgen's libenv.so");
  }
  return reinterpret_cast<Fn>(p);
}

// The library at `path`, opened once per process and never closed (Qt's
// globals inside it do not survive an unload).
inline const Libenv& LoadLibenv(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, Libenv> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(path);
  if (it != loaded.end()) return it->second;
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    throw std::runtime_error(
        "cannot load procgen's library " + path + ": " + (why ? why : "unknown error") +
        " (it comes from the procgen wheel at build time; see docs/procgen.md)");
  }
  Libenv api{};
  api.make = Symbol<void* (*)(int, LibenvOptions)>(lib, path, "libenv_make");
  api.set_buffers = Symbol<void (*)(void*, LibenvBuffers*)>(lib, path, "libenv_set_buffers");
  api.observe = Symbol<void (*)(void*)>(lib, path, "libenv_observe");
  api.act = Symbol<void (*)(void*)>(lib, path, "libenv_act");
  api.close = Symbol<void (*)(void*)>(lib, path, "libenv_close");
  api.version = Symbol<int (*)()>(lib, path, "libenv_version");
  api.get_state = Symbol<int (*)(void*, int, char*, int)>(lib, path, "get_state");
  api.set_state = Symbol<void (*)(void*, int, char*, int)>(lib, path, "set_state");
  return loaded.emplace(path, api).first->second;
}

}  // namespace envpool_x::procgen_detail

// An OpenGL context for the calling thread, for MuJoCo's offscreen renderer:
// OSMesa (software) or EGL (a GPU without a display), as MUJOCO_GL says. The
// GL library is opened with dlopen at the first use, so the module does not
// link it and a machine without one still imports envpool_x.
//
// MuJoCo finds GL's functions itself (its glad loader, in mjr_makeContext):
// it looks up eglGetProcAddress / OSMesaGetProcAddress among the loaded
// libraries, so the context only has to be current on the thread that calls
// mjr_makeContext and renders.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.h"

namespace envpool_x {
namespace gl_detail {

// The backends we can make a context for without a window.
enum class GlBackend { kOsMesa, kEgl };

inline std::string GlHelp() {
  return "pixel observations render through OpenGL without a window: set MUJOCO_GL=osmesa "
         "(Debian / Ubuntu: apt-get install libosmesa6) or MUJOCO_GL=egl (a GPU with its EGL "
         "driver)";
}

// The backend MUJOCO_GL names (envpool_x sets it at import when it is unset).
inline GlBackend BackendFromEnvironment() {
  const char* name = std::getenv("MUJOCO_GL");
  const std::string value = name ? name : "";
  if (value == "osmesa") return GlBackend::kOsMesa;
  if (value == "egl") return GlBackend::kEgl;
  throw std::runtime_error("MUJOCO_GL=" + (value.empty() ? std::string("(unset)") : value) +
                           " cannot render in worker threads; " + GlHelp());
}

// The first of `names` that dlopen finds (kept open for the process).
inline void* OpenLibrary(const std::vector<const char*>& names) {
  for (const char* name : names) {
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return handle;
  }
  return nullptr;
}

template <typename Fn>
Fn Symbol(void* library, const char* name) {
  void* address = dlsym(library, name);
  if (address == nullptr) throw std::runtime_error(std::string("OpenGL library lacks ") + name);
  return reinterpret_cast<Fn>(address);
}

// OSMesa's entry points (osmesa.h is not installed with the runtime library).
struct OsMesaApi {
  using Context = void*;
  Context (*create)(unsigned format, int depth, int stencil, int accum, Context share);
  unsigned char (*make_current)(Context, void* buffer, unsigned type, int width, int height);
  void (*destroy)(Context);
  Context (*get_current)();
  void (*get_integer)(int pname, int* value);
  unsigned char (*get_color_buffer)(Context, int* width, int* height, int* format, void** buffer);
  // OSMesaGetIntegerv's names (osmesa.h).
  static constexpr int kWidth = 0x20, kHeight = 0x21, kType = 0x23;

  static const OsMesaApi& Get() {
    static const OsMesaApi api = [] {
      void* lib = OpenLibrary({"libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"});
      if (lib == nullptr) throw std::runtime_error("could not load libOSMesa; " + GlHelp());
      OsMesaApi a{};
      a.create = Symbol<decltype(a.create)>(lib, "OSMesaCreateContextExt");
      a.make_current = Symbol<decltype(a.make_current)>(lib, "OSMesaMakeCurrent");
      a.destroy = Symbol<decltype(a.destroy)>(lib, "OSMesaDestroyContext");
      a.get_current = Symbol<decltype(a.get_current)>(lib, "OSMesaGetCurrentContext");
      a.get_integer = Symbol<decltype(a.get_integer)>(lib, "OSMesaGetIntegerv");
      a.get_color_buffer = Symbol<decltype(a.get_color_buffer)>(lib, "OSMesaGetColorBuffer");
      return a;
    }();
    return api;
  }
};

// EGL's entry points and the constants we use (egl.h's values).
struct EglApi {
  using Display = void*;
  using Config = void*;
  using Context = void*;
  static constexpr int kNone = 0x3038;
  static constexpr unsigned kOpenGlApi = 0x30A2;
  static constexpr int kPlatformDevice = 0x313F;

  void* (*get_proc)(const char*);
  Display (*get_display)(void*);
  unsigned (*initialize)(Display, int*, int*);
  unsigned (*choose_config)(Display, const int*, Config*, int, int*);
  unsigned (*bind_api)(unsigned);
  Context (*create_context)(Display, Config, Context, const int*);
  unsigned (*make_current)(Display, void*, void*, Context);
  unsigned (*destroy_context)(Display, Context);
  Context (*get_current_context)();
  Display (*get_current_display)();
  void* (*get_current_surface)(int which);
  static constexpr int kDraw = 0x3059, kRead = 0x305A;

  static const EglApi& Get() {
    static const EglApi api = [] {
      void* lib = OpenLibrary({"libEGL.so.1", "libEGL.so"});
      if (lib == nullptr) throw std::runtime_error("could not load libEGL; " + GlHelp());
      EglApi a{};
      a.get_proc = Symbol<decltype(a.get_proc)>(lib, "eglGetProcAddress");
      a.get_display = Symbol<decltype(a.get_display)>(lib, "eglGetDisplay");
      a.initialize = Symbol<decltype(a.initialize)>(lib, "eglInitialize");
      a.choose_config = Symbol<decltype(a.choose_config)>(lib, "eglChooseConfig");
      a.bind_api = Symbol<decltype(a.bind_api)>(lib, "eglBindAPI");
      a.create_context = Symbol<decltype(a.create_context)>(lib, "eglCreateContext");
      a.make_current = Symbol<decltype(a.make_current)>(lib, "eglMakeCurrent");
      a.destroy_context = Symbol<decltype(a.destroy_context)>(lib, "eglDestroyContext");
      a.get_current_context = Symbol<decltype(a.get_current_context)>(lib, "eglGetCurrentContext");
      a.get_current_display = Symbol<decltype(a.get_current_display)>(lib, "eglGetCurrentDisplay");
      a.get_current_surface = Symbol<decltype(a.get_current_surface)>(lib, "eglGetCurrentSurface");
      return a;
    }();
    return api;
  }

  // An initialized display, picked as MuJoCo's and dm_control's Python
  // renderers pick theirs (so that frames and render() come from one GPU):
  // device MUJOCO_EGL_DEVICE_ID when it is set, else the first device whose
  // display initializes (EGL_EXT_platform_device); the default display last.
  Display OpenDisplay() const {
    using QueryDevices = unsigned (*)(int, void**, int*);
    using PlatformDisplay = Display (*)(unsigned, void*, const int*);
    auto query = reinterpret_cast<QueryDevices>(get_proc("eglQueryDevicesEXT"));
    auto platform = reinterpret_cast<PlatformDisplay>(get_proc("eglGetPlatformDisplayEXT"));
    void* devices[64];
    int count = 0;
    if (query == nullptr || platform == nullptr || !query(64, devices, &count)) count = 0;
    const char* chosen = std::getenv("MUJOCO_EGL_DEVICE_ID");
    int first = 0, last = count;
    if (chosen != nullptr && *chosen != '\0') {
      first = ParseDevice(chosen, count);
      last = first + 1;
    }
    int major = 0, minor = 0;
    for (int i = first; i < last; ++i) {
      Display d = platform(kPlatformDevice, devices[i], nullptr);
      if (d != nullptr && initialize(d, &major, &minor)) return d;
    }
    if (chosen != nullptr && *chosen != '\0') {
      throw std::runtime_error("EGL could not initialize device MUJOCO_EGL_DEVICE_ID=" +
                               std::string(chosen));
    }
    Display d = get_display(nullptr);
    return d != nullptr && initialize(d, &major, &minor) ? d : nullptr;
  }

 private:
  // MUJOCO_EGL_DEVICE_ID as an index among the `count` devices, or the error
  // mujoco's Python module gives.
  static int ParseDevice(const std::string& text, int count) {
    size_t used = 0;
    int index = -1;
    try {
      index = std::stoi(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || index < 0 || index >= count) {
      throw std::runtime_error("MUJOCO_EGL_DEVICE_ID must be an integer between 0 and " +
                               std::to_string(count - 1) + " (inclusive), got '" + text + "'");
    }
    return index;
  }
};

}  // namespace gl_detail

// One GL context per thread (GL contexts are per thread). The thread that
// waits in recv() steps envs too, and Python's renderers (gymnasium's,
// dm_control's) make their own contexts current on it: Current() makes ours
// current for a frame and gives the thread's previous one back after it.
class ThreadGlContext {
 public:
  // How a Current makes ours current: or throw, if it can (never throws),
  // or not at all (it only records the thread's context, to give it back).
  enum class Switch { kOrThrow, kIfPossible, kCaptureOnly };

  // Ours is current while this lives (see ours()); the previous context after.
  class Current {
   public:
    explicit Current(ThreadGlContext& gl, Switch how = Switch::kOrThrow) : gl_(gl) {
      gl_.Enter(*this, how);
    }
    ~Current() { gl_.Leave(*this); }
    Current(const Current&) = delete;
    Current& operator=(const Current&) = delete;
    // Whether our context is current (always, unless made with kIfPossible
    // or kCaptureOnly).
    bool ours() const { return ours_; }

   private:
    friend class ThreadGlContext;
    ThreadGlContext& gl_;
    bool ours_ = false;
    bool switched = false;
    void* context = nullptr;  // the previous context (OSMesa or EGL)
    void* display = nullptr;  // EGL
    void* draw = nullptr;     // EGL
    void* read = nullptr;     // EGL
    void* buffer = nullptr;   // OSMesa: the previous context's buffer
    int type = 0, width = 0, height = 0;
  };

  ThreadGlContext() : backend_(gl_detail::BackendFromEnvironment()) {
    Current previous(*this, Switch::kCaptureOnly);  // given back when made
    if (backend_ == gl_detail::GlBackend::kOsMesa) {
      MakeOsMesa();
    } else {
      MakeEgl();
    }
  }
  ~ThreadGlContext() {
    if (backend_ == gl_detail::GlBackend::kOsMesa) {
      const auto& api = gl_detail::OsMesaApi::Get();
      api.make_current(nullptr, nullptr, 0, 0, 0);
      api.destroy(context_);
    } else {
      const auto& api = gl_detail::EglApi::Get();
      api.make_current(display_, nullptr, nullptr, nullptr);
      api.destroy_context(display_, context_);
    }
  }
  ThreadGlContext(const ThreadGlContext&) = delete;
  ThreadGlContext& operator=(const ThreadGlContext&) = delete;

 private:
  // Records the thread's current context in `c` (to give back when `c`
  // ends) and, unless it is ours, makes ours current as `how` says.
  void Enter(Current& c, Switch how) {
    const bool osmesa = backend_ == gl_detail::GlBackend::kOsMesa;
    if (osmesa) {
      const auto& api = gl_detail::OsMesaApi::Get();
      c.context = api.get_current();
      if (c.context == context_ && context_ != nullptr) {
        c.ours_ = true;
        return;
      }
      if (c.context != nullptr) {
        int format = 0;
        api.get_integer(gl_detail::OsMesaApi::kType, &c.type);
        api.get_color_buffer(c.context, &c.width, &c.height, &format, &c.buffer);
      }
    } else {
      const auto& api = gl_detail::EglApi::Get();
      c.context = api.get_current_context();
      if (c.context == context_ && context_ != nullptr) {
        c.ours_ = true;
        return;
      }
      c.display = api.get_current_display();
      c.draw = api.get_current_surface(gl_detail::EglApi::kDraw);
      c.read = api.get_current_surface(gl_detail::EglApi::kRead);
    }
    c.switched = true;
    if (how == Switch::kCaptureOnly) return;
    c.ours_ = osmesa ? TryOsMesaCurrent() : TryEglCurrent();
    if (!c.ours_ && how == Switch::kOrThrow) {
      throw std::runtime_error(osmesa ? "OSMesa could not make its GL context current"
                                      : "EGL could not make its GL context current");
    }
  }

  void Leave(Current& c) {
    if (!c.switched || c.context == nullptr) return;
    if (backend_ == gl_detail::GlBackend::kOsMesa) {
      gl_detail::OsMesaApi::Get().make_current(c.context, c.buffer, c.type, c.width, c.height);
    } else {
      gl_detail::EglApi::Get().make_current(c.display, c.draw, c.read, c.context);
    }
  }

  bool TryOsMesaCurrent() {
    constexpr unsigned kUnsignedByte = 0x1401;
    return gl_detail::OsMesaApi::Get().make_current(context_, window_.data(), kUnsignedByte,
                                                    kWindowSide, kWindowSide) != 0;
  }

  bool TryEglCurrent() {
    return gl_detail::EglApi::Get().make_current(display_, nullptr, nullptr, context_) != 0;
  }

  void MakeOsMesaCurrent() {
    if (!TryOsMesaCurrent())
      throw std::runtime_error("OSMesa could not make its GL context current");
  }

  void MakeEglCurrent() {
    if (!TryEglCurrent()) throw std::runtime_error("EGL could not make its GL context current");
  }

  void MakeOsMesa() {
    constexpr unsigned kRgba = 0x1908;
    const auto& api = gl_detail::OsMesaApi::Get();
    context_ = api.create(kRgba, 24, 8, 0, nullptr);
    if (context_ == nullptr) throw std::runtime_error("OSMesa could not create a GL context");
    // MuJoCo draws into its own offscreen framebuffer; the context's default
    // buffer only has to exist.
    window_.assign(4 * kWindowSide * kWindowSide, 0);
    MakeOsMesaCurrent();
  }

  void MakeEgl() {
    const auto& api = gl_detail::EglApi::Get();
    display_ = api.OpenDisplay();
    if (display_ == nullptr) {
      throw std::runtime_error("EGL found no display to render on; " + gl_detail::GlHelp());
    }
    // RGBA 8 bits, depth 24, stencil 8, a pbuffer-capable desktop GL config.
    const int attributes[] = {0x3024,
                              8,
                              0x3023,
                              8,
                              0x3022,
                              8,
                              0x3021,
                              8,
                              0x3025,
                              24,
                              0x3026,
                              8,
                              0x3033,
                              0x0001,
                              0x3040,
                              0x0008,
                              gl_detail::EglApi::kNone};
    void* config = nullptr;
    int found = 0;
    if (!api.choose_config(display_, attributes, &config, 1, &found) || found < 1) {
      throw std::runtime_error("EGL has no RGBA config for desktop OpenGL; " + gl_detail::GlHelp());
    }
    if (!api.bind_api(gl_detail::EglApi::kOpenGlApi)) {
      throw std::runtime_error("EGL cannot bind the desktop OpenGL API");
    }
    context_ = api.create_context(display_, config, nullptr, nullptr);
    if (context_ == nullptr) throw std::runtime_error("EGL could not create a GL context");
    MakeEglCurrent();
  }

  static constexpr int kWindowSide = 16;
  gl_detail::GlBackend backend_;
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::vector<uint8_t> window_;
};

}  // namespace envpool_x

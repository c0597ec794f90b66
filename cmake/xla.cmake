# XLA's FFI headers for env.xla() (cpp/bindings/xla.cpp).
#
# The XLA FFI is a header-only C++ layer over a versioned C ABI: the custom
# calls compile against xla/ffi/api/*.h and link nothing of jaxlib, so JAX is
# needed at build time only for those three headers and at run time only by
# whoever calls env.xla(). They come from, in order:
#   1. ENVPOOL_X_XLA_INCLUDE (CMake variable or environment variable): a
#      folder holding xla/ffi/api/ffi.h, for offline builds;
#   2. the jaxlib that the building Python can import (builds with
#      --no-build-isolation, or with jaxlib in the build environment);
#   3. the wheel of the pinned jaxlib release, fetched with pip by package
#      name (from pip's cache when jaxlib was installed before) and kept in
#      the build folder; only the headers are unpacked.
# When none works the module is built without XLA support (a warning says
# why) and env.xla() raises an error saying how to get it.
#
# Defines: ENVPOOL_X_XLA_INCLUDE_DIR (empty when not found).

set(ENVPOOL_X_XLA_JAXLIB_VERSION "0.10.2" CACHE STRING
    "jaxlib release whose wheel provides XLA's FFI headers when no jaxlib is importable")

set(ENVPOOL_X_XLA_INCLUDE_DIR "")

function(_envpool_x_xla_check dir out)
  if(dir AND EXISTS "${dir}/xla/ffi/api/ffi.h")
    set(${out} "${dir}" PARENT_SCOPE)
  endif()
endfunction()

# 1. Given.
if(NOT ENVPOOL_X_XLA_INCLUDE AND DEFINED ENV{ENVPOOL_X_XLA_INCLUDE})
  set(ENVPOOL_X_XLA_INCLUDE "$ENV{ENVPOOL_X_XLA_INCLUDE}")
endif()
if(ENVPOOL_X_XLA_INCLUDE)
  _envpool_x_xla_check("${ENVPOOL_X_XLA_INCLUDE}" ENVPOOL_X_XLA_INCLUDE_DIR)
  if(NOT ENVPOOL_X_XLA_INCLUDE_DIR)
    message(FATAL_ERROR "envpool_x: ENVPOOL_X_XLA_INCLUDE=${ENVPOOL_X_XLA_INCLUDE} has no "
                        "xla/ffi/api/ffi.h (it should be what jax.ffi.include_dir() prints)")
  endif()
endif()

# 2. An importable jaxlib (found without importing it: that takes seconds).
if(NOT ENVPOOL_X_XLA_INCLUDE_DIR)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
            "import importlib.util, os; s = importlib.util.find_spec('jaxlib'); print(os.path.join(os.path.dirname(s.origin), 'include') if s and s.origin else '')"
    OUTPUT_VARIABLE _xla_found
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET)
  _envpool_x_xla_check("${_xla_found}" ENVPOOL_X_XLA_INCLUDE_DIR)
endif()

# 3. The pinned jaxlib wheel, fetched by name.
if(NOT ENVPOOL_X_XLA_INCLUDE_DIR)
  set(_xla_deps "${CMAKE_BINARY_DIR}/_deps/jaxlib-${ENVPOOL_X_XLA_JAXLIB_VERSION}")
  set(_xla_headers "${_xla_deps}/headers")
  _envpool_x_xla_check("${_xla_headers}/jaxlib/include" ENVPOOL_X_XLA_INCLUDE_DIR)
  if(NOT ENVPOOL_X_XLA_INCLUDE_DIR)
    file(GLOB _xla_wheel "${_xla_deps}/jaxlib-${ENVPOOL_X_XLA_JAXLIB_VERSION}-*.whl")
    if(NOT _xla_wheel)
      message(STATUS "envpool_x: fetching the jaxlib ${ENVPOOL_X_XLA_JAXLIB_VERSION} wheel "
                     "with pip for XLA's FFI headers")
      # This platform's wheel first (pip's cache has it when jaxlib was
      # installed); else any one: the headers are the same in every wheel.
      foreach(_platform_args IN ITEMS "" "--python-version;3.11;--platform;manylinux_2_27_x86_64")
        execute_process(
          COMMAND "${Python_EXECUTABLE}" -m pip download --no-deps --only-binary=:all:
                  ${_platform_args} -d "${_xla_deps}" "jaxlib==${ENVPOOL_X_XLA_JAXLIB_VERSION}"
          RESULT_VARIABLE _xla_rc
          OUTPUT_VARIABLE _xla_out
          ERROR_VARIABLE _xla_err)
        file(GLOB _xla_wheel "${_xla_deps}/jaxlib-${ENVPOOL_X_XLA_JAXLIB_VERSION}-*.whl")
        if(_xla_wheel)
          break()
        endif()
      endforeach()
    endif()
    if(_xla_wheel)
      list(GET _xla_wheel 0 _xla_wheel)
      file(ARCHIVE_EXTRACT INPUT "${_xla_wheel}" DESTINATION "${_xla_headers}"
           PATTERNS "jaxlib/include/xla/ffi/api/*")
      _envpool_x_xla_check("${_xla_headers}/jaxlib/include" ENVPOOL_X_XLA_INCLUDE_DIR)
    endif()
  endif()
  if(NOT ENVPOOL_X_XLA_INCLUDE_DIR)
    message(WARNING
      "envpool_x: XLA's FFI headers not found, building without env.xla(). "
      "pip said (exit ${_xla_rc}):\n${_xla_out}\n${_xla_err}\n"
      "To get env.xla(): install jax and rebuild with --no-build-isolation, or set "
      "ENVPOOL_X_XLA_INCLUDE to the folder that `python -c \"import jax.ffi; "
      "print(jax.ffi.include_dir())\"` prints. Silence this with -DENVPOOL_X_XLA=OFF.")
  endif()
endif()

if(ENVPOOL_X_XLA_INCLUDE_DIR)
  message(STATUS "envpool_x: XLA FFI headers ${ENVPOOL_X_XLA_INCLUDE_DIR}")
endif()

# Box2D 2.3's C++ for the Box2D family, built as a static library.
#
# The source is the sdist of the pinned box2d-py release (its Box2D/ folder holds
# Box2D 2.3's 45 .cpp files and headers, the same files as pybox2d 2.3.10, whose
# `box2d` wheel gymnasium[box2d] installs: see docs/box2d.md), fetched with pip
# by package name at configure time, or taken from ENVPOOL_X_BOX2D_SOURCE (an
# unpacked sdist, its Box2D/ folder's parent, or the .tar.gz) for offline
# builds. Nothing of Box2D is kept in the repository; the download, the
# unpacked tree and the objects live in the build folder.
#
# Defines: envpool_x_box2d (static library, PIC; include <Box2D/Box2D.h>) and
# ENVPOOL_X_BOX2D_INCLUDE_DIRS (its include path: the b2Settings.h copy first).

set(ENVPOOL_X_BOX2D_VERSION "2.3.8" CACHE STRING
    "box2d-py release whose sdist provides Box2D's C++")

set(_b2_deps "${CMAKE_BINARY_DIR}/_deps")

function(_envpool_x_unpack_box2d tarball dest)
  if(NOT EXISTS "${dest}/.unpacked")
    file(REMOVE_RECURSE "${dest}")
    file(MAKE_DIRECTORY "${dest}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${dest}")
    file(TOUCH "${dest}/.unpacked")
  endif()
  file(GLOB _top LIST_DIRECTORIES true "${dest}/box2d-py-*" "${dest}/box2d_py-*")
  if(NOT _top)
    message(FATAL_ERROR "envpool_x: ${tarball} does not contain a box2d-py-<version>/ folder")
  endif()
  list(GET _top 0 _top)
  set(ENVPOOL_X_BOX2D_SOURCE_DIR "${_top}" PARENT_SCOPE)
endfunction()

if(DEFINED ENV{ENVPOOL_X_BOX2D_SOURCE} AND NOT "$ENV{ENVPOOL_X_BOX2D_SOURCE}" STREQUAL "")
  set(_b2_input "$ENV{ENVPOOL_X_BOX2D_SOURCE}")
  if(IS_DIRECTORY "${_b2_input}")
    set(ENVPOOL_X_BOX2D_SOURCE_DIR "${_b2_input}")
  elseif(EXISTS "${_b2_input}")
    get_filename_component(_name "${_b2_input}" NAME)
    _envpool_x_unpack_box2d("${_b2_input}" "${_b2_deps}/local-${_name}")
  else()
    message(FATAL_ERROR "envpool_x: ENVPOOL_X_BOX2D_SOURCE=${_b2_input} does not exist")
  endif()
else()
  set(_b2_download "${_b2_deps}/box2d-py-${ENVPOOL_X_BOX2D_VERSION}-sdist")
  file(GLOB _tarball "${_b2_download}/box2d*py-${ENVPOOL_X_BOX2D_VERSION}.tar.gz")
  if(NOT _tarball)
    message(STATUS "envpool_x: downloading the box2d-py ${ENVPOOL_X_BOX2D_VERSION} sdist with pip")
    # pip reads the sdist's metadata with setuptools from this Python (build
    # isolation would need setuptools as an sdist too, because of --no-binary).
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-deps --no-binary :all:
              --no-build-isolation -d "${_b2_download}" "box2d-py==${ENVPOOL_X_BOX2D_VERSION}"
      RESULT_VARIABLE _rc
      OUTPUT_VARIABLE _out
      ERROR_VARIABLE _err)
    file(GLOB _tarball "${_b2_download}/box2d*py-${ENVPOOL_X_BOX2D_VERSION}.tar.gz")
    if(NOT _rc EQUAL 0 OR NOT _tarball)
      message(FATAL_ERROR
        "envpool_x: could not download the box2d-py ${ENVPOOL_X_BOX2D_VERSION} source distribution "
        "(pip exit ${_rc}; it needs setuptools in ${Python_EXECUTABLE}):\n${_out}\n${_err}\n"
        "Offline: set ENVPOOL_X_BOX2D_SOURCE to an unpacked box2d-py sdist or its .tar.gz; "
        "or build without Box2D with -DENVPOOL_X_BOX2D=OFF "
        "(pip: --config-settings=cmake.define.ENVPOOL_X_BOX2D=OFF).")
    endif()
  endif()
  list(GET _tarball 0 _tarball)
  _envpool_x_unpack_box2d("${_tarball}" "${_b2_deps}/box2d-py-${ENVPOOL_X_BOX2D_VERSION}-src")
endif()

if(NOT EXISTS "${ENVPOOL_X_BOX2D_SOURCE_DIR}/Box2D/Dynamics/b2World.cpp")
  message(FATAL_ERROR "envpool_x: ${ENVPOOL_X_BOX2D_SOURCE_DIR} is not a box2d-py source tree "
                      "(no Box2D/Dynamics/b2World.cpp)")
endif()
message(STATUS "envpool_x: Box2D source ${ENVPOOL_X_BOX2D_SOURCE_DIR}")

file(GLOB_RECURSE _b2_sources "${ENVPOOL_X_BOX2D_SOURCE_DIR}/Box2D/*.cpp")
list(LENGTH _b2_sources _n)
if(NOT _n EQUAL 45)
  message(FATAL_ERROR "envpool_x: expected Box2D 2.3's 45 .cpp files under "
                      "${ENVPOOL_X_BOX2D_SOURCE_DIR}/Box2D, found ${_n}")
endif()
# pybox2d's b2Settings.h makes b2Assert set a Python exception (PyErr_SetString,
# which needs the GIL that our worker threads do not hold) and throw. A copy in
# the build folder, found first on the include path (the sources include
# <Box2D/...> only), throws a std::logic_error instead, which the pool reports
# as the env's error. Nothing else changes: b2Assert only checks.
set(_b2_override "${CMAKE_BINARY_DIR}/box2d_override")
file(READ "${ENVPOOL_X_BOX2D_SOURCE_DIR}/Box2D/Common/b2Settings.h" _settings)
string(FIND "${_settings}" "#define USE_EXCEPTIONS" _at)
if(_at EQUAL -1)
  message(FATAL_ERROR "envpool_x: ${ENVPOOL_X_BOX2D_SOURCE_DIR}/Box2D/Common/b2Settings.h "
                      "is not box2d-py's (no USE_EXCEPTIONS)")
endif()
string(REPLACE "#define USE_EXCEPTIONS" "" _settings "${_settings}")
string(REPLACE "#define b2Assert(A) assert(A)" [=[#include <stdexcept>
#define b2Assert(A) if (!(A)) { throw std::logic_error("Box2D assertion failed: " #A); }]=]
       _settings "${_settings}")
# Rewritten only when it changes, so a reconfigure does not recompile Box2D.
file(WRITE "${_b2_override}/b2Settings.h.new" "${_settings}")
configure_file("${_b2_override}/b2Settings.h.new" "${_b2_override}/Box2D/Common/b2Settings.h"
               COPYONLY)

add_library(envpool_x_box2d STATIC ${_b2_sources})
set_target_properties(envpool_x_box2d PROPERTIES POSITION_INDEPENDENT_CODE ON)
# The sources include <Box2D/...> from the sdist's root.
set(ENVPOOL_X_BOX2D_INCLUDE_DIRS "${_b2_override}" "${ENVPOOL_X_BOX2D_SOURCE_DIR}")
# PRIVATE: the module adds them to the one file that includes Box2D.
target_include_directories(envpool_x_box2d SYSTEM BEFORE PRIVATE ${ENVPOOL_X_BOX2D_INCLUDE_DIRS})
# Plain IEEE float: no FMA contraction, no fast-math, so that Box2D computes
# what the gymnasium wheel's build (GCC, -O3, x86-64 SSE2) computes.
target_compile_options(envpool_x_box2d PRIVATE -O3 -ffp-contract=off -w)

# Box2D 2.3's C++ for the Box2D family, built as a static library.
#
# The source is the sdist of the pinned box2d-py release (its Box2D/ folder holds
# Box2D 2.3's 45 .cpp files and headers, the same files as pybox2d 2.3.10, whose
# `box2d` wheel gymnasium[box2d] installs: see docs/box2d.md), fetched with pip
# by package name at configure time, or taken from ENVPOOL_X_BOX2D_SOURCE (an
# unpacked sdist, its Box2D/ folder's parent, or the .tar.gz) for offline
# builds (cmake/sdist.cmake). Nothing of Box2D is kept in the repository.
#
# Defines: envpool_x_box2d (static library, PIC; include <Box2D/Box2D.h>) and
# ENVPOOL_X_BOX2D_INCLUDE_DIRS (its include path: the b2Settings.h copy first).

set(ENVPOOL_X_BOX2D_VERSION "2.3.8" CACHE STRING
    "box2d-py release whose sdist provides Box2D's C++")

include(cmake/sdist.cmake)
# pip reads box2d-py's sdist metadata with setuptools, whose bdist_wheel command
# (setuptools >= 70.1, or the wheel package) a fresh venv's setuptools 65 lacks.
string(CONCAT _b2_check "import importlib.util as u, sys; "
       "sys.exit(not (u.find_spec('wheel') or u.find_spec('setuptools.command.bdist_wheel')))")
envpool_x_fetch_sdist(box2d-py "${ENVPOOL_X_BOX2D_VERSION}" ENVPOOL_X_BOX2D_SOURCE ENVPOOL_X_BOX2D
                      "${_b2_check}"
                      "${Python_EXECUTABLE} -m pip install 'setuptools>=70.1'"
                      ENVPOOL_X_BOX2D_SOURCE_DIR)

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

# ALE's C++ core for the Atari family, built as a static library.
#
# The source is the sdist of the pinned ale-py release (the same version the
# runtime ROMs come from), fetched with pip by package name at configure time,
# or taken from ENVPOOL_X_ALE_SOURCE (an unpacked source tree or a tarball) for
# offline builds (cmake/sdist.cmake). Nothing of ALE is kept in the repository.
#
# Defines: envpool_x_ale (static library, PIC), ENVPOOL_X_ALE_SOURCE_DIR and
# ENVPOOL_X_ATARI_ROMS (the ROM ids the sdist ships, e.g. "pong;breakout").

set(ENVPOOL_X_ALE_VERSION "0.12.1" CACHE STRING
    "ale-py release whose sdist provides ALE's C++ (keep equal to the runtime pin)")

include(cmake/sdist.cmake)
# pip reads ale-py's sdist metadata with its build backend, scikit-build-core;
# pip's own build environment has it, a plain CMake build needs it installed.
envpool_x_fetch_sdist(ale-py "${ENVPOOL_X_ALE_VERSION}" ENVPOOL_X_ALE_SOURCE ENVPOOL_X_ATARI
                      "import scikit_build_core"
                      "${Python_EXECUTABLE} -m pip install 'scikit-build-core>=0.10'"
                      ENVPOOL_X_ALE_SOURCE_DIR)

if(NOT EXISTS "${ENVPOOL_X_ALE_SOURCE_DIR}/src/ale/ale_interface.cpp")
  message(FATAL_ERROR "envpool_x: ${ENVPOOL_X_ALE_SOURCE_DIR} is not an ALE source tree "
                      "(no src/ale/ale_interface.cpp)")
endif()
message(STATUS "envpool_x: ALE source ${ENVPOOL_X_ALE_SOURCE_DIR}")

# ALE's own options: only its emulator core (the `ale` object library); no SDL,
# no Python bindings, no vector env, and no install rules of its own (those
# come with BUILD_CPP_LIB and would put ALE's headers into our wheel). Its
# ale_interface.cpp is compiled below instead.
set(BUILD_CPP_LIB OFF)
set(BUILD_PYTHON_LIB OFF)
set(SDL_SUPPORT OFF)
set(BUILD_VECTOR_LIB OFF)
set(BUILD_VECTOR_XLA_LIB OFF)
set(BUILD_WASM_LIB OFF)
add_subdirectory("${ENVPOOL_X_ALE_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/ale" EXCLUDE_FROM_ALL SYSTEM)
# ALE turns on link-time optimisation; a static library of LTO objects would
# re-run ALE's code generation at every link of our module.
set_property(TARGET ale PROPERTY INTERPROCEDURAL_OPTIMIZATION OFF)
# ALE's own warnings are not ours to fix.
target_compile_options(ale PRIVATE -w)

find_package(ZLIB REQUIRED)
add_library(envpool_x_ale STATIC "${ENVPOOL_X_ALE_SOURCE_DIR}/src/ale/ale_interface.cpp")
set_target_properties(envpool_x_ale PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_STANDARD 17)
target_include_directories(envpool_x_ale SYSTEM PUBLIC
  "${ENVPOOL_X_ALE_SOURCE_DIR}/src"
  "${ENVPOOL_X_ALE_SOURCE_DIR}/src/ale"
  "${CMAKE_BINARY_DIR}/ale/src/ale")
target_compile_options(envpool_x_ale PRIVATE -O3 -w)
target_link_libraries(envpool_x_ale PUBLIC ale ZLIB::ZLIB Threads::Threads)

# The ROM ids of this ALE release: the sdist ships the same ROMs as the wheel.
file(GLOB _roms RELATIVE "${ENVPOOL_X_ALE_SOURCE_DIR}/src/ale/python/roms"
     "${ENVPOOL_X_ALE_SOURCE_DIR}/src/ale/python/roms/*.bin")
set(ENVPOOL_X_ATARI_ROMS "")
foreach(_rom IN LISTS _roms)
  string(REGEX REPLACE "\\.bin$" "" _rom "${_rom}")
  list(APPEND ENVPOOL_X_ATARI_ROMS "${_rom}")
endforeach()
list(SORT ENVPOOL_X_ATARI_ROMS)
list(LENGTH ENVPOOL_X_ATARI_ROMS _n)
if(_n EQUAL 0)
  message(FATAL_ERROR "envpool_x: no ROMs listed under "
                      "${ENVPOOL_X_ALE_SOURCE_DIR}/src/ale/python/roms (is this an ale-py sdist?)")
endif()
message(STATUS "envpool_x: ${_n} Atari ROM ids")

# Compiled into the module (envpool_x._core.atari_rom_ids()), so that Python
# registers <Game>-v5 ids without importing ale_py.
set(_inc "")
foreach(_rom IN LISTS ENVPOOL_X_ATARI_ROMS)
  string(APPEND _inc "\"${_rom}\",\n")
endforeach()
file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/generated/atari_rom_ids.inc" CONTENT "${_inc}")
set(ENVPOOL_X_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")

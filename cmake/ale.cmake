# ALE's C++ core for the Atari family, built as a static library.
#
# The source is the sdist of the pinned ale-py release (the same version the
# runtime ROMs come from), fetched with pip by package name at configure time,
# or taken from ENVPOOL_X_ALE_SOURCE (an unpacked source tree or a tarball) for
# offline builds. Nothing of ALE is kept in the repository. The download, the
# unpacked tree and the objects live in the build folder, so a rebuild in the
# same folder neither fetches nor recompiles ALE.
#
# Defines: envpool_x_ale (static library, PIC), ENVPOOL_X_ALE_SOURCE_DIR and
# ENVPOOL_X_ATARI_ROMS (the ROM ids the sdist ships, e.g. "pong;breakout").

set(ENVPOOL_X_ALE_VERSION "0.12.1" CACHE STRING
    "ale-py release whose sdist provides ALE's C++ (keep equal to the runtime pin)")

set(_ale_deps "${CMAKE_BINARY_DIR}/_deps")
set(_ale_unpacked "${_ale_deps}/ale-py-${ENVPOOL_X_ALE_VERSION}-src")

function(_envpool_x_unpack_ale tarball dest)
  if(NOT EXISTS "${dest}/.unpacked")
    file(REMOVE_RECURSE "${dest}")
    file(MAKE_DIRECTORY "${dest}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${dest}")
    file(TOUCH "${dest}/.unpacked")
  endif()
  file(GLOB _top LIST_DIRECTORIES true "${dest}/ale_py-*" "${dest}/ale-py-*")
  if(NOT _top)
    message(FATAL_ERROR "envpool_x: ${tarball} does not contain an ale_py-<version>/ folder")
  endif()
  list(GET _top 0 _top)
  set(ENVPOOL_X_ALE_SOURCE_DIR "${_top}" PARENT_SCOPE)
endfunction()

if(DEFINED ENV{ENVPOOL_X_ALE_SOURCE} AND NOT "$ENV{ENVPOOL_X_ALE_SOURCE}" STREQUAL "")
  set(_ale_input "$ENV{ENVPOOL_X_ALE_SOURCE}")
  if(IS_DIRECTORY "${_ale_input}")
    set(ENVPOOL_X_ALE_SOURCE_DIR "${_ale_input}")
  elseif(EXISTS "${_ale_input}")
    get_filename_component(_name "${_ale_input}" NAME)
    _envpool_x_unpack_ale("${_ale_input}" "${_ale_deps}/local-${_name}")
  else()
    message(FATAL_ERROR "envpool_x: ENVPOOL_X_ALE_SOURCE=${_ale_input} does not exist")
  endif()
else()
  set(_ale_download "${_ale_deps}/ale-py-${ENVPOOL_X_ALE_VERSION}-sdist")
  file(GLOB _tarball "${_ale_download}/ale_py-${ENVPOOL_X_ALE_VERSION}.tar.gz")
  if(NOT _tarball)
    message(STATUS "envpool_x: downloading the ale-py ${ENVPOOL_X_ALE_VERSION} sdist with pip")
    # pip reads the sdist's metadata with ale-py's build backend, taken from this
    # Python (build isolation would need every build dependency as an sdist too,
    # because of --no-binary). pip's own build environment has it; a plain CMake
    # build needs it installed.
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -c "import scikit_build_core"
      RESULT_VARIABLE _has_backend OUTPUT_QUIET ERROR_QUIET)
    if(NOT _has_backend EQUAL 0)
      message(FATAL_ERROR
        "envpool_x: fetching the ale-py sdist needs scikit-build-core in ${Python_EXECUTABLE} "
        "(ale-py's build backend, which pip uses to read the sdist): "
        "${Python_EXECUTABLE} -m pip install 'scikit-build-core>=0.10'. "
        "Or set ENVPOOL_X_ALE_SOURCE to an unpacked ale-py sdist or its .tar.gz, "
        "or configure with -DENVPOOL_X_ATARI=OFF.")
    endif()
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-deps --no-binary :all:
              --no-build-isolation -d "${_ale_download}" "ale-py==${ENVPOOL_X_ALE_VERSION}"
      RESULT_VARIABLE _rc
      OUTPUT_VARIABLE _out
      ERROR_VARIABLE _err)
    file(GLOB _tarball "${_ale_download}/ale_py-${ENVPOOL_X_ALE_VERSION}.tar.gz")
    if(NOT _rc EQUAL 0 OR NOT _tarball)
      message(FATAL_ERROR
        "envpool_x: could not download the ale-py ${ENVPOOL_X_ALE_VERSION} source distribution "
        "(pip exit ${_rc}):\n${_out}\n${_err}\n"
        "Offline: set ENVPOOL_X_ALE_SOURCE to an unpacked ale-py sdist or its .tar.gz; "
        "or build without Atari with -DENVPOOL_X_ATARI=OFF "
        "(pip: --config-settings=cmake.define.ENVPOOL_X_ATARI=OFF).")
    endif()
  endif()
  list(GET _tarball 0 _tarball)
  _envpool_x_unpack_ale("${_tarball}" "${_ale_unpacked}")
endif()

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

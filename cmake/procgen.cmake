# Procgen's compiled engine for the Procgen family, loaded at run time.
#
# PyPI has no procgen source distribution; its wheels carry the engine as a
# self-contained C library (procgen/data/prebuilt/libenv.so, gym3's libenv C
# API, Qt linked in; it needs only libc, libm, libz, libstdc++ and glib) and
# its sprites (procgen/data/assets). The library does not depend on the Python
# version, so the CPython 3.10 manylinux wheel of the pinned release is
# fetched with pip by name, whatever Python builds us, or taken from
# ENVPOOL_X_PROCGEN_WHEEL (the .whl, or a folder holding an unpacked wheel)
# for offline builds. Nothing of procgen is kept in the repository.
#
# Defines: ENVPOOL_X_PROCGEN_DIR (the wheel's procgen/data: prebuilt/libenv.so
# and assets/, the layout installed as envpool_x/procgen_data).

set(ENVPOOL_X_PROCGEN_VERSION "0.10.7" CACHE STRING "procgen release whose wheel provides libenv.so")

set(_pg_out "${CMAKE_BINARY_DIR}/_deps/procgen-${ENVPOOL_X_PROCGEN_VERSION}")
set(_pg_offline
    "Offline: set ENVPOOL_X_PROCGEN_WHEEL to the procgen ${ENVPOOL_X_PROCGEN_VERSION} "
    "manylinux wheel (pip download procgen==${ENVPOOL_X_PROCGEN_VERSION} --python-version 3.10 "
    "--only-binary=:all: --no-deps) or an unpacked copy, or build without the family with "
    "-DENVPOOL_X_PROCGEN=OFF (pip: --config-settings=cmake.define.ENVPOOL_X_PROCGEN=OFF).")

if(DEFINED ENV{ENVPOOL_X_PROCGEN_WHEEL} AND NOT "$ENV{ENVPOOL_X_PROCGEN_WHEEL}" STREQUAL "")
  set(_pg_input "$ENV{ENVPOOL_X_PROCGEN_WHEEL}")
  if(NOT EXISTS "${_pg_input}")
    message(FATAL_ERROR "envpool_x: ENVPOOL_X_PROCGEN_WHEEL=${_pg_input} does not exist. " ${_pg_offline})
  endif()
else()
  file(GLOB _pg_input "${_pg_out}-wheel/procgen-${ENVPOOL_X_PROCGEN_VERSION}-*.whl")
  if(NOT _pg_input)
    message(STATUS "envpool_x: downloading the procgen ${ENVPOOL_X_PROCGEN_VERSION} wheel with pip")
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-deps --only-binary=:all:
              --python-version 3.10 --platform manylinux2014_x86_64
              -d "${_pg_out}-wheel" "procgen==${ENVPOOL_X_PROCGEN_VERSION}"
      RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    file(GLOB _pg_input "${_pg_out}-wheel/procgen-${ENVPOOL_X_PROCGEN_VERSION}-*.whl")
    if(NOT _rc EQUAL 0 OR NOT _pg_input)
      message(FATAL_ERROR "envpool_x: could not download the procgen "
                          "${ENVPOOL_X_PROCGEN_VERSION} wheel (pip exit ${_rc}):\n${_out}\n${_err}\n"
                          ${_pg_offline})
    endif()
  endif()
  list(GET _pg_input 0 _pg_input)
endif()

# A wheel is a zip: unpack it once into the build folder.
if(IS_DIRECTORY "${_pg_input}")
  set(_pg_tree "${_pg_input}")
else()
  set(_pg_tree "${_pg_out}-unpacked")
  if(NOT EXISTS "${_pg_tree}/.unpacked")
    file(REMOVE_RECURSE "${_pg_tree}")
    file(ARCHIVE_EXTRACT INPUT "${_pg_input}" DESTINATION "${_pg_tree}"
         PATTERNS "procgen/data/*")
    file(TOUCH "${_pg_tree}/.unpacked")
  endif()
endif()
set(ENVPOOL_X_PROCGEN_DIR "${_pg_tree}/procgen/data")
if(NOT EXISTS "${ENVPOOL_X_PROCGEN_DIR}/prebuilt/libenv.so"
   OR NOT IS_DIRECTORY "${ENVPOOL_X_PROCGEN_DIR}/assets")
  message(FATAL_ERROR "envpool_x: ${_pg_input} holds no procgen/data/prebuilt/libenv.so and "
                      "procgen/data/assets (is it a procgen manylinux wheel?). " ${_pg_offline})
endif()
message(STATUS "envpool_x: procgen library ${ENVPOOL_X_PROCGEN_DIR}/prebuilt/libenv.so")

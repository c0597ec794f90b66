# Finds MuJoCo in the mujoco Python wheel of the interpreter that builds us
# (pyproject.toml pins it as a build requirement): <pkg>/include/mujoco/*.h
# and <pkg>/libmujoco.so.<version>. Defines the imported target
# envpool_x_mujoco and ENVPOOL_X_MUJOCO_DIR.
set(ENVPOOL_X_MUJOCO_VERSION "3.17.0")

execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import importlib.util, os; s = importlib.util.find_spec('mujoco'); print(os.path.dirname(s.origin) if s else '')"
  OUTPUT_VARIABLE ENVPOOL_X_MUJOCO_DIR
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _mujoco_rc)
if(NOT _mujoco_rc EQUAL 0 OR ENVPOOL_X_MUJOCO_DIR STREQUAL "")
  message(FATAL_ERROR
    "ENVPOOL_X_MUJOCO is ON but the Python that builds envpool_x has no mujoco package: "
    "pip install mujoco==${ENVPOOL_X_MUJOCO_VERSION} (or build with "
    "-C cmake.define.ENVPOOL_X_MUJOCO=OFF)")
endif()
set(_mujoco_lib "${ENVPOOL_X_MUJOCO_DIR}/libmujoco.so.${ENVPOOL_X_MUJOCO_VERSION}")
if(NOT EXISTS "${_mujoco_lib}" OR NOT EXISTS "${ENVPOOL_X_MUJOCO_DIR}/include/mujoco/mujoco.h")
  message(FATAL_ERROR
    "mujoco at ${ENVPOOL_X_MUJOCO_DIR} is not release ${ENVPOOL_X_MUJOCO_VERSION} (no "
    "libmujoco.so.${ENVPOOL_X_MUJOCO_VERSION} or include/mujoco): "
    "pip install mujoco==${ENVPOOL_X_MUJOCO_VERSION}")
endif()
message(STATUS "envpool_x: MuJoCo ${ENVPOOL_X_MUJOCO_VERSION} from ${ENVPOOL_X_MUJOCO_DIR}")

add_library(envpool_x_mujoco SHARED IMPORTED)
set_target_properties(envpool_x_mujoco PROPERTIES
  IMPORTED_LOCATION "${_mujoco_lib}"
  IMPORTED_SONAME "libmujoco.so.${ENVPOOL_X_MUJOCO_VERSION}"
  INTERFACE_INCLUDE_DIRECTORIES "${ENVPOOL_X_MUJOCO_DIR}/include")

# Third-party C++ from a package registry's source distribution, the way the
# Atari family takes ALE from ale-py's sdist and the Box2D family Box2D from
# box2d-py's (cmake/ale.cmake, cmake/box2d.cmake). Nothing third-party is kept
# in the repository: the download, the unpacked tree and the objects live in
# the build folder, so a rebuild in the same folder neither fetches nor
# recompiles them.
#
# envpool_x_fetch_sdist(<package> <version> <env var> <option> <check> <hint> <out var>)
#   Sets <out var> (in the caller's scope) to the sdist's top folder
#   (<package>-<version>/, with '-' or '_' in the name). The source is, in order:
#   - $ENV{<env var>}: an unpacked source tree, or the sdist's .tar.gz (offline
#     builds);
#   - else `python -m pip download --no-binary :all:` of <package>==<version>.
#     pip reads the sdist's metadata with the package's build backend, taken
#     from this Python (build isolation would need every build dependency as an
#     sdist too, because of --no-binary). <check> is Python code that fails
#     when that backend is missing, <hint> the pip command that installs it.
#   A failure names <env var> and the CMake <option> that builds without the
#   family.

function(_envpool_x_unpack_sdist tarball dest package out_var)
  if(NOT EXISTS "${dest}/.unpacked")
    file(REMOVE_RECURSE "${dest}")
    file(MAKE_DIRECTORY "${dest}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${dest}")
    file(TOUCH "${dest}/.unpacked")
  endif()
  string(REPLACE "-" "_" _underscored "${package}")
  file(GLOB _top LIST_DIRECTORIES true "${dest}/${package}-*" "${dest}/${_underscored}-*")
  if(NOT _top)
    message(FATAL_ERROR "envpool_x: ${tarball} does not contain a ${package}-<version>/ folder")
  endif()
  list(GET _top 0 _top)
  set(${out_var} "${_top}" PARENT_SCOPE)
endfunction()

function(envpool_x_fetch_sdist package version env_var option check hint out_var)
  set(_deps "${CMAKE_BINARY_DIR}/_deps")
  set(_offline
      "Offline: set ${env_var} to an unpacked ${package} sdist or its .tar.gz, or build "
      "without the family with -D${option}=OFF (pip: --config-settings=cmake.define.${option}=OFF).")
  if(DEFINED ENV{${env_var}} AND NOT "$ENV{${env_var}}" STREQUAL "")
    set(_input "$ENV{${env_var}}")
    if(IS_DIRECTORY "${_input}")
      set(${out_var} "${_input}" PARENT_SCOPE)
      return()
    elseif(NOT EXISTS "${_input}")
      message(FATAL_ERROR "envpool_x: ${env_var}=${_input} does not exist")
    endif()
    get_filename_component(_name "${_input}" NAME)
    _envpool_x_unpack_sdist("${_input}" "${_deps}/local-${_name}" "${package}" _top)
    set(${out_var} "${_top}" PARENT_SCOPE)
    return()
  endif()
  set(_download "${_deps}/${package}-${version}-sdist")
  string(REPLACE "-" "?" _pattern "${package}")  # the file may say box2d_py or box2d-py
  file(GLOB _tarball "${_download}/${_pattern}-${version}.tar.gz")
  if(NOT _tarball)
    message(STATUS "envpool_x: downloading the ${package} ${version} sdist with pip")
    execute_process(COMMAND "${Python_EXECUTABLE}" -c "${check}"
                    RESULT_VARIABLE _has_backend OUTPUT_QUIET ERROR_QUIET)
    if(NOT _has_backend EQUAL 0)
      message(FATAL_ERROR
        "envpool_x: fetching the ${package} sdist needs its build backend in "
        "${Python_EXECUTABLE} (pip reads the sdist's metadata with it): ${hint}. " ${_offline})
    endif()
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-deps --no-binary :all:
              --no-build-isolation -d "${_download}" "${package}==${version}"
      RESULT_VARIABLE _rc
      OUTPUT_VARIABLE _out
      ERROR_VARIABLE _err)
    file(GLOB _tarball "${_download}/${_pattern}-${version}.tar.gz")
    if(NOT _rc EQUAL 0 OR NOT _tarball)
      message(FATAL_ERROR
        "envpool_x: could not download the ${package} ${version} source distribution "
        "(pip exit ${_rc}):\n"
        "${_out}\n${_err}\n" ${_offline})
    endif()
  endif()
  list(GET _tarball 0 _tarball)
  _envpool_x_unpack_sdist("${_tarball}" "${_deps}/${package}-${version}-src" "${package}" _top)
  set(${out_var} "${_top}" PARENT_SCOPE)
endfunction()

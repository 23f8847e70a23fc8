# FakehostTests.cmake: one CTest test per fakehost scenario, for a plugin built in your project.
# Copy this file into your project (it is self-contained) and:
#
#   include(cmake/FakehostTests.cmake)
#   fakehost_add_tests(
#     PLUGIN_DIR <dir> | PLUGIN_TARGET <target>
#     PROTOCOL <rim-v1 | flash-v1>
#     [FAKEHOST <path>]             default: this project's `fakehost` target if it has one, else
#                                   `fakehost` on PATH (the .deb puts it in /usr/bin)
#     [SUITE <dir>]                 default: the suite installed with fakehost
#     [ONLY <glob>...]              register only the scenarios these globs select (--only)
#     [NAME_PREFIX <prefix>]        default: fakehost.<protocol>.
#     [PROPERTIES <name> <value>...] set on every test (LABELS, TIMEOUT, WILL_FAIL, ...)
#     [ARGS <arg>...])              more `fakehost run` flags (--env K=V, --config FILE, ...)
#
# PLUGIN_DIR is a plugin directory (its manifest, its fakehost.yaml): `fakehost run --plugin
# DIR`. PLUGIN_TARGET is an executable target run bare: `fakehost run -- $<TARGET_FILE:target>`
# (give --plugin-id and --config in ARGS); manifest/loads-in-host is not registered then. Either
# may be a generator expression.
#
# The scenarios are listed when ctest starts (`fakehost list`, like gtest_discover_tests in
# PRE_TEST mode), so fakehost may itself be built by the project, and a scenario added to the
# suite needs no re-configure. Test `<prefix><scenario id>` runs
#   fakehost run --protocol P <plugin> --only <id> --strict --out <build dir>/fakehost-tests/...
# and its result is mapped from fakehost's exit code and report.json:
#   exit 0                                   passed
#   exit 1, the scenario not applicable      skipped ("fakehost-test: SKIPPED ...", matched by
#     (skip) or untested (a trigger missing  SKIP_REGULAR_EXPRESSION: ctest lists it as skipped
#     from fakehost.yaml)                    and does not fail); untested fails under
#                                            --fail-untested in ARGS
#   exit 1, the scenario passed              passed (manifest/loads-in-host alone: fakehost does
#                                            not count the manifest as a check of the protocol)
#   exit 1 otherwise                         failed (a must miss, or a should miss: --strict)
#   exit 2 (bad input), 3 (harness error)    failed
# The report of each test stays in its --out directory. A fakehost (or PLUGIN_TARGET) not built
# yet is one failing test `<prefix><program>_NOT_BUILT`; a suite fakehost cannot list is one
# failing test `<prefix>LIST_FAILED` that shows why.
#
# The same file also runs as the discovery step (included by ctest) and as each test's wrapper
# (cmake -P); FAKEHOST_TEST_MODE says which. Needs CMake 3.19 (string(JSON)), single-config
# generators.
if(CMAKE_VERSION VERSION_LESS 3.19)
  message(FATAL_ERROR "FakehostTests.cmake needs CMake 3.19 or newer")
endif()

if(FAKEHOST_TEST_MODE STREQUAL "run")
  # cmake -DFAKEHOST_TEST_MODE=run -DFAKEHOST_TEST_ID=<id> -DFAKEHOST_TEST_OUT=<dir>
  #       [-DFAKEHOST_TEST_FAIL_UNTESTED=ON] -P FakehostTests.cmake -- <fakehost> run ...
  set(command "")
  set(after_dashes OFF)
  math(EXPR last "${CMAKE_ARGC} - 1")
  foreach(i RANGE ${last})
    if(after_dashes)
      list(APPEND command "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
      set(after_dashes ON)
    endif()
  endforeach()
  file(REMOVE_RECURSE "${FAKEHOST_TEST_OUT}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc)
  if(rc STREQUAL "0")
    return()
  endif()
  if(NOT rc STREQUAL "1")
    message(FATAL_ERROR "fakehost-test: fakehost exited with ${rc} (2: bad input, 3: harness error)")
  endif()
  set(report "${FAKEHOST_TEST_OUT}/report.json")
  if(NOT EXISTS "${report}")
    message(FATAL_ERROR "fakehost-test: fakehost exited with 1 and wrote no ${report}")
  endif()
  file(READ "${report}" json)
  string(JSON failed GET "${json}" summary failed)
  string(JSON errored GET "${json}" summary errored)
  string(JSON count LENGTH "${json}" scenarios)
  set(status "")
  set(reason "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON id GET "${json}" scenarios ${i} id)
      if(id STREQUAL FAKEHOST_TEST_ID)
        string(JSON status GET "${json}" scenarios ${i} status)
        string(JSON reason ERROR_VARIABLE no_reason GET "${json}" scenarios ${i} reason)
      endif()
    endforeach()
  endif()
  if(failed EQUAL 0 AND errored EQUAL 0)
    string(REGEX REPLACE "\n.*" "" reason "${reason}")  # the first line: ctest shows the rest
    if(status STREQUAL "skip" OR (status STREQUAL "untested" AND NOT FAKEHOST_TEST_FAIL_UNTESTED))
      message("fakehost-test: SKIPPED ${FAKEHOST_TEST_ID}: ${status} ${reason}")
      return()
    endif()
    if(status STREQUAL "pass" OR status STREQUAL "warn")
      return()
    endif()
  endif()
  message(FATAL_ERROR "fakehost-test: ${FAKEHOST_TEST_ID}: ${status} (report: ${report})")
endif()

if(FAKEHOST_TEST_MODE STREQUAL "discover")
  # Included by ctest from the file fakehost_add_tests generated, which set the _fh_* variables.
  # A program not built yet is one failing test named like gtest_discover_tests' placeholders.
  set(plugin_program "")
  if(_fh_bare)
    list(GET _fh_plugin_argv -1 plugin_program)
  endif()
  foreach(program IN ITEMS "${_fh_fakehost}" "${plugin_program}")
    if(program AND NOT EXISTS "${program}")
      get_filename_component(program_name "${program}" NAME)
      add_test("${_fh_prefix}${program_name}_NOT_BUILT" "${program}")
      return()
    endif()
  endforeach()
  set(list_command "${_fh_fakehost}" list --protocol "${_fh_protocol}")
  if(_fh_suite)
    list(APPEND list_command --suite "${_fh_suite}")
  endif()
  foreach(glob IN LISTS _fh_only)
    list(APPEND list_command --only "${glob}")
  endforeach()
  execute_process(COMMAND ${list_command} OUTPUT_VARIABLE listed RESULT_VARIABLE rc
                  ERROR_QUIET)
  if(NOT rc STREQUAL "0")
    # The failing listing itself becomes the test, so its message shows in ctest's output.
    add_test("${_fh_prefix}LIST_FAILED" ${list_command})
    return()
  endif()
  # `fakehost list` prints "<id>  [<level>] <spec> — <title>" per scenario.
  # Each line is cut to its id before the text becomes a list, so that no ';' or '[' of a title
  # can split or join list items.
  string(REGEX REPLACE "([^ \n]+)  \\[[^\n]*" "\\1" ids "${listed}")
  string(STRIP "${ids}" ids)
  string(REPLACE "\n" ";" ids "${ids}")
  foreach(id IN LISTS ids)
    if(id STREQUAL "manifest/loads-in-host" AND _fh_bare)
      continue()
    endif()
    set(name "${_fh_prefix}${id}")
    set(out "${_fh_out_root}/${id}")
    add_test("${name}" "${_fh_cmake}" -DFAKEHOST_TEST_MODE=run "-DFAKEHOST_TEST_ID=${id}"
             "-DFAKEHOST_TEST_OUT=${out}" "-DFAKEHOST_TEST_FAIL_UNTESTED=${_fh_fail_untested}"
             -P "${_fh_module}" -- "${_fh_fakehost}" run --protocol "${_fh_protocol}"
             ${_fh_plugin_flags} --only "${id}" --strict --out "${out}" --no-color ${_fh_args}
             ${_fh_plugin_argv})
    set_tests_properties("${name}" PROPERTIES SKIP_REGULAR_EXPRESSION "fakehost-test: SKIPPED"
                         TIMEOUT 120 ${_fh_properties})
  endforeach()
  return()
endif()

# The value as a CMake bracket argument, so that any text survives being written into a script.
function(_fakehost_quote value out)
  set(eq "=")
  while("${value}" MATCHES "\\]${eq}\\]")
    string(APPEND eq "=")
  endwhile()
  set(${out} "[${eq}[${value}]${eq}]" PARENT_SCOPE)
endfunction()

function(fakehost_add_tests)
  cmake_parse_arguments(PARSE_ARGV 0 FH ""
                        "PLUGIN_TARGET;PLUGIN_DIR;PROTOCOL;FAKEHOST;SUITE;NAME_PREFIX"
                        "ONLY;ARGS;PROPERTIES")
  if(FH_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fakehost_add_tests: unknown arguments ${FH_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT FH_PROTOCOL)
    message(FATAL_ERROR "fakehost_add_tests: PROTOCOL is required (a protocol's name, as fakehost run --protocol takes: fakehost run --help lists them)")
  endif()
  if((FH_PLUGIN_TARGET AND FH_PLUGIN_DIR) OR (NOT FH_PLUGIN_TARGET AND NOT FH_PLUGIN_DIR))
    message(FATAL_ERROR "fakehost_add_tests: give exactly one of PLUGIN_TARGET and PLUGIN_DIR")
  endif()
  set(fakehost "${FH_FAKEHOST}")
  if(NOT fakehost)
    if(TARGET fakehost)
      set(fakehost "$<TARGET_FILE:fakehost>")
    else()
      find_program(FAKEHOST_EXECUTABLE fakehost REQUIRED)
      set(fakehost "${FAKEHOST_EXECUTABLE}")
    endif()
  endif()
  set(prefix "fakehost.${FH_PROTOCOL}.")
  if(DEFINED FH_NAME_PREFIX)
    set(prefix "${FH_NAME_PREFIX}")
  endif()
  if(FH_PLUGIN_TARGET)
    set(plugin_flags "")
    set(plugin_argv -- "$<TARGET_FILE:${FH_PLUGIN_TARGET}>")
    set(bare ON)
  else()
    set(plugin_flags --plugin "${FH_PLUGIN_DIR}")
    set(plugin_argv "")
    set(bare OFF)
  endif()
  set(fail_untested OFF)
  if("--fail-untested" IN_LIST FH_ARGS)
    set(fail_untested ON)
  endif()
  set(protocol "${FH_PROTOCOL}")
  set(suite "${FH_SUITE}")
  set(only "${FH_ONLY}")
  set(args "${FH_ARGS}")
  set(properties "${FH_PROPERTIES}")
  set(module "${CMAKE_CURRENT_FUNCTION_LIST_FILE}")
  set(cmake "${CMAKE_COMMAND}")
  string(MAKE_C_IDENTIFIER "${prefix}${protocol}" key)
  set(out_root "${CMAKE_CURRENT_BINARY_DIR}/fakehost-tests/${key}")

  # The file ctest includes when it starts: these values, then this module in discover mode.
  set(script "# Generated by fakehost_add_tests (${module}).\n")
  foreach(var fakehost protocol suite only prefix plugin_flags plugin_argv args properties bare
              fail_untested out_root module cmake)
    _fakehost_quote("${${var}}" quoted)
    string(APPEND script "set(_fh_${var} ${quoted})\n")
  endforeach()
  string(APPEND script "set(FAKEHOST_TEST_MODE discover)\ninclude(\"${module}\")\n")
  set(include_file "${out_root}.cmake")
  file(GENERATE OUTPUT "${include_file}" CONTENT "${script}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()

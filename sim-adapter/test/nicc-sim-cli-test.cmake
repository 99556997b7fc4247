# nicc-sim-cli-test.cmake — command-line checks of nicc-sim (run by CTest):
#   cmake -DNICC_SIM=/path/nicc-sim -DMODE=help -P nicc-sim-cli-test.cmake
#     --help and -h exit 0 and print the flags and every scenario key
#     (stdout holds "topology_file" and "--scenario").
#   cmake -DNICC_SIM=... -DMODE=bad-toml -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a scenario file with an unknown key on line 3 exits 2 and the message
#     names the file and line ("bad.toml:3:"); so does a TOML syntax error.
if(NOT NICC_SIM)
  message(FATAL_ERROR "set -DNICC_SIM=<path of nicc-sim>")
endif()

if(MODE STREQUAL "help")
  foreach(flag --help -h --helpfull)
    execute_process(COMMAND "${NICC_SIM}" ${flag}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "nicc-sim ${flag}: exit ${rc}, expected 0\n${err}")
    endif()
    foreach(want topology_file --scenario --set "Scenario files")
      string(FIND "${out}" "${want}" at)
      if(at LESS 0)
        message(FATAL_ERROR "nicc-sim ${flag}: stdout lacks '${want}'\n${out}")
      endif()
    endforeach()
  endforeach()
elseif(MODE STREQUAL "bad-toml")
  file(MAKE_DIRECTORY "${WORK_DIR}")
  file(WRITE "${WORK_DIR}/bad.toml" "base = \"leaf-spine\"\n[fabric]\nleafs = 4\n")
  file(WRITE "${WORK_DIR}/syntax.toml" "base = \"leaf-spine\"\nstop_ms = = 3\n")
  foreach(case "bad.toml:3:" "syntax.toml:2:")
    string(REGEX REPLACE ":.*" "" file "${case}")
    execute_process(COMMAND "${NICC_SIM}" --scenario "${WORK_DIR}/${file}" --out "${WORK_DIR}/out"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "nicc-sim --scenario ${file}: exit ${rc}, expected 2\n${err}")
    endif()
    string(FIND "${err}" "${case}" at)
    if(at LESS 0)
      message(FATAL_ERROR "nicc-sim --scenario ${file}: stderr does not name '${case}'\n${err}")
    endif()
    message(STATUS "${file}: ${err}")
  endforeach()
else()
  message(FATAL_ERROR "MODE must be help or bad-toml")
endif()

# nicc-sim-cli-test.cmake — command-line checks of nicc-sim (run by CTest):
#   cmake -DNICC_SIM=/path/nicc-sim -DMODE=help -P nicc-sim-cli-test.cmake
#     --help and -h exit 0 and print the flags and every scenario key
#     (stdout holds "topology_file", "--scenario", the engine parameter
#     dcqcn.rp_time_reset with its range, a profile key and an alias).
#   cmake -DNICC_SIM=... -DMODE=bad-toml -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a scenario file with an unknown key on line 3 exits 2 and the message
#     names the file and line ("bad.toml:3:"); so does a TOML syntax error.
#   cmake -DNICC_SIM=... -DMODE=rng -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     --RngRun=3 and NS_GLOBAL_VALUE="RngRun=3" both give summary.json rng.run 3.
#   cmake -DNICC_SIM=... -DMODE=bad-flow-file -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a flow file with size 0 on line 3 (HPCC format) and one with an unknown
#     CSV column exit 2, name file:line and the field, and write no output
#     directory; a good HPCC flow file runs and its flows are done in fct.csv.
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
    foreach(want topology_file --scenario --set "Scenario files" "dcqcn.rp_time_reset" "1..2147483 us"
                 "hpcc.profile" "hpcc-paper|hpcc-later" "spray.ev_bits" "ev_bits                -> spray.ev_bits")
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
elseif(MODE STREQUAL "rng")
  # --RngRun=3 and NS_GLOBAL_VALUE="RngRun=3" both reach the run (summary.json
  # "rng": {"run": 3}) when the scenario leaves its run key at 0.
  set(args --scenario leaf-spine --set leaves=2,spines=2,hosts_per_leaf=4,poisson_load=0
           --set permutation_bytes=10000,stop_ms=1 --plots=false --progress=false)
  foreach(how flag env)
    if(how STREQUAL "flag")
      set(cmd "${NICC_SIM}" ${args} --RngRun=3 --out "${WORK_DIR}/rng-${how}")
    else()
      set(cmd ${CMAKE_COMMAND} -E env "NS_GLOBAL_VALUE=RngRun=3" "${NICC_SIM}" ${args}
              --out "${WORK_DIR}/rng-${how}")
    endif()
    execute_process(COMMAND ${cmd} RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "nicc-sim (RngRun by ${how}): exit ${rc}\n${err}")
    endif()
    file(READ "${WORK_DIR}/rng-${how}/summary.json" summary)
    string(JSON run GET "${summary}" rng run)
    if(NOT run EQUAL 3)
      message(FATAL_ERROR "RngRun by ${how}: summary.json rng.run = ${run}, expected 3")
    endif()
  endforeach()
elseif(MODE STREQUAL "bad-flow-file")
  file(MAKE_DIRECTORY "${WORK_DIR}")
  file(WRITE "${WORK_DIR}/size0.txt" "2\n0 5 3 100 1000 0.000001\n1 6 3 100 0 0.000002\n")
  file(WRITE "${WORK_DIR}/column.csv" "src,dst,bytes,start_us\n0,5,1000,1\n")
  file(WRITE "${WORK_DIR}/good.txt" "2 \n0 5 3 100 100000 0.000001\n1 6 3 200 30000 0.000002\n")
  set(args --scenario leaf-spine --set leaves=2,spines=2,hosts_per_leaf=4,poisson_load=0,stop_ms=1
           --plots=false --progress=false)
  foreach(case "size0.txt:3: field 'size'" "column.csv:1: header: unknown column 'bytes'")
    string(REGEX REPLACE ":.*" "" file "${case}")
    file(REMOVE_RECURSE "${WORK_DIR}/flows-out")
    execute_process(COMMAND "${NICC_SIM}" ${args} --set "flow_file=${WORK_DIR}/${file}"
                            --out "${WORK_DIR}/flows-out"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "nicc-sim flow_file=${file}: exit ${rc}, expected 2\n${err}")
    endif()
    string(FIND "${err}" "${case}" at)
    if(at LESS 0)
      message(FATAL_ERROR "nicc-sim flow_file=${file}: stderr does not name '${case}'\n${err}")
    endif()
    if(EXISTS "${WORK_DIR}/flows-out")
      message(FATAL_ERROR "nicc-sim flow_file=${file}: wrote ${WORK_DIR}/flows-out despite the error")
    endif()
    message(STATUS "${file}: ${err}")
  endforeach()
  execute_process(COMMAND "${NICC_SIM}" ${args} --set "flow_file=${WORK_DIR}/good.txt"
                          --out "${WORK_DIR}/flows-good"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nicc-sim flow_file=good.txt: exit ${rc}\n${err}")
  endif()
  file(STRINGS "${WORK_DIR}/flows-good/fct.csv" rows)
  list(LENGTH rows n)
  list(GET rows 2 second)
  if(NOT n EQUAL 3 OR NOT second MATCHES "^1,[0-9]+,[0-9]+,30000,2000,[1-9]")
    message(FATAL_ERROR "fct.csv: expected a header and 2 done flows, flow 1 = 1,src,dst,30000,2000,fct,...; got\n${rows}")
  endif()
else()
  message(FATAL_ERROR "MODE must be help, bad-toml, rng or bad-flow-file")
endif()

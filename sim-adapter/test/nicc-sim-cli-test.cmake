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
#   cmake -DNICC_SIM=... -DMODE=lossless -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a lossless incast whose headroom exceeds the buffer exits 2 naming the
#     buffer it needs and writes nothing; headroom_policy=shrink runs it with
#     a warning and summary.json has drops_headroom_overflow.
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
elseif(MODE STREQUAL "lossless")
  set(args --scenario incast --set cc=dcqcn,senders=64,size_bytes=20000,delay_ns=10000,stop_ms=5
           --plots=false --progress=false)
  file(REMOVE_RECURSE "${WORK_DIR}/lossless-refused")
  execute_process(COMMAND "${NICC_SIM}" ${args} --out "${WORK_DIR}/lossless-refused"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "lossless incast over the buffer: exit ${rc}, expected 2\n${err}")
  endif()
  foreach(want "needs 16 464 110 B of buffer" "65 ports x 1 lossless class" "headroom_policy=shrink")
    string(FIND "${err}" "${want}" at)
    if(at LESS 0)
      message(FATAL_ERROR "refusal does not say '${want}'\n${err}")
    endif()
  endforeach()
  if(EXISTS "${WORK_DIR}/lossless-refused")
    message(FATAL_ERROR "a refused run wrote ${WORK_DIR}/lossless-refused")
  endif()
  execute_process(COMMAND "${NICC_SIM}" ${args} --set headroom_policy=shrink
                          --out "${WORK_DIR}/lossless-shrink"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  string(FIND "${err}" "warning: switch node 0 needs" at)
  if(NOT rc EQUAL 0 OR at LESS 0)
    message(FATAL_ERROR "headroom_policy=shrink: exit ${rc} (expected 0 and a warning)\n${err}")
  endif()
  file(READ "${WORK_DIR}/lossless-shrink/summary.json" summary)
  string(JSON hd GET "${summary}" drops_headroom_overflow)
  string(JSON done GET "${summary}" flows completed)
  if(NOT done EQUAL 64 OR hd LESS 0)
    message(FATAL_ERROR "shrink: ${done} flows completed, drops_headroom_overflow ${hd}")
  endif()
else()
  message(FATAL_ERROR "MODE must be help, bad-toml, rng or lossless")
endif()

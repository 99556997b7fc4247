# nicc-sim-cli-test.cmake — command-line checks of nicc-sim (run by CTest):
#   cmake -DNICC_SIM=/path/nicc-sim -DMODE=help -P nicc-sim-cli-test.cmake
#     --help and -h exit 0 and print the flags and every scenario key
#     (stdout holds "topology_file", "--scenario", the engine parameter
#     dcqcn.rp_time_reset with its range, a profile key and an alias);
#     --list-keys prints the keys tab-separated (name, kind, type, default).
#   cmake -DNICC_SIM=... -DMODE=bad-toml -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a scenario file with an unknown key on line 3 exits 2 and the message
#     names the file and line ("bad.toml:3:"); so does a TOML syntax error.
#   cmake -DNICC_SIM=... -DMODE=rng -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     --RngRun=3 and NS_GLOBAL_VALUE="RngRun=3" both give summary.json rng.run 3.
#   cmake -DNICC_SIM=... -DMODE=monitor -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     an incast with monitor=switch:* (commas inside the --set value) writes
#     queues.csv, the qlen file, fct.txt (one line per completed flow),
#     pfc.txt and pfc.csv (one line per frame received), fct_hpcc.csv, and
#     per-port statistics in summary.json with max >= p99 >= p95 >= p50 (and
#     fct_slowdown p999 >= p99 >= p50 >= 1), the
#     time of max inside the sampled window and the drain time >= 0; a bad
#     monitor spec or qlen_mon_file without monitored ports exits 2, names
#     the key and field, and writes no file.
#   cmake -DNICC_SIM=... -DMODE=bad-flow-file -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a flow file with size 0 on line 3 (HPCC format) and one with an unknown
#     CSV column exit 2, name file:line and the field, and write no output
#     directory; a good HPCC flow file runs and its flows are done in fct.csv.
#   cmake -DNICC_SIM=... -DMODE=hpcc-docs -DDOC=docs/hpcc-compat.md -P nicc-sim-cli-test.cmake
#     the HPCC config key table printed by --hpcc-keys-markdown is the one in
#     the docs page (regenerate: nicc-sim --hpcc-keys-markdown).
#   cmake -DNICC_SIM=... -DMODE=lossless -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a lossless incast whose headroom exceeds the buffer exits 2 naming the
#     buffer it needs and writes nothing; headroom_policy=shrink runs it with
#     a warning and summary.json has drops_headroom_overflow.
#   cmake -DNICC_SIM=... -DMODE=hpcc-mix -DMIX=sim-adapter/test/data/mix -DWORK_DIR=dir -P ...
#     the HPCC simulator's own example (mix/, unchanged, run from the
#     directory above it as the simulator is) runs with --hpcc-config: exit 0,
#     fct.txt at its FCT_OUTPUT_FILE with the 2 flows of 200 MB the flow file
#     counts, pfc.txt and qlen.txt where the config names them; --print shows
#     the mapping (cc = "hpcc", compat = "hpcc-sim"); CC_MODE 7 exits 2 naming
#     the file and line; an unknown key exits 2 unless --lenient.
#   cmake -DNICC_SIM=... -DMODE=bad-fault -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     a bad fault spec (--set fault=..., a TOML [faults] table, an unknown
#     node) exits 2 naming the key (and the file:line for the TOML file) and
#     writes no output directory; a good one runs and summary.json has the
#     fault with lost packets and accounting.all_delivered true.
#   cmake -DNICC_SIM=... -DMODE=bad-values -DWORK_DIR=dir -P nicc-sim-cli-test.cmake
#     bad values that once reached an ns-3 checker unparsed (ecn_pmax=0.2x,
#     headroom_delay_factor=y_factor=1, ...), a NUL in a TOML string, a bad
#     double in a TOML file and a bad value of an HPCC config key that has
#     no effect: each exits 2 (no abort), names the key (or file:line) and
#     the value, and writes no output directory. The whole walk over every
#     key is the suite nicc-bad-values.
if(NOT NICC_SIM)
  message(FATAL_ERROR "set -DNICC_SIM=<path of nicc-sim>")
endif()

# nicc_expect_refused(LABEL OUT WANT1 WANT2 ARGS...): nicc-sim ARGS --out OUT
# exits 2, its stderr holds WANT1 and WANT2, and nothing was written to OUT.
function(nicc_expect_refused label out want1 want2)
  execute_process(COMMAND "${NICC_SIM}" ${ARGN} --out "${out}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE stdout)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${label}: exit ${rc}, expected 2\n${err}")
  endif()
  foreach(want "${want1}" "${want2}")
    string(FIND "${err}" "${want}" at)
    if(at LESS 0)
      message(FATAL_ERROR "${label}: stderr lacks '${want}'\n${err}")
    endif()
  endforeach()
  if(EXISTS "${out}")
    message(FATAL_ERROR "${label}: a refused run wrote ${out}")
  endif()
endfunction()

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
  # --list-keys: one tab-separated line per key (name, kind, type, default)
  # and per alias, from the same key table as --help.
  execute_process(COMMAND "${NICC_SIM}" --list-keys RESULT_VARIABLE rc OUTPUT_VARIABLE keys ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nicc-sim --list-keys: exit ${rc}\n${err}")
  endif()
  foreach(want "poisson_load\tscenario\tdouble\t0\n" "dcqcn.rp_time_reset\tengine\t" "mtu\tattribute\t"
               "ev_bits\talias\tspray.ev_bits\t\n")
    string(FIND "${keys}" "${want}" at)
    if(at LESS 0)
      message(FATAL_ERROR "nicc-sim --list-keys lacks '${want}'\n${keys}")
    endif()
  endforeach()
elseif(MODE STREQUAL "hpcc-docs")
  execute_process(COMMAND "${NICC_SIM}" --hpcc-keys-markdown RESULT_VARIABLE rc OUTPUT_VARIABLE table
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nicc-sim --hpcc-keys-markdown: exit ${rc}\n${err}")
  endif()
  file(READ "${DOC}" doc)
  string(FIND "${doc}" "${table}" at)
  if(at LESS 0)
    message(FATAL_ERROR "${DOC} does not hold the current HPCC key table; paste the output of "
                        "nicc-sim --hpcc-keys-markdown between its table markers")
  endif()
elseif(MODE STREQUAL "hpcc-mix")
  set(root "${WORK_DIR}/hpcc-mix")
  file(REMOVE_RECURSE "${root}")
  file(MAKE_DIRECTORY "${root}")
  file(COPY "${MIX}" DESTINATION "${root}")
  execute_process(COMMAND "${NICC_SIM}" --hpcc-config mix/config.txt --print WORKING_DIRECTORY "${root}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE printed ERROR_VARIABLE err)
  foreach(want "cc = \"hpcc\"" "compat = \"hpcc-sim\"" "hpcc.base_rtt_ns = 4160" "buffer_bytes = 33554432")
    string(FIND "${printed}" "${want}" at)
    if(NOT rc EQUAL 0 OR at LESS 0)
      message(FATAL_ERROR "--hpcc-config --print: exit ${rc}, lacks '${want}'\n${printed}\n${err}")
    endif()
  endforeach()
  execute_process(COMMAND "${NICC_SIM}" --hpcc-config mix/config.txt --out out --plots=false --progress=false
                  WORKING_DIRECTORY "${root}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--hpcc-config mix/config.txt: exit ${rc}\n${err}")
  endif()
  foreach(f mix/fct.txt mix/pfc.txt mix/qlen.txt out/fct.txt out/summary.json out/queues.csv)
    if(NOT EXISTS "${root}/${f}")
      message(FATAL_ERROR "--hpcc-config mix/config.txt wrote no ${f}")
    endif()
  endforeach()
  file(STRINGS "${root}/mix/fct.txt" lines)
  list(LENGTH lines n)
  if(NOT n EQUAL 2)
    message(FATAL_ERROR "mix/fct.txt: ${n} lines, expected the 2 flows the flow file counts")
  endif()
  foreach(line ${lines})
    if(NOT line MATCHES "^0b000[23]01 0b000101 10000 100 200000000 2000000000 [0-9]+ [0-9]+$")
      message(FATAL_ERROR "mix/fct.txt: unexpected line '${line}'")
    endif()
  endforeach()
  file(WRITE "${root}/mix/timely.txt" "TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE mix/flow.txt\nCC_MODE 7\n")
  file(WRITE "${root}/mix/unknown.txt" "TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE mix/flow.txt\nCC_MODE 3\nFOO 1\n")
  foreach(case "timely.txt|mix/timely.txt:3: CC_MODE: 7 is TIMELY: not implemented in nicc"
               "unknown.txt|mix/unknown.txt:4: FOO: unknown key")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 file)
    list(GET parts 1 want)
    execute_process(COMMAND "${NICC_SIM}" --hpcc-config mix/${file} --print WORKING_DIRECTORY "${root}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    string(FIND "${err}" "${want}" at)
    if(NOT rc EQUAL 2 OR at LESS 0)
      message(FATAL_ERROR "--hpcc-config mix/${file}: exit ${rc} (expected 2), stderr lacks '${want}'\n${err}")
    endif()
  endforeach()
  execute_process(COMMAND "${NICC_SIM}" --hpcc-config mix/unknown.txt --lenient --print WORKING_DIRECTORY "${root}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE printed ERROR_VARIABLE err)
  string(FIND "${printed}" "FOO: unknown key" at)
  if(NOT rc EQUAL 0 OR at LESS 0)
    message(FATAL_ERROR "--lenient: exit ${rc}, the printed scenario lacks the note\n${printed}\n${err}")
  endif()
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
elseif(MODE STREQUAL "monitor")
  set(out "${WORK_DIR}/monitor")
  file(REMOVE_RECURSE "${out}")
  execute_process(COMMAND "${NICC_SIM}" --scenario incast --progress=false
                          --set senders=8,size_bytes=200000,buffer_bytes=400000,cc=dcqcn
                          --set monitor=switch:0,switch:8,monitor_start_us=1,monitor_period_ns=500
                          --set qlen_mon_file=qlen.txt --out "${out}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nicc-sim with monitor: exit ${rc}\n${err}")
  endif()
  foreach(f fct.csv fct.txt pfc.txt pfc.csv fct_hpcc.csv queues.csv qlen.txt summary.json)
    if(NOT EXISTS "${out}/${f}")
      message(FATAL_ERROR "nicc-sim with monitor: no ${f}")
    endif()
  endforeach()
  file(READ "${out}/summary.json" summary)
  string(JSON nports LENGTH "${summary}" queue_monitor ports)
  if(NOT nports EQUAL 2)
    message(FATAL_ERROR "queue_monitor.ports: ${nports} ports, expected 2")
  endif()
  foreach(port switch:0 switch:8)
    foreach(field p50 p95 p99 max max_time_ns first_sample_ns last_sample_ns drain_time_ns samples)
      string(JSON ${field} GET "${summary}" queue_monitor ports ${port} ${field})
    endforeach()
    if(max LESS p99 OR p99 LESS p95 OR p95 LESS p50)
      message(FATAL_ERROR "${port}: not max >= p99 >= p95 >= p50: ${max} ${p99} ${p95} ${p50}")
    endif()
    if(max_time_ns LESS first_sample_ns OR max_time_ns GREATER last_sample_ns OR first_sample_ns LESS 1000)
      message(FATAL_ERROR "${port}: max at ${max_time_ns} outside ${first_sample_ns}..${last_sample_ns}")
    endif()
    if(drain_time_ns LESS 0 OR samples LESS 10)
      message(FATAL_ERROR "${port}: drain_time_ns ${drain_time_ns}, samples ${samples}")
    endif()
  endforeach()
  if(max LESS 50000)
    message(FATAL_ERROR "switch:8 (the receiver's port): max ${max} B, expected an incast queue")
  endif()
  string(JSON completed GET "${summary}" flows completed)
  string(JSON frames GET "${summary}" pfc frames_received)
  foreach(q p50 p99 p999)
    string(JSON sd_${q} GET "${summary}" fct_slowdown ${q})
  endforeach()
  if(sd_p999 LESS sd_p99 OR sd_p99 LESS sd_p50 OR sd_p50 LESS 1)
    message(FATAL_ERROR "fct_slowdown: not p999 >= p99 >= p50 >= 1: ${sd_p999} ${sd_p99} ${sd_p50}")
  endif()
  file(STRINGS "${out}/fct.txt" fct_lines)
  file(STRINGS "${out}/pfc.txt" pfc_lines)
  file(STRINGS "${out}/pfc.csv" pfc_csv)
  list(LENGTH fct_lines n_fct)
  list(LENGTH pfc_lines n_pfc)
  list(LENGTH pfc_csv n_csv)
  math(EXPR n_csv "${n_csv} - 1")
  if(NOT n_fct EQUAL completed OR NOT n_pfc EQUAL frames OR NOT n_csv EQUAL frames OR frames EQUAL 0)
    message(FATAL_ERROR "fct.txt ${n_fct} lines (${completed} flows done), pfc.txt ${n_pfc} and pfc.csv "
                        "${n_csv} lines (${frames} frames received)")
  endif()
  foreach(case "monitor=switch:17|key 'monitor': item 1 'switch:17': field PORT: switch has 17 ports"
               "monitor=tor0:1|field SWITCH: no switch named or numbered 'tor0'"
               "qlen_mon_file=q.txt|key 'qlen_mon_file'")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 pair)
    list(GET parts 1 want)
    file(REMOVE_RECURSE "${WORK_DIR}/bad-monitor")
    execute_process(COMMAND "${NICC_SIM}" --scenario incast --progress=false --set ${pair}
                            --out "${WORK_DIR}/bad-monitor"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    string(FIND "${err}" "${want}" at)
    if(NOT rc EQUAL 2 OR at LESS 0)
      message(FATAL_ERROR "--set ${pair}: exit ${rc} (expected 2), stderr lacks '${want}'\n${err}")
    endif()
    file(GLOB written "${WORK_DIR}/bad-monitor/*")
    if(written)
      message(FATAL_ERROR "--set ${pair}: files written: ${written}")
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
elseif(MODE STREQUAL "lossless")
  set(args --scenario incast --set cc=dcqcn,senders=64,size_bytes=20000,delay_ns=10000,stop_ms=5
           --plots=false --progress=false)
  file(REMOVE_RECURSE "${WORK_DIR}/lossless-refused")
  execute_process(COMMAND "${NICC_SIM}" ${args} --out "${WORK_DIR}/lossless-refused"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "lossless incast over the buffer: exit ${rc}, expected 2\n${err}")
  endif()
  foreach(want "needs 16 535 480 B of buffer" "65 ports x 1 lossless class" "headroom_policy=shrink")
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
elseif(MODE STREQUAL "bad-fault")
  file(REMOVE_RECURSE "${WORK_DIR}/fault")
  file(MAKE_DIRECTORY "${WORK_DIR}/fault")
  set(small --scenario leaf-spine --set leaves=2 --set spines=2 --set hosts_per_leaf=2
            --set poisson_load=0 --set permutation_bytes=500000 --set stop_ms=2 --plots=false)
  file(WRITE "${WORK_DIR}/fault/bad.toml" "base = \"leaf-spine\"\n[faults]\nfault = \"link:leaf0-spine0@30,20\"\n")
  foreach(case "--set;fault=link:leaf0-spine0@x|key 'fault'|spec 'link:leaf0-spine0@x'"
               "--set;flap=link:leaf0-spine0@10,5|key 'flap'|start_us,period_us,count"
               "--set;link_loss=leaf0-spine0:1.5|key 'link_loss'|rate in [0, 1]"
               "--set;fault=link:leaf0-nosuch@10|key 'fault'|unknown node 'nosuch'"
               "--scenario;${WORK_DIR}/fault/bad.toml|bad.toml:3:|up_us must be after down_us")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 flag)
    list(GET parts 1 arg)
    list(GET parts 2 want1)
    list(GET parts 3 want2)
    nicc_expect_refused("${arg}" "${WORK_DIR}/fault/out" "${want1}" "${want2}" ${small} ${flag} ${arg})
  endforeach()
  execute_process(COMMAND "${NICC_SIM}" ${small} --set fault=link:leaf0-spine0@20,60 --set fault_detect_us=5
                          --out "${WORK_DIR}/fault/good"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "good fault: exit ${rc}\n${err}")
  endif()
  file(READ "${WORK_DIR}/fault/good/summary.json" summary)
  string(JSON lost GET "${summary}" faults 0 lost_packets)
  string(JSON all GET "${summary}" accounting all_delivered)
  if(lost LESS 1 OR NOT all)
    message(FATAL_ERROR "good fault: lost_packets ${lost}, all_delivered ${all}")
  endif()
  if(NOT EXISTS "${WORK_DIR}/fault/good/fault_throughput.csv")
    message(FATAL_ERROR "good fault: no fault_throughput.csv")
  endif()
elseif(MODE STREQUAL "bad-values")
  file(REMOVE_RECURSE "${WORK_DIR}/values")
  file(MAKE_DIRECTORY "${WORK_DIR}/values")
  set(v "${WORK_DIR}/values")
  file(WRITE "${v}/nul.toml" "base = \"incast\"\nflow_file = \"a\\u0000b\"\n")
  file(WRITE "${v}/pmax.toml" "base = \"incast\"\n\necn_pmax = \"0.2x\"\n")
  file(WRITE "${v}/topology.txt" "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n")
  file(WRITE "${v}/flow.txt" "1\n0 1 3 100 1000 2.0\n")
  file(WRITE "${v}/config.txt" "CC_MODE 1\nHAS_WIN 0\nTOPOLOGY_FILE topology.txt\nFLOW_FILE flow.txt\nPAUSE_TIME 5x\n")
  foreach(case "--set;ecn_pmax=0.2x|key 'ecn_pmax'|'0.2x'"
               "--set;headroom_delay_factor=y_factor=1|key 'headroom_delay_factor'|'y_factor=1'"
               "--set;pfc_alpha=nan|key 'pfc_alpha'|'nan'"
               "--set;pfc_alpha_ref_rate=1 2|key 'pfc_alpha_ref_rate'|'1 2'"
               "--set;mtu=0x10|key 'mtu'|'0x10'"
               "--set;buffer_bytes=1e400|key 'buffer_bytes'|'1e400'"
               "--set;dcqcn.rp_time_reset=1e3x|key 'dcqcn.rp_time_reset'|'1e3x'"
               "--set;rto_us=-5|key 'rto_us'|'-5'"
               "--scenario;${v}/nul.toml|nul.toml:2:|NUL"
               "--scenario;${v}/pmax.toml|pmax.toml:3:|'0.2x'"
               "--hpcc-config;${v}/config.txt|config.txt:5:|PAUSE_TIME")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 flag)
    list(GET parts 1 arg)
    list(GET parts 2 want1)
    list(GET parts 3 want2)
    set(base)
    if(flag STREQUAL "--set")
      set(base --scenario incast)
    endif()
    nicc_expect_refused("${arg}" "${v}/out" "${want1}" "${want2}" ${base} ${flag} "${arg}")
  endforeach()
else()
  message(FATAL_ERROR "MODE must be help, hpcc-docs, hpcc-mix, bad-toml, rng, monitor, bad-flow-file, lossless, bad-fault or bad-values")
endif()

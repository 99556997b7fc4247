# The module's examples, one row each, read by ../CMakeLists.txt (outside an
# ns-3 tree: executables and ctests) and by CMakeLists.txt here (inside one:
# build_lib_example). Row: NAME|LIBS|TEST ARGS
#   LIBS  model = libnicc only; scenario = libnicc and libnicc-scenario
#   TEST ARGS  the small run ctest makes (example-NAME); the example exits
#              non-zero when its own check fails (a flow left incomplete, ...)
set(NICC_SIM_EXAMPLES
    "nicc-fabric-incast|model|--senders=4 --stop=200us"
    "nicc-nic-incast|model|--senders=4 --size=200000"
    "nicc-leaf-spine-cc|model|--size=100000 --long=500000"
    "nicc-reps-permutation|model|--size=500000"
    "nicc-rail-allreduce|scenario|--servers=4 --rails=2 --bytes=2000000"
    "nicc-link-failure|scenario|--size=1000000"
    "nicc-pfc-storm|model|--size=500000 --stop=1ms"
    "nicc-toml-scenario|scenario|--set=stop_ms=0.5"
    "nicc-hpcc-config|scenario|"
    "nicc-nscc-trimming|model|--size=128000")

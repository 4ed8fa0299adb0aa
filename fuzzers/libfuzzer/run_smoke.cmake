# Runs a libFuzzer target for SECONDS on a scratch copy of SEED_DIR (so
# neither the seeds nor the source tree change) and fails on any finding.
#   cmake -DFUZZER=... -DSEED_DIR=... -DDICT=... -DSCRATCH=... -DSECONDS=60
#         -P run_smoke.cmake
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus ${SCRATCH}/artifacts)
file(GLOB seeds ${SEED_DIR}/*)
if(NOT seeds)
  message(FATAL_ERROR "no seeds in ${SEED_DIR}; build the fuzzer target "
                      "first (it collects them)")
endif()
file(COPY ${seeds} DESTINATION ${SCRATCH}/corpus)
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=2048
          -timeout=10 -print_final_stats=1 -dict=${DICT}
          -artifact_prefix=${SCRATCH}/artifacts/ ${SCRATCH}/corpus
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB artifacts ${SCRATCH}/artifacts/*)
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); reproducers: "
                      "${artifacts}")
endif()

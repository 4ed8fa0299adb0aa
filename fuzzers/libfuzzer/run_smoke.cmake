# Runs a libFuzzer target for SECONDS on a scratch copy of SEED_DIR (so
# neither the seeds nor the source tree change) and fails on any finding.
# The [libfuzzer] section of OPTIONS (the target's .options file, as
# OSS-Fuzz reads it) becomes -key=value flags; DICT may be empty.
#   cmake -DFUZZER=... -DSEED_DIR=... [-DDICT=...] [-DOPTIONS=...]
#         -DSCRATCH=... -DSECONDS=60 [-DRUNS=N] -P run_smoke.cmake
# The run is reproducible: libFuzzer's -seed is fixed, so the same build
# mutates the same inputs in the same order. RUNS caps the number of
# executions: a faster machine then does not fuzz past what was verified
# clean, a slower one stops at SECONDS having done a prefix of it. (A
# differential fuzzer of a third-party consumer keeps finding that
# consumer's bugs; nightly and OSS-Fuzz runs explore, CI must not flake.)
# Those targets vary anyway (the consumers' own coverage is not repeatable),
# so the smoke run sets L0SPV_FUZZ_REPORT_ONLY: a consumer finding is
# printed, not a failure (consumer_finding.h); any problem in our code, a
# sanitizer report, a timeout or a leak still fails the run.
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus ${SCRATCH}/artifacts)
file(GLOB seeds ${SEED_DIR}/*)
if(NOT seeds)
  message(FATAL_ERROR "no seeds in ${SEED_DIR}; build the fuzzer target "
                      "first (it collects them)")
endif()
file(COPY ${seeds} DESTINATION ${SCRATCH}/corpus)
set(flags)
if(DICT)
  list(APPEND flags -dict=${DICT})
endif()
if(OPTIONS)
  file(STRINGS ${OPTIONS} lines)
  set(in_libfuzzer OFF)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line MATCHES "^\\[(.*)\\]$")
      set(in_libfuzzer OFF)
      if(CMAKE_MATCH_1 STREQUAL "libfuzzer")
        set(in_libfuzzer ON)
      endif()
    elseif(in_libfuzzer AND line MATCHES "^([a-z_]+)[ ]*=[ ]*(.+)$")
      list(APPEND flags -${CMAKE_MATCH_1}=${CMAKE_MATCH_2})
    endif()
  endforeach()
endif()
set(ENV{L0SPV_FUZZ_REPORT_ONLY} 1)
set(runs)
if(RUNS)
  set(runs -runs=${RUNS})
endif()
execute_process(
  COMMAND ${FUZZER} -seed=1 -max_total_time=${SECONDS} ${runs}
          -print_final_stats=1 ${flags}
          -artifact_prefix=${SCRATCH}/artifacts/ ${SCRATCH}/corpus
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB artifacts ${SCRATCH}/artifacts/*)
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); reproducers: "
                      "${artifacts}")
endif()

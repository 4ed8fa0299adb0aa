# Build-time gate for one corpus module, run as
#   cmake -DIN=<NAME.spv.unchecked> -DOUT=<final.spv> -DNAME=<name>
#         [-DSPIRV_VAL=<spirv-val>] [-DSPIRV_DIS=<spirv-dis>] [-DVAL_ENV=<env>]
#         -P check_spv.cmake
# Copies IN to OUT only if every check passes, so a failing module is rebuilt
# (and fails again) on the next build instead of being left behind as
# up to date. Checks, when spirv-val/spirv-dis are given:
#   - spirv-val --target-env VAL_ENV accepts the module;
#   - SPIR-V version is 1.0, 1.1 or 1.2;
#   - exactly one "OpMemoryModel Physical64 OpenCL";
#   - OpCapability Kernel is declared, Shader is not;
#   - every OpEntryPoint uses the Kernel execution model;
#   - no OpTypeInt has signedness 1;
#   - vector component counts are 2, 3, 4, 8 or 16.
cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS IN OUT NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_spv.cmake: -D${var}=... is required")
  endif()
endforeach()

if(SPIRV_VAL)
  if(NOT VAL_ENV)
    set(VAL_ENV opencl2.2)
  endif()
  execute_process(
    COMMAND "${SPIRV_VAL}" --target-env "${VAL_ENV}" "${IN}"
    RESULT_VARIABLE val_rc
    OUTPUT_VARIABLE val_out
    ERROR_VARIABLE val_out)
  if(NOT val_rc EQUAL 0)
    message(FATAL_ERROR
      "${NAME}: spirv-val --target-env ${VAL_ENV} rejected the module:\n"
      "${val_out}")
  endif()
endif()

if(SPIRV_DIS)
  execute_process(
    COMMAND "${SPIRV_DIS}" --raw-id "${IN}"
    RESULT_VARIABLE dis_rc
    OUTPUT_VARIABLE dis
    ERROR_VARIABLE dis_err)
  if(NOT dis_rc EQUAL 0)
    message(FATAL_ERROR "${NAME}: spirv-dis failed:\n${dis_err}")
  endif()

  set(problems "")
  if(NOT dis MATCHES "; Version: 1\\.[012]\n")
    string(REGEX MATCH "; Version: [0-9.]+" ver "${dis}")
    string(APPEND problems "  - SPIR-V version must be 1.0-1.2 (${ver})\n")
  endif()
  string(REGEX MATCHALL "OpMemoryModel [A-Za-z0-9]+ [A-Za-z0-9]+" models "${dis}")
  if(NOT models STREQUAL "OpMemoryModel Physical64 OpenCL")
    string(APPEND problems
      "  - expected exactly one 'OpMemoryModel Physical64 OpenCL', got '${models}'\n")
  endif()
  if(NOT dis MATCHES "OpCapability Kernel\n")
    string(APPEND problems "  - OpCapability Kernel missing\n")
  endif()
  if(dis MATCHES "OpCapability Shader\n")
    string(APPEND problems "  - OpCapability Shader present\n")
  endif()
  string(REGEX MATCHALL "OpEntryPoint [A-Za-z]+" entries "${dis}")
  if(NOT entries)
    string(APPEND problems "  - no OpEntryPoint\n")
  endif()
  foreach(e IN LISTS entries)
    if(NOT e STREQUAL "OpEntryPoint Kernel")
      string(APPEND problems "  - non-Kernel entry point: ${e}\n")
    endif()
  endforeach()
  if(dis MATCHES "OpTypeInt [0-9]+ 1")
    string(APPEND problems "  - OpTypeInt with signedness 1\n")
  endif()
  string(REGEX MATCHALL "OpTypeVector %[0-9]+ [0-9]+" vecs "${dis}")
  foreach(v IN LISTS vecs)
    string(REGEX REPLACE ".* " "" n "${v}")
    if(NOT n MATCHES "^(2|3|4|8|16)$")
      string(APPEND problems "  - vector with ${n} components\n")
    endif()
  endforeach()
  if(problems)
    message(FATAL_ERROR "${NAME}: corpus rules violated:\n${problems}")
  endif()
endif()

file(COPY_FILE "${IN}" "${OUT}")
# Always bump the timestamp so the build tool sees OUT as newer than IN.
file(TOUCH "${OUT}")

// fuzzers/cli/opencl_run_source.h — the stand-alone OpenCL host program
// `report` writes beside UPSTREAM.md for OpenCL targets (PoCL has no kernel
// runner of its own): C, OpenCL 3.0 headers, `cc opencl_run.c -lOpenCL`.
#pragma once

namespace l0spv::fuzzers::cli {

inline constexpr char kOpenClRunSource[] =
    R"l0spv_c(/* opencl_run: runs one kernel of a SPIR (LLVM bitcode) or SPIR-V module on
 * an OpenCL platform and prints the result buffers, without l0spv-fuzz.
 * usage: opencl_run PLATFORM_SUBSTRING MODULE KERNEL GX,GY,GZ LX,LY,LZ|- ARG...
 *   ARG: buf:FILE (initial contents; printed after the run when
 *   buf:FILE:out), val:HEX (by-value bytes, little-endian), local:BYTES.
 * A module ending in .bc is built with "-x spir -spir-std=1.2" (the SPIR
 * path), anything else with clCreateProgramWithIL. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char* slurp(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END); *size = (size_t)ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char* data = malloc(*size ? *size : 1);
  if (fread(data, 1, *size, f) != *size) { perror(path); exit(2); }
  fclose(f);
  return data;
}

static void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) { fprintf(stderr, "%s failed: %d\n", what, err); exit(1); }
}

int main(int argc, char** argv) {
  if (argc < 6) { fprintf(stderr, "usage: see the comment in opencl_run.c\n"); return 2; }
  cl_platform_id platforms[16]; cl_uint n = 0;
  check(clGetPlatformIDs(16, platforms, &n), "clGetPlatformIDs");
  cl_platform_id platform = NULL;
  for (cl_uint i = 0; i < n; ++i) {
    char name[256] = {0};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, argv[1])) { platform = platforms[i]; break; }
  }
  if (!platform) { fprintf(stderr, "no platform named like '%s'\n", argv[1]); return 2; }
  cl_device_id device; cl_int err;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  check(err, "clCreateCommandQueue");
  size_t size; unsigned char* module = slurp(argv[2], &size);
  const int spir = strlen(argv[2]) > 3 && !strcmp(argv[2] + strlen(argv[2]) - 3, ".bc");
  cl_program program = spir
      ? clCreateProgramWithBinary(ctx, 1, &device, &size,
                                  (const unsigned char**)&module, NULL, &err)
      : clCreateProgramWithIL(ctx, module, size, &err);
  check(err, "clCreateProgram");
  err = clBuildProgram(program, 1, &device, spir ? "-x spir -spir-std=1.2" : "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[65536] = {0};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "clBuildProgram failed: %d\n%s\n", err, log);
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, argv[3], &err);
  check(err, "clCreateKernel");
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  int dims = sscanf(argv[4], "%zu,%zu,%zu", &global[0], &global[1], &global[2]);
  /* "-": the implementation picks the work-group size. */
  const int has_local = strcmp(argv[5], "-") != 0;
  if (has_local) sscanf(argv[5], "%zu,%zu,%zu", &local[0], &local[1], &local[2]);
  cl_mem buffers[64]; unsigned char* host[64]; size_t sizes[64]; int out[64];
  int nargs = argc - 6;
  for (int i = 0; i < nargs && i < 64; ++i) {
    char* spec = argv[6 + i];
    buffers[i] = NULL; out[i] = 0;
    if (!strncmp(spec, "buf:", 4)) {
      char path[4096]; snprintf(path, sizeof path, "%s", spec + 4);
      char* colon = strrchr(path, ':');
      if (colon && !strcmp(colon, ":out")) { *colon = 0; out[i] = 1; }
      host[i] = slurp(path, &sizes[i]);
      buffers[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  sizes[i], host[i], &err);
      check(err, "clCreateBuffer");
      check(clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]), "clSetKernelArg");
    } else if (!strncmp(spec, "val:", 4)) {
      unsigned char bytes[4096]; size_t k = 0;
      for (const char* h = spec + 4; h[0] && h[1] && k < sizeof bytes; h += 2)
        sscanf(h, "%2hhx", &bytes[k++]);
      check(clSetKernelArg(kernel, i, k, bytes), "clSetKernelArg");
    } else if (!strncmp(spec, "local:", 6)) {
      check(clSetKernelArg(kernel, i, strtoull(spec + 6, NULL, 10), NULL), "clSetKernelArg");
    } else {
      fprintf(stderr, "bad argument '%s'\n", spec); return 2;
    }
  }
  check(clEnqueueNDRangeKernel(q, kernel, dims, NULL, global,
                               has_local ? local : NULL, 0, NULL, NULL),
        "clEnqueueNDRangeKernel");
  check(clFinish(q), "clFinish");
  for (int i = 0; i < nargs && i < 64; ++i) {
    if (!out[i]) continue;
    check(clEnqueueReadBuffer(q, buffers[i], CL_TRUE, 0, sizes[i], host[i], 0, NULL, NULL),
          "clEnqueueReadBuffer");
    printf("arg%d:", i);
    for (size_t b = 0; b < sizes[i]; ++b) printf("%s%02x", b % 16 ? " " : "\n  ", host[i][b]);
    printf("\n");
  }
  return 0;
}
)l0spv_c";

}  // namespace l0spv::fuzzers::cli

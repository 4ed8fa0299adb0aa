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
 *   buf:FILE:out), val:HEX (by-value bytes, little-endian), local:BYTES,
 *   image:FILE:DIM:ORDER:TYPE:WxHxDxL[:out] (DIM 1d, 1d_buffer, 1d_array,
 *   2d, 2d_array, 3d; ORDER and TYPE the SPIR-V names, e.g. RGBA UnormInt8;
 *   FILE the texels, tightly packed, x fastest; printed after the run when
 *   :out), sampler:normalized|unnormalized:ADDRESSING:FILTER (None,
 *   ClampToEdge, Clamp, Repeat, RepeatMirrored; Nearest, Linear).
 * A module ending in .bc is built with "-x spir -spir-std=1.2" (the SPIR
 * path), anything else with clCreateProgramWithIL. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateSampler (OpenCL 1.2) */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* SPIR-V enumerant names, indexed by value: CL_R = 0x10B0 + order,
 * CL_SNORM_INT8 = 0x10D0 + type, CL_ADDRESS_NONE = 0x1130 + mode,
 * CL_FILTER_NEAREST = 0x1140 + mode. */
static const char* kOrders[] = {"R", "A", "RG", "RA", "RGB", "RGBA", "BGRA", "ARGB",
                                "Intensity", "Luminance", "Rx", "RGx", "RGBx", "Depth",
                                "DepthStencil", "sRGB", "sRGBx", "sRGBA", "sBGRA", "ABGR", 0};
static const char* kTypes[] = {"SnormInt8", "SnormInt16", "UnormInt8", "UnormInt16",
                               "UnormShort565", "UnormShort555", "UnormInt101010",
                               "SignedInt8", "SignedInt16", "SignedInt32", "UnsignedInt8",
                               "UnsignedInt16", "UnsignedInt32", "HalfFloat", "Float", 0};
static const char* kDims[] = {"1d", "1d_buffer", "1d_array", "2d", "2d_array", "3d", 0};
static const char* kAddressing[] = {"None", "ClampToEdge", "Clamp", "Repeat",
                                    "RepeatMirrored", 0};
static const char* kFilters[] = {"Nearest", "Linear", 0};

static int lookup(const char** names, const char* name) {
  for (int i = 0; names[i]; ++i) if (!strcasecmp(names[i], name)) return i;
  fprintf(stderr, "unknown name '%s'\n", name); exit(2);
}

/* Splits s at ':' in place into at most 8 fields; returns the count. */
static int split(char* s, char** fields) {
  int n = 0;
  fields[n++] = s;
  for (char* c = s; *c && n < 8; ++c) if (*c == ':') { *c = 0; fields[n++] = c + 1; }
  return n;
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
  size_t regions[64][3]; int is_image[64];
  int nargs = argc - 6;
  for (int i = 0; i < nargs && i < 64; ++i) {
    char* spec = argv[6 + i];
    buffers[i] = NULL; out[i] = 0; is_image[i] = 0;
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
    } else if (!strncmp(spec, "image:", 6)) {
      char* f[8];
      const int nf = split(spec + 6, f);
      if (nf < 5) { fprintf(stderr, "bad image argument\n"); return 2; }
      out[i] = nf > 5 && !strcmp(f[5], "out");
      host[i] = slurp(f[0], &sizes[i]);
      const int dim = lookup(kDims, f[1]);
      cl_image_format format = {0x10B0 + lookup(kOrders, f[2]), 0x10D0 + lookup(kTypes, f[3])};
      size_t w = 1, h = 1, d = 1, l = 1;
      sscanf(f[4], "%zux%zux%zux%zu", &w, &h, &d, &l);
      static const cl_mem_object_type types[] = {
          CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
          CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
      cl_image_desc desc = {0};
      desc.image_type = types[dim];
      desc.image_width = w; desc.image_height = h; desc.image_depth = d;
      desc.image_array_size = l;
      /* The region clEnqueueReadImage takes: a 1D array's layers are y, a
       * 2D array's layers are z. */
      regions[i][0] = w;
      regions[i][1] = dim == 2 ? l : (dim >= 3 ? h : 1);
      regions[i][2] = dim == 4 ? l : (dim == 5 ? d : 1);
      if (dim == 1) { /* 1D buffer: the texels live in a buffer */
        desc.buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     sizes[i], host[i], &err);
        check(err, "clCreateBuffer");
        buffers[i] = clCreateImage(ctx, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
      } else {
        buffers[i] = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   &format, &desc, host[i], &err);
      }
      check(err, "clCreateImage");
      is_image[i] = 1;
      check(clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]), "clSetKernelArg");
    } else if (!strncmp(spec, "sampler:", 8)) {
      char* f[8];
      if (split(spec + 8, f) != 3) { fprintf(stderr, "bad sampler argument\n"); return 2; }
      const cl_bool normalized = !strcmp(f[0], "normalized");
      cl_sampler sampler = clCreateSampler(ctx, normalized,
                                           0x1130 + lookup(kAddressing, f[1]),
                                           0x1140 + lookup(kFilters, f[2]), &err);
      check(err, "clCreateSampler");
      check(clSetKernelArg(kernel, i, sizeof sampler, &sampler), "clSetKernelArg");
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
    if (is_image[i]) {
      const size_t origin[3] = {0, 0, 0};
      check(clEnqueueReadImage(q, buffers[i], CL_TRUE, origin, regions[i], 0, 0, host[i], 0,
                               NULL, NULL),
            "clEnqueueReadImage");
    } else {
      check(clEnqueueReadBuffer(q, buffers[i], CL_TRUE, 0, sizes[i], host[i], 0, NULL, NULL),
            "clEnqueueReadBuffer");
    }
    printf("arg%d:", i);
    for (size_t b = 0; b < sizes[i]; ++b) printf("%s%02x", b % 16 ? " " : "\n  ", host[i][b]);
    printf("\n");
  }
  return 0;
}
)l0spv_c";

}  // namespace l0spv::fuzzers::cli

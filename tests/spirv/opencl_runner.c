/* Runs the kernels of opencl_kernels.cpp, lowered to SPIR-V by onepass-jit,
 * on the first OpenCL device that takes them: as SPIR-V (clCreateProgramWithIL)
 * where the device has IL support, else as SPIR 1.2 bitcode (cl_khr_spir,
 * e.g. Debian's PoCL) converted by the calling script. Kernel arguments follow
 * jit_api.h's SPIR-V entry: fields (one pointer, as a 64-bit integer), then a
 * range kernel's range. Memory is fine-grained SVM, so the host reads it
 * directly. Exit 0: all passed; 1: a wrong result or an OpenCL error; 77: no
 * usable device (the script reports a skip).
 *
 * usage: opencl_runner il|spir <axpy> <reverse> <atomics> */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 4096

struct Args {
  float *x, *y, *out;
  float a;
  int *groups;
  float *sum;
};

static int check(cl_int status, const char *what) {
  if (status != CL_SUCCESS) {
    fprintf(stderr, "opencl_runner: %s failed (%d)\n", what, status);
    exit(1);
  }
  return 0;
}

static cl_kernel load(cl_context context, cl_device_id device, int spir, const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "opencl_runner: cannot open %s\n", path);
    exit(1);
  }
  fseek(file, 0, SEEK_END);
  size_t size = (size_t)ftell(file);
  rewind(file);
  unsigned char *bytes = malloc(size);
  if (fread(bytes, 1, size, file) != size) exit(1);
  fclose(file);
  cl_int status;
  cl_program program;
  if (spir) {
    const unsigned char *binaries[1] = {bytes};
    cl_int binaryStatus;
    program = clCreateProgramWithBinary(context, 1, &device, &size, binaries, &binaryStatus, &status);
    check(status, "clCreateProgramWithBinary");
    status = clBuildProgram(program, 1, &device, "-x spir -spir-std=1.2", NULL, NULL);
  } else {
    program = clCreateProgramWithIL(context, bytes, size, &status);
    check(status, "clCreateProgramWithIL");
    status = clBuildProgram(program, 1, &device, "", NULL, NULL);
  }
  if (status != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "opencl_runner: building %s failed (%d): %s\n", path, status, log);
    exit(1);
  }
  cl_kernel kernel = clCreateKernel(program, "__onepass_spirv_kernel", &status);
  check(status, "clCreateKernel");
  free(bytes);
  return kernel;
}

static void launch(cl_command_queue queue, cl_kernel kernel, void *field, size_t range, size_t local,
                   int withRange) {
  cl_ulong address = (cl_ulong)(size_t)field;
  check(clSetKernelArg(kernel, 0, sizeof address, &address), "clSetKernelArg(fields)");
  if (withRange) {
    cl_ulong value = range;
    check(clSetKernelArg(kernel, 1, sizeof value, &value), "clSetKernelArg(range)");
  }
  size_t global = (range + local - 1) / local * local;
  check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
  check(clFinish(queue), "clFinish");
}

int main(int argc, char **argv) {
  if (argc != 5 || (strcmp(argv[1], "il") && strcmp(argv[1], "spir"))) {
    fprintf(stderr, "usage: opencl_runner il|spir <axpy> <reverse> <atomics>\n");
    return 2;
  }
  const int spir = strcmp(argv[1], "spir") == 0;
  cl_platform_id platforms[16];
  cl_uint platformCount = 0;
  if (clGetPlatformIDs(16, platforms, &platformCount) != CL_SUCCESS || platformCount == 0) {
    printf("no OpenCL platform\n");
    return 77;
  }
  cl_device_id device = NULL;
  for (cl_uint p = 0; p < platformCount && !device; ++p) {
    cl_device_id devices[16];
    cl_uint deviceCount = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &deviceCount) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < deviceCount && !device; ++d) {
      char il[1024] = "", extensions[16384] = "";
      cl_device_svm_capabilities svm = 0;
      clGetDeviceInfo(devices[d], CL_DEVICE_IL_VERSION, sizeof il, il, NULL);
      clGetDeviceInfo(devices[d], CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
      clGetDeviceInfo(devices[d], CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
      const int takes = spir ? strstr(extensions, "cl_khr_spir") != NULL : strstr(il, "SPIR-V") != NULL;
      if (takes && (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) device = devices[d];
    }
  }
  if (!device) {
    printf("no OpenCL device takes %s with fine-grained SVM\n", spir ? "SPIR 1.2" : "SPIR-V");
    return 77;
  }
  char name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("device: %s (%s)\n", name, spir ? "SPIR 1.2 bitcode" : "SPIR-V");
  cl_int status;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &status);
  check(status, "clCreateCommandQueueWithProperties");
  const cl_svm_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
  struct Args *args = clSVMAlloc(context, flags, sizeof *args, 0);
  args->x = clSVMAlloc(context, flags, COUNT * sizeof(float), 0);
  args->y = clSVMAlloc(context, flags, COUNT * sizeof(float), 0);
  args->out = clSVMAlloc(context, flags, COUNT * sizeof(float), 0);
  args->groups = clSVMAlloc(context, flags, COUNT * sizeof(int), 0);
  args->sum = clSVMAlloc(context, flags, sizeof(float), 0);
  if (!args->x || !args->y || !args->out || !args->groups || !args->sum) return 1;
  for (int i = 0; i < COUNT; ++i) {
    args->x[i] = (float)i;
    args->y[i] = 1.0f;
    args->out[i] = -1.0f;
    args->groups[i] = i;
  }
  args->a = 2.0f;
  *args->sum = 0.0f;

  cl_kernel axpy = load(context, device, spir, argv[2]);
  cl_kernel reverse = load(context, device, spir, argv[3]);
  cl_kernel atomics = load(context, device, spir, argv[4]);
  /* Every kernel's allocation is used through its Args block. */
  void *used[] = {args->x, args->y, args->out, args->groups, args->sum};
  cl_kernel all[] = {axpy, reverse, atomics};
  for (int k = 0; k < 3; ++k)
    check(clSetKernelExecInfo(all[k], CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof used, used), "clSetKernelExecInfo");

  launch(queue, axpy, args, COUNT - 3, 64, 1);
  int wrong = 0;
  for (int i = 0; i < COUNT; ++i)
    wrong += args->out[i] != (i < COUNT - 3 ? 2.0f * (float)i + 1.0f : -1.0f);
  printf("axpy (range, past-the-end work-items idle): %s\n", wrong ? "FAILED" : "PASSED");
  int failures = wrong != 0;

  launch(queue, reverse, args, COUNT, 64, 0);
  wrong = 0;
  for (int i = 0; i < COUNT; ++i) wrong += args->groups[i] != i / 64 * 64 + (63 - i % 64);
  printf("reverse (nd_range, group-local memory, barrier): %s\n", wrong ? "FAILED" : "PASSED");
  failures += wrong != 0;

  launch(queue, atomics, args->sum, COUNT, 64, 1);
  printf("atomics (float fetch_add as compare-exchange): sum %g, %s\n", *args->sum,
         *args->sum == 50.0f ? "PASSED" : "FAILED");
  failures += *args->sum != 50.0f;
  return failures ? 1 : 0;
}

// The OpenCL API the OpenCL backend uses, resolved from the ICD loader
// (libOpenCL.so.1) at run time: the backend builds without OpenCL and is
// absent where no loader is installed. Types and constants from the Khronos
// headers (Debian's opencl-c-headers).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <string>

namespace onepass::opencl {

struct Api {
  void *library = nullptr;
// clang-format off
#define ONEPASS_CL_FUNCTIONS(X)                                                                                        \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext)                     \
  X(clCreateCommandQueueWithProperties) X(clReleaseCommandQueue) X(clSVMAlloc) X(clSVMFree) X(clEnqueueSVMMemcpy)      \
  X(clEnqueueSVMMemFill) X(clCreateProgramWithIL) X(clCreateProgramWithBinary) X(clBuildProgram)                       \
  X(clGetProgramBuildInfo) X(clCreateKernel) X(clGetKernelInfo) X(clGetKernelWorkGroupInfo) X(clSetKernelArg)          \
  X(clSetKernelExecInfo) X(clEnqueueNDRangeKernel) X(clFinish) X(clFlush) X(clReleaseProgram) X(clReleaseContext)      \
  X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList) X(clWaitForEvents) X(clGetEventInfo)                  \
  X(clGetEventProfilingInfo) X(clReleaseEvent)
// clang-format on
#define ONEPASS_CL_MEMBER(name) decltype(&::name) name = nullptr;
  ONEPASS_CL_FUNCTIONS(ONEPASS_CL_MEMBER)
#undef ONEPASS_CL_MEMBER

  // Loads the ICD loader; false with `why` if it or a function is missing.
  bool load(std::string &why);
};

// "CL_INVALID_VALUE (-30)" and the like, for messages.
std::string errorName(cl_int status);

}  // namespace onepass::opencl

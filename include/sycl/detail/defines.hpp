// Macros shared by the OnePass SYCL headers. Kept to a minimum (see STYLE.md).
#pragma once

#define SYCL_LANGUAGE_VERSION 202012L
#define ONEPASS_SYCL 1

// Functions the runtime library exports to the headers.
#define ONEPASS_RT_API __attribute__((visibility("default")))

#if defined(__clang__)
// Marks a kernel entry template; the OnePass clang plugin finds its
// instantiations and turns each into a device kernel (stage 1).
#define ONEPASS_KERNEL_ENTRY(kind) [[clang::annotate("onepass.kernel." kind)]] __attribute__((noinline))
// SYCL 2020 §5.10.1: a function usable from device code in another TU.
#define SYCL_EXTERNAL [[clang::annotate("onepass.sycl_external")]]
// Names the members of a class whose values the runtime knows at each launch
// (a local accessor's range and offset): stage 1 records the fields they
// flatten to as launch constants (image::kFieldLaunchConstant), which the JIT
// compiles in. (On the class, not on the members: an annotated member would
// reach the IR as an annotation call at every access.)
#define ONEPASS_LAUNCH_CONSTANTS(...) [[clang::annotate("onepass.launch_constants", __VA_ARGS__)]]
// Marks local_accessor: stage 1 flags the fields it flattens to
// (image::kFieldLocalAccessor), so the runtime knows a kernel captures one.
#define ONEPASS_LOCAL_ACCESSOR [[clang::annotate("onepass.local_accessor")]]
#else
#define ONEPASS_LOCAL_ACCESSOR
#define ONEPASS_LAUNCH_CONSTANTS(...)
#define ONEPASS_KERNEL_ENTRY(kind) __attribute__((noinline))
#define SYCL_EXTERNAL
#endif

// SYCL_EXTERNAL across translation units and libraries (SYCL 2020 §5.10.1,
// issue 17): the functions external_main.cpp's kernels call, each defined
// somewhere else.
#pragma once

#include <sycl/sycl.hpp>

// external_static.cpp, linked from a static library (only because host code
// references it: stage 1 makes the caller's object do so).
SYCL_EXTERNAL float ext_polynomial(float x);
// external_shared.cpp, a shared library built with onepass++.
SYCL_EXTERNAL int ext_twice(int x);
// external_tu2.cpp, another TU of the program; calls ext_twice in turn.
SYCL_EXTERNAL int ext_twice_plus(int x, int y);
// external_hostonly.cpp, compiled without -fsycl-sscp: no device code.
SYCL_EXTERNAL int ext_host_only(int x);

#pragma once
#include <sycl/sycl.hpp>
SYCL_EXTERNAL float callee1(float x, int n);
SYCL_EXTERNAL float callee2(float x, int n);
SYCL_EXTERNAL float callee3(float x, int n);

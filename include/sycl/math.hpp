// SYCL 2020 built-in functions for host and device (§4.17.4-4.17.10), one
// header per section of the spec under builtins/:
//   math.hpp            §4.17.4  math functions (sycl::)
//   native.hpp          §4.17.5  native precision math (sycl::native::)
//   half_precision.hpp  §4.17.6  half precision math (sycl::half_precision::)
//   integer.hpp         §4.17.7  integer functions
//   common.hpp          §4.17.8  common functions
//   geometric.hpp       §4.17.9  geometric functions
//   relational.hpp      §4.17.10 relational functions
// Each takes scalars (float, double, half, or the integer types) and vec,
// swizzles and marray of them, as the spec lists; elementwise.hpp has the
// type lists and the lane-by-lane mechanism they share.
#pragma once

#include "builtins/math.hpp"
#include "builtins/native.hpp"
#include "builtins/half_precision.hpp"
#include "builtins/integer.hpp"
#include "builtins/common.hpp"
#include "builtins/geometric.hpp"
#include "builtins/relational.hpp"

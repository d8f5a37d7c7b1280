#include "external.h"

namespace {
float horner(float x) { return (2.0f * x + 3.0f) * x + 1.0f; }  // internal: comes along
}  // namespace

SYCL_EXTERNAL float ext_polynomial(float x) { return horner(x); }

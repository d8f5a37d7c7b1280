#include "external.h"

SYCL_EXTERNAL int ext_twice_plus(int x, int y) { return ext_twice(x) + y; }

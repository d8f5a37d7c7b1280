#include "external.h"

SYCL_EXTERNAL int ext_twice(int x) { return 2 * x; }

#include "callees.h"
#include "callee.h"
ONEPASS_EXTERNAL_CALLEE(callee2, 2.0f)

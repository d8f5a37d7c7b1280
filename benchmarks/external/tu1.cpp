#include "callees.h"
#include "callee.h"
ONEPASS_EXTERNAL_CALLEE(callee1, 1.0f)

#include "callees.h"
#include "callee.h"
ONEPASS_EXTERNAL_CALLEE(callee3, 3.0f)

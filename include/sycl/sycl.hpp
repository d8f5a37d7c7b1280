// OnePass: SYCL 2020 (revision 10). Include this header to use SYCL.
#pragma once

#include "detail/defines.hpp"
#include "exception.hpp"
#include "info.hpp"
#include "range.hpp"
#include "item.hpp"
#include "property_list.hpp"
#include "device.hpp"
#include "context.hpp"
#include "event.hpp"
#include "handler.hpp"
#include "access.hpp"
#include "buffer.hpp"
#include "accessor.hpp"
#include "queue.hpp"
#include "usm.hpp"
#include "math.hpp"

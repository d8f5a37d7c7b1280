// The parts of <functional>, <iterator> and <mutex> the SYCL headers use:
// std::function, std::hash and the function objects (std::plus...), the
// iterator adaptors and traits (std::reverse_iterator, std::begin...) and
// std::mutex (property::buffer::use_mutex, SYCL 2020 §4.7.2.2).
//
// With libstdc++ they come from its internal headers that define exactly
// them: the full <functional> also brings the C++17 searchers and with them
// <unordered_map>, <iterator> the stream iterators and <mutex> <chrono>,
// about 70 ms of an empty TU's 0.6 s compile on a 2-core machine (issue 16's
// header cost). Any other standard library gets the standard headers. A
// program that uses std::unordered_map, std::chrono or std::istream_iterator
// includes their headers itself, as the C++ standard asks.
#pragma once

#include <cstddef>  // defines __GLIBCXX__ under libstdc++

// (In the order <functional> and <iterator> include them.)
#if defined(__GLIBCXX__) && __has_include(<bits/std_function.h>) && __has_include(<bits/refwrap.h>) && \
    __has_include(<bits/std_mutex.h>) && __has_include(<bits/stl_iterator.h>) && __has_include(<bits/range_access.h>)
#include <bits/stl_function.h>
#include <bits/functional_hash.h>
#include <bits/invoke.h>
#include <bits/refwrap.h>
#include <bits/std_function.h>
#include <bits/std_mutex.h>
#include <bits/stl_iterator_base_types.h>
#include <bits/stl_iterator_base_funcs.h>
#include <bits/stl_iterator.h>
#include <bits/range_access.h>
#else
#include <functional>
#include <iterator>
#include <mutex>
#endif

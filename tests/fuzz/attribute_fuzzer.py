#!/usr/bin/env python3
"""Generative fuzzer of stage 1's kernel attribute reader (issue 21).

The clang plugin reads [[sycl::reqd_work_group_size]], reqd_sub_group_size,
work_group_size_hint and device_has from the attribute's own tokens
(sscp-compiler/plugin/KernelAttributes.cpp): integer literals with
separators and suffixes, constants, template arguments, array elements,
object-like macros (nested, recursive), aspects. It runs inside clang, so it
is fuzzed through the compiler: each round writes a translation unit of
kernels whose attributes have random arguments drawn from hostile token
pools, compiles it with `onepass++ -fsycl-sscp -fsyntax-only`, and requires a
normal end: exit 0 (accepted) or 1 (diagnosed), never a signal, a clang
crash report or an exit code above 1. A failing unit is kept under
<out>/findings/.

  attribute_fuzzer.py --onepass <onepass++> --seconds <n> --out <dir> [--seed <n>]
"""
import argparse
import os
import random
import subprocess
import sys
import time

ATTRIBUTES = ["reqd_work_group_size", "reqd_sub_group_size", "work_group_size_hint", "device_has",
              "reqd_work_group_sise", "device_has_not"]
NUMBERS = ["0", "1", "8", "16", "32", "64", "1024", "4294967296", "18446744073709551615",
           "18446744073709551616", "99999999999999999999999999", "0x40", "0X0", "0b1000", "010", "08",
           "1'024", "1''0", "'", "16u", "16ull", "16uz", "16zu", "1.5", "1e3", "-1", "+8", "0x", "0xffffffffffffffffff",
           "16_km", "(8)", "((16))", "8 + 8", "sizeof(int)", "true", "nullptr", "'a'", "\"8\"", "L'x'"]
NAMES = ["SIZE_MAX", "BIG", "WG", "NEST1", "LOOP_A", "SELF", "EMPTY", "FUNCLIKE", "FUNCLIKE(8)", "kWidth", "kTable[1]",
         "kTable[7]", "kTable[-1]", "kTable[kWidth]", "N", "M", "Missing", "Enum::A", "Enum::Big", "std::size_t",
         "kNegative", "kFloat", "kTable", "::kWidth", "sycl::aspect::gpu", "sycl::aspect::fp64", "sycl::aspect::cpu",
         "aspect::gpu", "sycl::aspect", "sycl::aspect::", "sycl::aspect::nonexistent", "static_cast<int>(8)",
         "sycl::aspect::gpu | sycl::aspect::cpu", "Aspects", "A"]
# Balanced: clang reads an unknown attribute's arguments as balanced tokens,
# and an unbalanced one would end the translation unit's parse before the
# plugin reads anything.
PUNCT = [",", ",,", "()", "(,)", "[]", "[[]]", "::", "<", ">", "<>", "...", "{}", "+", "-", "*", "~", "!", "?", ":"]

PRELUDE = r"""#include <sycl/sycl.hpp>
#include <cstdint>
#define BIG 18446744073709551615ull
#define WG 64
#define NEST1 NEST2
#define NEST2 NEST3
#define NEST3 WG
#define LOOP_A LOOP_B
#define LOOP_B LOOP_A
#define SELF SELF
#define EMPTY
#define FUNCLIKE(x) x
constexpr int kWidth = 2;
constexpr int kNegative = -8;
constexpr float kFloat = 8.0f;
constexpr std::size_t kTable[3] = {8, 16, 32};
enum class Enum : std::uint64_t { A = 16, Big = ~0ull };
template <int N, int M, sycl::aspect A> struct Functor%(index)s {
  int *out;
  void operator()(sycl::nd_item<1> it) const [[sycl::%(functor_attr)s(%(functor_args)s)]] { out[it.get_global_id(0)] = N + M; }
};
"""


def argument(rng):
    pool = rng.choice([NUMBERS, NUMBERS, NAMES, NAMES, PUNCT])
    return rng.choice(pool)


def arguments(rng):
    count = rng.choice([0, 1, 1, 1, 2, 3, 3, 4, 17])
    parts = [argument(rng) for _ in range(count)]
    separator = rng.choice([", ", ",", " , ", " "])
    return separator.join(parts)


def unit(rng, kernels):
    lines = [PRELUDE % {"index": 0, "functor_attr": rng.choice(ATTRIBUTES), "functor_args": arguments(rng)}]
    lines.append("template <int N, int M, sycl::aspect Aspects> void submit(sycl::queue &q, int *out) {")
    for k in range(kernels):
        attributes = "".join("[[sycl::%s(%s)]]" % (rng.choice(ATTRIBUTES), arguments(rng))
                             for _ in range(rng.choice([1, 1, 2])))
        kind = rng.choice(["nd", "nd", "range", "task"])
        if kind == "nd":
            lines.append("  q.parallel_for(sycl::nd_range<1>(64, 8), [=](sycl::nd_item<1> it) %s { out[%d] = N; });"
                         % (attributes, k % 64))
        elif kind == "range":
            lines.append("  q.parallel_for(sycl::range<1>(64), [=](sycl::item<1> it) %s { out[it[0]] = M; });"
                         % attributes)
        else:
            lines.append("  q.single_task([=]() %s { out[%d] = 1; });" % (attributes, k % 64))
    lines.append("  q.parallel_for(sycl::nd_range<1>(64, 8), Functor0<N, M, Aspects>{out});")
    lines.append("}")
    lines.append("int main() {")
    lines.append("  sycl::queue q;")
    lines.append("  int *out = sycl::malloc_shared<int>(64, q);")
    lines.append("  submit<8, %s, sycl::aspect::gpu>(q, out);" % rng.choice(["16", "0", "4294967295", "-1"]))
    lines.append("  sycl::free(out, q);")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--onepass", required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--kernels", type=int, default=40, help="kernels per translation unit")
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else int(time.time())
    rng = random.Random(seed)
    os.makedirs(os.path.join(options.out, "findings"), exist_ok=True)
    source = os.path.join(options.out, "attributes.cpp")
    deadline = time.time() + options.seconds
    units = accepted = diagnosed = 0
    failures = 0
    while time.time() < deadline or units == 0:
        text = unit(rng, options.kernels)
        with open(source, "w") as f:
            f.write(text)
        run = subprocess.run([options.onepass, "-fsycl-sscp", "-fsyntax-only", "-ferror-limit=0", "-w", source],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
        units += 1
        crashed = run.returncode not in (0, 1) or "PLEASE submit a bug report" in run.stderr or \
            "Stack dump" in run.stderr
        if crashed:
            failures += 1
            kept = os.path.join(options.out, "findings", "attributes-%d-%d.cpp" % (seed, units))
            with open(kept, "w") as f:
                f.write(text)
            sys.stdout.write("attribute fuzzer: exit %d on %s:\n%s\n" % (run.returncode, kept, run.stderr[-2000:]))
        elif run.returncode == 0:
            accepted += 1
        else:
            diagnosed += 1
    print("fuzz: kernel_attributes: %d units of %d kernels (%d accepted, %d diagnosed), seed %d: %s"
          % (units, options.kernels, accepted, diagnosed, seed,
             "clean" if failures == 0 else "FAILED (%d crashes; units in %s/findings/)" % (failures, options.out)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Issue 23's compile-time figure: the CTS test files of the given categories
# compiled by onepass++ -fsycl-sscp (their real commands, from the CTS build's
# ninja) against the same commands run by plain clang++-22 on our headers
# (host only: no plugin, no -fsycl-sscp). Compares CPU time (user + sys of the
# whole process tree), which other load on the machine disturbs little; the
# two compiles of a file run back to back.
#
#   bash scripts/cts_compile_ratio.sh <cts-build-dir> <category...>
#   (the CTS build dir of scripts/cts.sh: build/cts/build by default)
# CTS_RATIO_EVERY=K measures every K-th test file of each category (its 1st,
# K+1-th, ...; default 1: all of them), a sample when time is short.
set -euo pipefail
ctsbuild=$(cd "$1" && pwd)
shift
clangxx=${ONEPASS_CLANGXX:-clang++-22}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpu() {  # runs "$@", prints its CPU seconds
  /usr/bin/time -f '%U %S' -o "$work/t" "$@" > "$work/log" 2>&1 || { cat "$work/log" >&2; return 1; }
  awk '{ printf "%.2f\n", $1 + $2 }' "$work/t"
}
total_op=0 total_cl=0 files=0
for cat in "$@"; do
  cat_op=0 cat_cl=0 n=0
  while IFS= read -r cmd; do
    # The compiler is the first word; its headers: <prefix>/include/onepass.
    compiler=${cmd%% *}
    prefix=$(cd "$(dirname "$compiler")/.." && pwd)
    args=${cmd#* }
    args=$(sed -E 's/ -MD / /; s/ -MT [^ ]+/ /; s/ -MF [^ ]+/ /; s/ -o [^ ]+/ -o __OUT__/' <<< "$args")
    op_args=${args//__OUT__/$work/op.o}
    cl_args=$(sed -E 's/ -fsycl-sscp / /' <<< "${args//__OUT__/$work/cl.o}")
    # shellcheck disable=SC2086
    t_op=$(cpu "$compiler" $op_args)
    # shellcheck disable=SC2086
    t_cl=$(cpu "$clangxx" -isystem "$prefix/include/onepass" $cl_args)
    cat_op=$(awk -v a="$cat_op" -v b="$t_op" 'BEGIN { print a + b }')
    cat_cl=$(awk -v a="$cat_cl" -v b="$t_cl" 'BEGIN { print a + b }')
    n=$((n + 1))
  done < <(ninja -C "$ctsbuild" -t commands "bin/test_$cat" | grep -E "^[^ ]*onepass\+\+ .* -c [^ ]*/tests/$cat/" |
    awk -v k="${CTS_RATIO_EVERY:-1}" '(NR - 1) % k == 0')
  printf '%-18s %3d files  onepass++ %8.1f s  clang++ %8.1f s  ratio %.3f\n' "$cat" "$n" "$cat_op" "$cat_cl" \
    "$(awk -v a="$cat_op" -v b="$cat_cl" 'BEGIN { print (b > 0 ? a / b : 0) }')"
  total_op=$(awk -v a="$total_op" -v b="$cat_op" 'BEGIN { print a + b }')
  total_cl=$(awk -v a="$total_cl" -v b="$cat_cl" 'BEGIN { print a + b }')
  files=$((files + n))
done
printf '%-18s %3d files  onepass++ %8.1f s  clang++ %8.1f s  ratio %.3f (target <= 1.10)\n' all "$files" "$total_op" \
  "$total_cl" "$(awk -v a="$total_op" -v b="$total_cl" 'BEGIN { print (b > 0 ? a / b : 0) }')"

#!/bin/sh
# Stands in for clang++ (ONEPASS_CLANGXX) to show exactly which arguments
# onepass++ passes on: each one in <>, on one line.
for arg in "$@"; do printf '<%s> ' "$arg"; done
printf '\n'

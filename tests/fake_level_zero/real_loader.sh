#!/bin/sh
# level_zero.real_loader: the Level Zero backend against the system's loader
# (Debian's libze1) where no Level Zero driver is installed: no device, and
# the GPU selector's error says there is no driver. Exit 77 (skipped) where
# the loader is missing, or where a real device is present.
program=$1
loader=$(/sbin/ldconfig -p 2>/dev/null | awk '/libze_loader\.so\.1 / { print $NF; exit }')
[ -n "$loader" ] || [ ! -e /usr/lib/x86_64-linux-gnu/libze_loader.so.1 ] || loader=/usr/lib/x86_64-linux-gnu/libze_loader.so.1
if [ -z "$loader" ]; then
  echo "SKIPPED: no libze_loader.so.1 on this system (Debian: apt-get install libze1)"
  exit 77
fi
echo "loader: $loader"
exec "$program" no-device "no Level Zero driver"

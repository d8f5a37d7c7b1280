"""Damages the kernel image embedded in a binary, for the corrupt-image tests.

usage: corrupt_image.py <binary> <output> magic|bitcode
  magic    overwrite the image's magic number (caught when the image registers)
  bitcode  flip a byte of the bitcode (caught by the content hash in the JIT)
"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
start = data.find(b"ONEPASSK")
if start < 0:
    sys.exit("no OnePass kernel image in " + sys.argv[1])
if sys.argv[3] == "magic":
    data[start:start + 8] = b"BROKEN!!"
else:
    bitcode_offset, bitcode_size = struct.unpack_from("<QQ", data, start + 64)
    data[start + bitcode_offset + bitcode_size // 2] ^= 0x5A
open(sys.argv[2], "wb").write(bytes(data))

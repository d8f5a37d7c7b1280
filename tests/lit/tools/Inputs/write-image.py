#!/usr/bin/env python3
"""Writes the contents of a .onepass.images section for the onepass-kernels
tests, following the format of common/image/KernelImage.h, so the tool can be
tested without the compiler plugin. Prints each image's id, one per line.

usage: write-image.py OUTPUT [--corrupt]
  Two images separated by zero padding (as a linker concatenates them):
  image 0 holds kernels "Fill" and a lambda, image 1 holds "Scale".
  --corrupt flips a byte in image 1's bitcode (its content hash then fails).
"""
import struct
import sys

FNV_OFFSET = 0xCBF29CE484222325
ID_SEED = 0x6F6E65706173731F
KIND_SINGLE_TASK, KIND_PARALLEL_FOR = 0, 1
FIELD_INT, FIELD_FLOAT, FIELD_POINTER = 0, 1, 2


def fnv1a(data, seed=FNV_OFFSET):
    value = seed
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def pad8(data):
    return data + b"\0" * (-len(data) % 8)


def write_image(kernels, bitcode):
    """kernels: dicts with symbol, name, file, line, column, kind, dims,
    size, align, fields [(offset, size, kind)]."""
    strings = bytearray()

    def add_string(text):
        offset = len(strings)
        strings.extend(text.encode())
        return offset, len(text.encode())

    kernel_table, field_table = b"", b""
    field_count = 0
    for k in kernels:
        refs = [add_string(k[key]) for key in ("symbol", "name", "file")]
        kernel_table += struct.pack(
            "<6I14I", *[x for ref in refs for x in ref], k["line"], k["column"], k["kind"],
            k["dims"], field_count, len(k["fields"]), k["size"], k["align"], 0, 0, 0, 0, 0, 0)
        for offset, size, kind in k["fields"]:
            field_table += struct.pack("<4I", offset, size, kind, 0)
        field_count += len(k["fields"])

    header_size = 96
    kernel_offset = header_size
    field_offset = kernel_offset + len(kernel_table)
    string_offset = field_offset + len(field_table)
    body = pad8(kernel_table + field_table + bytes(strings))
    bitcode_offset = header_size + len(body)
    body = pad8(body + bitcode)
    header = struct.pack(
        "<8sIIQQQIIIIIIQQQII", b"ONEPASSK", 2, 0, header_size + len(body), fnv1a(body),
        fnv1a(body, ID_SEED), len(kernels), field_count, kernel_offset, field_offset,
        string_offset, len(strings), bitcode_offset, len(bitcode), len(bitcode), 0, 0)
    assert len(header) == header_size
    return header + body, fnv1a(body, ID_SEED)


def main():
    output = sys.argv[1]
    corrupt = "--corrupt" in sys.argv[2:]
    fill = dict(symbol="_ZTS4Fill", name="Fill", file="/src/fill.cpp", line=12, column=7,
                kind=KIND_PARALLEL_FOR, dims=1, size=24, align=8,
                fields=[(0, 8, FIELD_POINTER), (8, 4, FIELD_FLOAT), (16, 8, FIELD_INT)])
    task = dict(symbol="_ZTSZ4mainEUlvE_", name="lambda at /src/fill.cpp:20:3",
                file="/src/fill.cpp", line=20, column=3, kind=KIND_SINGLE_TASK, dims=0,
                size=0, align=1, fields=[])
    scale = dict(symbol="_ZTS5Scale", name="Scale", file="scale.cpp", line=5, column=9,
                 kind=KIND_PARALLEL_FOR, dims=3, size=16, align=8,
                 fields=[(0, 8, FIELD_POINTER), (8, 8, FIELD_FLOAT)])
    first, first_id = write_image([fill, task], b"BC\xc0\xde first module")
    second, second_id = write_image([scale], b"BC\xc0\xde second module!")
    if corrupt:
        second = bytearray(second)
        second[-12] ^= 0xFF
    with open(output, "wb") as out:
        out.write(first + b"\0" * 16 + bytes(second))
    print("%016x" % first_id)
    print("%016x" % second_id)


if __name__ == "__main__":
    main()

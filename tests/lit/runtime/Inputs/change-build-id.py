# Copies an ELF file with the last byte of its GNU build ID changed (another
# "build" of the same code, for the cache's JIT identity test).
import sys

data = bytearray(open(sys.argv[1], "rb").read())
marker = data.find(b"GNU\0", 0, 1 << 16)  # the build-id note's name, in the first pages
while marker >= 0:
    # Elf64_Nhdr (namesz, descsz, type) precedes the name; NT_GNU_BUILD_ID is 3.
    namesz, descsz, kind = (int.from_bytes(data[marker - 12 + 4 * i:marker - 8 + 4 * i], "little") for i in range(3))
    if namesz == 4 and kind == 3 and 0 < descsz <= 64:
        data[marker + 4 + descsz - 1] ^= 0xFF
        open(sys.argv[2], "wb").write(data)
        sys.exit(0)
    marker = data.find(b"GNU\0", marker + 1, 1 << 16)
sys.exit("no GNU build ID in " + sys.argv[1])

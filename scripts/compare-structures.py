#!/usr/bin/env python3
"""Compares the sections of two index structures files byte for byte (the header's build id aside).

    scripts/compare-structures.py A.structures B.structures

Prints each section that differs, or is in one file only, and how many agree; exits 1 when any differs. Made for
work on the import: a reshaped build must write the same structures from the same data.
"""
import struct
import sys


def sections(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"PINDROPS":
        sys.exit(f"{path} is not a Pindrop structures file")
    count = struct.unpack_from("<I", data, 12)[0]
    found = {}
    for i in range(count):
        entry = data[64 + 64 * i: 128 + 64 * i]
        name = entry[:44].rstrip(b"\0").decode()
        stride, offset, size = struct.unpack_from("<IQQ", entry, 44)
        found[name] = (stride, data[offset:offset + size])
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = sections(sys.argv[1]), sections(sys.argv[2])
    differ = 0
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            print(f"{name}: only in {'the second' if name not in a else 'the first'}")
            differ += 1
        elif a[name] != b[name]:
            print(f"{name}: differs ({len(a[name][1])} and {len(b[name][1])} bytes)")
            differ += 1
    print(f"{len(set(a) & set(b)) - differ} of {len(set(a) | set(b))} sections the same")
    sys.exit(1 if differ else 0)


main()

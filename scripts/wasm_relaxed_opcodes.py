#!/usr/bin/env python3
"""Rewrite relaxed-SIMD fused multiply-adds from the proposal's early opcodes to
the standard ones, in place, in a linked .wasm file.

Why: Debian's Emscripten 3.1.6 (clang 14, binaryen 108) emits relaxed SIMD with
the numbering of the proposal in 2022 (f32x4.fma = 0xfd 0xaf 0x01); engines
shipped the final numbering (f32x4.relaxed_madd = 0xfd 0x85 0x02) and reject
the old one. Both encodings are three bytes, and both compute a * b + c from
the stack order a b c, so the rewrite is the opcode and nothing else.

The code section is decoded instruction by instruction (not searched for a byte
pattern, which could match inside an immediate such as a v128.const), so only
real instructions are rewritten. Anything the decoder does not know stops it
with a message instead of guessing.

    python3 scripts/wasm_relaxed_opcodes.py build/wasm/glass_core_fma.wasm
"""
import sys

# SIMD sub-opcodes (after 0xfd) and their replacements: (old, new)
# (only the one the core emits, whose semantics were checked: a * b + c)
REWRITES = {
    0xAF: 0x105,  # f32x4.fma -> f32x4.relaxed_madd
}


class Reader:
    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uleb(self):
        # (signed LEB128 immediates have the same length; the decoder only skips them)
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return result

    def skip(self, n):
        self.pos += n


def uleb_bytes(v, width):
    """v as unsigned LEB128 padded to exactly `width` bytes."""
    out = []
    for i in range(width):
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if i < width - 1 else 0))
    if v:
        raise ValueError("value does not fit")
    return bytes(out)


def memarg(r):
    r.uleb()  # align (and memory index flag bits, 0 here)
    r.uleb()  # offset


def blocktype(r):
    b = r.data[r.pos]
    if b == 0x40 or b in (0x7F, 0x7E, 0x7D, 0x7C, 0x7B, 0x70, 0x6F):
        r.skip(1)
    else:
        r.uleb()  # a type index (s33)


def simd(r, patches):
    start = r.pos  # first byte of the LEB sub-opcode
    op = r.uleb()
    width = r.pos - start
    if op in REWRITES:
        new = REWRITES[op]
        if len(uleb_bytes(new, 2)) != width:
            raise ValueError(f"opcode 0xfd {op:#x} at byte {start} is {width} bytes long, its replacement 2")
        patches.append((start, uleb_bytes(new, width), op))
        return
    if op <= 0x0B or op in (0x5C, 0x5D):  # loads, stores, load_zero
        memarg(r)
    elif op in (0x0C, 0x0D):  # v128.const, i8x16.shuffle
        r.skip(16)
    elif 0x15 <= op <= 0x22:  # extract_lane / replace_lane
        r.skip(1)
    elif 0x54 <= op <= 0x5B:  # load_lane / store_lane
        memarg(r)
        r.skip(1)
    elif op <= 0x113:  # every other SIMD and relaxed SIMD op has no immediate
        pass
    else:
        raise ValueError(f"unknown SIMD opcode 0xfd {op:#x} at byte {start}")


def misc(r):
    op = r.uleb()
    if op <= 7:  # saturating truncations
        return
    if op == 8:  # memory.init data 0
        r.uleb()
        r.byte()
    elif op in (9, 13, 15, 16, 17):  # data.drop, elem.drop, table.grow/size/fill
        r.uleb()
    elif op == 10:  # memory.copy 0 0
        r.byte()
        r.byte()
    elif op == 11:  # memory.fill 0
        r.byte()
    elif op in (12, 14):  # table.init elem table, table.copy table table
        r.uleb()
        r.uleb()
    else:
        raise ValueError(f"unknown 0xfc opcode {op} at byte {r.pos}")


def atomic(r):  # the threads proposal (builds with -pthread)
    op = r.uleb()
    if op == 0x03:  # atomic.fence 0
        r.byte()
    elif op <= 0x02 or 0x10 <= op <= 0x4E:  # notify, waits, loads, stores, read-modify-writes
        memarg(r)
    else:
        raise ValueError(f"unknown 0xfe opcode {op:#x} at byte {r.pos}")


def function_body(r, end, patches):
    for _ in range(r.uleb()):  # local declarations
        r.uleb()
        r.byte()
    while r.pos < end:
        op = r.byte()
        if op in (0x02, 0x03, 0x04, 0x06):  # block loop if try
            blocktype(r)
        elif op in (0x07, 0x08, 0x09, 0x0C, 0x0D, 0x10, 0x18, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0xD2):
            r.uleb()  # one index
        elif op == 0x0E:  # br_table
            for _ in range(r.uleb() + 1):
                r.uleb()
        elif op == 0x11:  # call_indirect type table
            r.uleb()
            r.uleb()
        elif op == 0x1C:  # typed select
            r.skip(r.uleb())
        elif 0x28 <= op <= 0x3E:
            memarg(r)
        elif op in (0x3F, 0x40):
            r.byte()
        elif op in (0x41, 0x42):  # i32.const, i64.const
            r.uleb()
        elif op == 0x43:
            r.skip(4)
        elif op == 0x44:
            r.skip(8)
        elif op == 0xD0:  # ref.null type
            r.byte()
        elif op == 0xFC:
            misc(r)
        elif op == 0xFD:
            simd(r, patches)
        elif op == 0xFE:
            atomic(r)
        elif op in (0x00, 0x01, 0x05, 0x0B, 0x0F, 0x19, 0x1A, 0x1B, 0xD1) or 0x45 <= op <= 0xC4:
            pass  # no immediates
        else:
            raise ValueError(f"unknown opcode {op:#x} at byte {r.pos - 1}")
    if r.pos != end:
        raise ValueError(f"a function body overran its size (at byte {r.pos}, end {end})")


def rewrite(data):
    """Returns (new bytes, {old opcode: count})."""
    if data[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    r = Reader(data, 8)
    patches = []
    while r.pos < len(data):
        section = r.byte()
        size = r.uleb()
        end = r.pos + size
        if section == 10:  # code
            for _ in range(r.uleb()):
                body_size = r.uleb()
                function_body(r, r.pos + body_size, patches)
        r.pos = end
    out = bytearray(data)
    counts = {}
    for at, replacement, old in patches:
        out[at : at + len(replacement)] = replacement
        counts[old] = counts.get(old, 0) + 1
    return bytes(out), counts


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wasm_relaxed_opcodes.py FILE.wasm")
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = f.read()
    try:
        new, counts = rewrite(data)
    except (ValueError, IndexError) as e:
        sys.exit(f"wasm_relaxed_opcodes.py: {path}: {e}")
    if not counts:
        sys.exit(f"wasm_relaxed_opcodes.py: {path}: no relaxed fused multiply-add found (was it built with -mrelaxed-simd?)")
    with open(path, "wb") as f:
        f.write(new)
    print(f"wasm_relaxed_opcodes.py: {path}: " + ", ".join(f"{n} x 0xfd {op:#x}" for op, n in sorted(counts.items())) + " rewritten")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Check the C++ layering rule: cpp/glass/tensor/ includes nothing from nn/,
train/ or io/ (nor glass/glass.h, which includes nn/), only glass/tensor/ and
system headers.

The tensor library is the bottom layer: nn/ builds the model from it, io/ and
train/ build on nn/. An include going the other way would make the core depend
on the model, and a small change there rebuild (and possibly break) everything.

    python3 scripts/check_cpp_layers.py              # this repository (a ctest)
    python3 scripts/check_cpp_layers.py --root DIR   # DIR/cpp/glass/... instead

Exits 1 and names every offending include (file:line) if the rule is broken.
"""
import re
import sys
from pathlib import Path

# layer (a folder of cpp/glass/) -> the project folders its files may include from
ALLOWED = {
    "tensor": ("glass/tensor/",),
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCES = ("*.h", "*.cpp", "*.inc")


def violations(root):
    for layer, allowed in ALLOWED.items():
        folder = root / "cpp/glass" / layer
        files = sorted(p for pattern in SOURCES for p in folder.rglob(pattern))
        for path in files:
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                quoted, target = m.group(1) == '"', m.group(2)
                if not quoted and not target.startswith("glass/"):
                    continue  # <vector>, <emscripten/val.h>: not the project's
                # a project include is glass/... or (quoted) relative to the file itself
                resolved = target if target.startswith("glass/") else _relative(root, path, target)
                if not resolved.startswith(allowed):
                    yield (f"{path.relative_to(root)}:{number}: #include \"{target}\": the {layer} layer "
                           f"may include only {', '.join(allowed)} (nothing from nn/, train/, io/)")


def _relative(root, path, target):
    """glass/... path of an include written relative to the including file."""
    full = (path.parent / target).resolve()
    try:
        return str(full.relative_to((root / "cpp").resolve()))
    except ValueError:
        return target  # outside cpp/: not a project header we can place


def main(argv):
    root = Path(__file__).resolve().parent.parent
    if len(argv) == 3 and argv[1] == "--root":
        root = Path(argv[2]).resolve()
    elif len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    found = list(violations(root))
    for v in found:
        print(f"layer rule broken: {v}", file=sys.stderr)
    if not found:
        print("layer rule holds: " + "; ".join(f"cpp/glass/{k}/ includes only {', '.join(v)}" for k, v in ALLOWED.items()))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

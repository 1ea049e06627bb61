#!/usr/bin/python3
"""Run many reference cases in one Python process (scripts/test_reference.sh).

    /usr/bin/python3 tests/reference/run_cases.py CASES.jsonl

Each line of CASES.jsonl is {"title": ..., "script": "compare_with_torch.py", "args": [...]}:
a script of this folder and the command-line arguments it would get. Importing torch
takes about 1.6 s, and the stage has some forty cases: here it is imported once,
and each case runs the script's main() with its arguments, as its own command would.

A case's result is its last "N passed, M failed" line; a case without one (it
stopped early), or that exits non-zero while saying "0 failed", counts one more
failure. make_weights.py writes a file and prints no result: it passes when it
exits 0. Ends with "cases: P passed, F failed" (P, F count tensor comparisons)
and exits 1 when F > 0.

Nothing a case sets lingers into the next: each script sets torch's thread count
itself, and the one module-level switch (torch_model.ROPE_PAIRING, set by
--negative-control) is refused here; that case runs in a process of its own.
"""
import importlib
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

RESULT = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


class Tee(io.TextIOBase):
    """Writes to the real stdout and keeps a copy (the case's result line is read from it)."""

    def __init__(self, out):
        self.out, self.kept = out, io.StringIO()

    def write(self, s):
        self.kept.write(s)
        return self.out.write(s)

    def flush(self):
        self.out.flush()


def run(script, args):
    """(exit status, what it printed) of script's main() with args."""
    module = importlib.import_module(script[:-3])
    tee = Tee(sys.stdout)
    real_argv, real_stdout = sys.argv, sys.stdout
    sys.argv, sys.stdout = [os.path.join(HERE, script), *args], tee
    rc = 0
    try:
        module.main()
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if isinstance(e.code, str):
            print(e.code)
    except Exception as e:  # a case that raises is reported and the batch goes on
        print("  FAIL: %s raised %s: %s" % (script, type(e).__name__, e))
        rc = 1
    finally:
        sys.argv, sys.stdout = real_argv, real_stdout
        sys.stdout.flush()
    return rc, tee.kept.getvalue()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: run_cases.py CASES.jsonl")
    passed = failed = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    for case in cases:
        script, args = case["script"], case["args"]
        print("\033[1;34m==>\033[0m reference: %s" % case["title"], flush=True)
        if "--negative-control" in args:
            print("  FAIL: --negative-control changes the torch model for every later case: run it alone")
            failed += 1
            continue
        rc, out = run(script, args)
        if script == "make_weights.py":
            if rc != 0:
                print("  (make_weights.py failed, exit %d)" % rc)
                failed += 1
            continue
        results = RESULT.findall(out)
        if not results:
            print("  (no result line: the comparison did not finish, exit %d)" % rc)
            failed += 1
            continue
        p, m = (int(x) for x in results[-1])
        passed += p
        failed += m
        if rc != 0 and m == 0:
            failed += 1
    print("cases: %d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()

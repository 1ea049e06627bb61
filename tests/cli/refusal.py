"""What every refused glassllm command must look like, shared by the CLI tests
(tests/cli/test_cli.py) and the generated bad-input cases (tests/bad_input/cli_cases.py)."""


def refusal_problems(rc, err, want_rc, fragments):
    """The ways a refusal went wrong: a signal or crash, the wrong exit code (2 usage,
    1 error), a missing message fragment, or a usage error without the usage text."""
    problems = []
    if rc < 0 or rc >= 128:
        problems.append(f"crashed (exit {rc})")
    elif rc != want_rc:
        problems.append(f"exit {rc}, want {want_rc}")
    for fr in fragments:
        if fr not in err:
            problems.append(f"stderr lacks {fr!r}")
    if want_rc == 2 and "usage: glassllm" not in err:
        problems.append("no usage text")
    return problems

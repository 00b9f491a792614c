#!/usr/bin/env python3
"""Fails when a `try?` in the given source folders carries no reason.

A `try?` throws an error away, which is right only where the answer does not matter; the
reason is a comment on the same line or directly above the statement (issue 44). Run with
--self-test to see that it can fail.

    Scripts/check-try-reasons.py Sources/MPOSKit Sources/SandboxGateway
"""
import pathlib
import re
import sys

TRY = re.compile(r"\btry\?")


def unexplained(text):
    """The 1-based lines of `text` whose `try?` has no comment beside or above it."""
    lines = text.split("\n")
    found = []
    for index, line in enumerate(lines):
        code = line.split("//")[0]
        if not TRY.search(code) or "//" in line:
            continue
        # Up through the statement's earlier lines (at most four) to a comment line.
        above = index - 1
        explained = False
        while above >= 0 and above >= index - 4:
            stripped = lines[above].strip()
            if stripped.startswith("//"):
                explained = True
                break
            if not stripped or stripped.endswith("{") or stripped.endswith("}"):
                break
            above -= 1
        if not explained:
            found.append(index + 1)
    return found


def self_test():
    assert unexplained("let a = try? f()\n") == [1]
    assert unexplained("// Best effort: a lost cache is rebuilt.\nlet a = try? f()\n") == []
    assert unexplained("let a = try? f()  // gone is gone\n") == []
    assert unexplained("var current: JournalEntry?\n") == []
    assert unexplained("// why\nfoo(\n    try? f())\n") == []
    assert unexplained("x {\n    try? f()\n}\n") == [2]
    print("check-try-reasons self-test: ok")


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        return 0
    problems = []
    for root in argv[1:]:
        for path in sorted(pathlib.Path(root).rglob("*.swift")):
            for line in unexplained(path.read_text()):
                problems.append(f"{path}:{line}: a try? without a reason (a comment beside or above it)")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} try? without a reason", file=sys.stderr)
        return 1
    print("every try? says why")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

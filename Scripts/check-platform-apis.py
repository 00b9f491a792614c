#!/usr/bin/env python3
"""Fails when a target uses an API that the platforms in Package.swift do not have.

CI builds on Linux only, where every standard library and Foundation API compiles without an
availability check, so an API newer than the declared iOS / macOS versions (or a module that
exists on Linux only) would first fail in an app's Xcode build. This script reads the declared
platforms from Package.swift and scans every Swift file under Sources/ and Benchmarks/ for the
APIs in the table below. It also holds the package to one lock type, `Synchronization.Mutex`.

    Scripts/check-platform-apis.py [PACKAGE_DIR]      # exit 0 clean, 1 with a line per use
    Scripts/check-platform-apis.py --self-test        # proves the check can fail

A use that is guarded on purpose (inside `if #available` or an `@available` declaration) carries
`// platform-api: guarded` on its line or the line above it.
"""

import os
import re
import shutil
import sys
import tempfile

# (pattern, what it is, minimum iOS, minimum macOS). Versions from Apple's documentation of each
# symbol; the Span family itself back-deploys, but the properties that vend spans do not.
NEWER_APIS = [
    (r"\bimport\s+Synchronization\b", "the Synchronization module (Mutex, Atomic)", 18, 15),
    (r"\bInt128\b|\bUInt128\b", "Int128 / UInt128", 18, 15),
    (r"\bString\(\s*validating:", "String(validating:)", 18, 15),
    (r"\bTaskExecutor\b|\bwithTaskExecutorPreference\b", "task executors", 18, 15),
    (r"\bwith(Throwing)?DiscardingTaskGroup\b", "discarding task groups", 17, 14),
    (r"\bimport\s+Observation\b|@Observable\b", "the Observation module", 17, 14),
    (r"\bContinuousClock\b|\bSuspendingClock\b|\bDuration\b", "Clock and Duration", 16, 13),
    (r"\bRegex\b|\bRegexBuilder\b", "Regex", 16, 13),
    (r"\bInlineArray\b", "InlineArray", 26, 26),
    (r"\bUTF8Span\b|\bOutputSpan\b|\bOutputRawSpan\b", "UTF8Span / OutputSpan", 26, 26),
    (r"\.(span|mutableSpan|utf8Span)\b", "span properties of the standard library", 26, 26),
    (r"\bTask\.immediate\b|\bTask\s*\.\s*startSynchronously\b", "Task.immediate", 26, 26),
    (r"\bObservations\b", "Observations", 26, 26),
]

# Modules that exist on Linux only: an import needs `#if canImport(...)` (or `#if os(Linux)`).
LINUX_ONLY_MODULES = ["Glibc", "Musl", "FoundationNetworking", "FoundationEssentials", "FoundationInternationalization"]

# One lock type across the package: Synchronization.Mutex. These are the others it replaced.
OTHER_LOCKS = r"\bNSLock\b|\bNSRecursiveLock\b|\bpthread_mutex_\w+|\bos_unfair_lock\w*|\bOSAllocatedUnfairLock\b"

GUARD_MARK = "platform-api: guarded"
SCANNED = ["Sources", "Benchmarks"]


def declared_platforms(package_swift):
    text = open(package_swift, encoding="utf-8").read()
    found = {}
    for name, major in re.findall(r"\.(iOS|macOS)\(\s*\.v(\d+)", text):
        found[name] = int(major)
    missing = {"iOS", "macOS"} - found.keys()
    if missing:
        raise SystemExit(f"check-platform-apis: Package.swift declares no {', '.join(sorted(missing))} platform")
    return found["iOS"], found["macOS"]


def strip_comment(line):
    # Good enough for this code base: no `//` inside the string literals that hold these names.
    return line.split("//", 1)[0]


def guarded_import(lines, index, module):
    """True when the import at lines[index] sits in a `#if canImport(module)` / `#if os(Linux)` branch."""
    depth = 0
    for previous in reversed(lines[:index]):
        stripped = previous.strip()
        if stripped.startswith("#endif"):
            depth += 1
        elif stripped.startswith("#if"):
            if depth == 0:
                return f"canImport({module})" in stripped or "os(Linux)" in stripped
            depth -= 1
        elif stripped.startswith("#elseif") and depth == 0:
            return f"canImport({module})" in stripped or "os(Linux)" in stripped
        elif stripped.startswith("#else") and depth == 0:
            return False
    return False


def scan(package_dir):
    ios, macos = declared_platforms(os.path.join(package_dir, "Package.swift"))
    problems = []
    for top in SCANNED:
        root = os.path.join(package_dir, top)
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                lines = open(path, encoding="utf-8").read().split("\n")
                relative = os.path.relpath(path, package_dir)
                for index, line in enumerate(lines):
                    if GUARD_MARK in line or (index > 0 and GUARD_MARK in lines[index - 1]):
                        continue
                    code = strip_comment(line)
                    for pattern, what, need_ios, need_macos in NEWER_APIS:
                        if re.search(pattern, code) and (need_ios > ios or need_macos > macos):
                            problems.append(
                                f"{relative}:{index + 1}: {what} needs iOS {need_ios} / macOS {need_macos}, "
                                f"Package.swift declares iOS {ios} / macOS {macos}")
                    if re.search(OTHER_LOCKS, code):
                        problems.append(f"{relative}:{index + 1}: a lock other than Synchronization.Mutex")
                    match = re.match(r"\s*(@\w+\s+)*import\s+(\w+)", code)
                    if match and match.group(2) in LINUX_ONLY_MODULES and not guarded_import(lines, index, match.group(2)):
                        problems.append(
                            f"{relative}:{index + 1}: `import {match.group(2)}` exists on Linux only; "
                            f"put it under `#if canImport({match.group(2)})`")
    return problems


def self_test():
    """Runs the check on packages it writes, and fails unless each verdict is the expected one."""
    cases = [
        ("iOS(.v17), .macOS(.v14)", "import Synchronization\n", 1),
        ("iOS(.v18), .macOS(.v15)", "import Synchronization\nlet m = Mutex(0)\n", 0),
        ("iOS(.v18), .macOS(.v15)", "let a: InlineArray<4, UInt8> = [1, 2, 3, 4]\n", 1),
        ("iOS(.v18), .macOS(.v15)", "let s = bytes.span\n", 1),
        ("iOS(.v18), .macOS(.v15)", "// InlineArray in a comment is fine\n", 0),
        ("iOS(.v18), .macOS(.v15)", "// platform-api: guarded\nlet s = bytes.span\n", 0),
        ("iOS(.v18), .macOS(.v15)", "import Glibc\n", 1),
        ("iOS(.v18), .macOS(.v15)", "private let lock = NSLock()\n", 1),
        ("iOS(.v18), .macOS(.v15)", "#if canImport(Glibc)\n    import Glibc\n#elseif canImport(Darwin)\n    import Darwin\n#endif\n", 0),
        ("iOS(.v18), .macOS(.v15)", "#if canImport(Darwin)\n    import Darwin\n#else\n    import Glibc\n#endif\n", 1),
        ("iOS(.v18), .macOS(.v15)", "#if canImport(FoundationNetworking)\n    import FoundationNetworking\n#endif\n", 0),
    ]
    failures = 0
    for number, (platforms, source, expected) in enumerate(cases, 1):
        directory = tempfile.mkdtemp(prefix="platform-apis-")
        try:
            ios_part, macos_part = platforms.split(", ")
            open(os.path.join(directory, "Package.swift"), "w").write(
                f"// swift-tools-version: 6.1\nlet package = Package(name: \"P\", platforms: [.{macos_part.lstrip('.')}, .{ios_part}])\n")
            os.makedirs(os.path.join(directory, "Sources", "P"))
            open(os.path.join(directory, "Sources", "P", "File.swift"), "w").write(source)
            found = len(scan(directory))
            if found != expected:
                failures += 1
                print(f"self-test case {number}: expected {expected} problem(s), found {found}: {source!r}")
        finally:
            shutil.rmtree(directory)
    print(f"{len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    package_dir = arguments[0] if arguments else os.path.join(os.path.dirname(__file__), "..")
    problems = scan(package_dir)
    for problem in problems:
        print(problem)
    ios, macos = declared_platforms(os.path.join(package_dir, "Package.swift"))
    print(f"check-platform-apis: {len(problems)} use(s) newer than iOS {ios} / macOS {macos}, Linux-only or another lock")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

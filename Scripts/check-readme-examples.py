#!/usr/bin/env python3
"""Fails when the README's Swift examples differ from the copies that the build compiles.

Every ```swift block of README.md is copied, verbatim, into a file of Tests/ReadmeExampleTests
between `// README example N begin` and `// README example N end` (N counts the blocks from 1),
inside a function that names what the README leaves to the app. `swift build --build-tests`
compiles those files, so an example that stops compiling fails CI; this script makes sure that
what is compiled is what the README shows, and that a file imports exactly what its examples
import (plus `Testing`), so that a module MPOSKit forgets to export cannot sneak in.

    Scripts/check-readme-examples.py [PACKAGE_DIR]    # exit 0 clean, 1 with a line per problem
    Scripts/check-readme-examples.py --self-test      # proves the check can fail
"""

import os
import re
import shutil
import sys
import tempfile
import textwrap

EXAMPLES_DIR = os.path.join("Tests", "ReadmeExampleTests")
IMPORT = re.compile(r"^\s*import\s+(\w+)\s*$")
MARKER = re.compile(r"^\s*// README example (\d+) (begin|end)\s*$")
# The test framework the example files may use beside what the examples import.
ALLOWED_EXTRA_IMPORTS = {"Testing"}


def readme_blocks(text):
    """The ```swift blocks, in order, each as (imports, body lines) with the leading imports apart."""
    blocks, current = [], None
    for line in text.splitlines():
        if current is None:
            if line.strip() == "```swift":
                current = []
        elif line.strip() == "```":
            imports = []
            while current and (IMPORT.match(current[0]) or (imports and not current[0].strip())):
                if current[0].strip():
                    imports.append(IMPORT.match(current[0]).group(1))
                current.pop(0)
            blocks.append((imports, current))
            current = None
        else:
            current.append(line)
    return blocks


def example_files(directory):
    """Per Swift file: its imports and the marked regions, as {number: dedented body lines}."""
    files = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".swift"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        imports = {IMPORT.match(line).group(1) for line in lines if IMPORT.match(line)}
        regions, open_number, region = {}, None, []
        for line in lines:
            marker = MARKER.match(line)
            if marker and marker.group(2) == "begin":
                open_number, region = int(marker.group(1)), []
            elif marker and open_number is not None:
                regions[open_number] = textwrap.dedent("\n".join(region)).splitlines()
                open_number = None
            elif open_number is not None:
                region.append(line)
        files[name] = (imports, regions)
    return files


def check(package_dir):
    """Problems, one line each; none when every block has an identical, honestly imported copy."""
    with open(os.path.join(package_dir, "README.md"), encoding="utf-8") as handle:
        blocks = readme_blocks(handle.read())
    directory = os.path.join(package_dir, EXAMPLES_DIR)
    files = example_files(directory) if os.path.isdir(directory) else {}
    problems, found = [], {}
    for name, (_, regions) in files.items():
        for number in regions:
            found.setdefault(number, []).append(name)
    for number, (imports, body) in enumerate(blocks, start=1):
        names = found.pop(number, [])
        if len(names) != 1:
            problems.append(f"README example {number}: {len(names)} copies in {EXAMPLES_DIR} (want 1)")
            continue
        file_imports, regions = files[names[0]]
        copy = regions[number]
        if [line.rstrip() for line in copy] != [line.rstrip() for line in body]:
            line = next(
                (i for i, (a, b) in enumerate(zip(copy, body)) if a.rstrip() != b.rstrip()),
                min(len(copy), len(body)))
            problems.append(
                f"README example {number} differs from {names[0]} at its line {line + 1}: "
                f"README {body[line] if line < len(body) else '<end>'!r}, "
                f"test {copy[line] if line < len(copy) else '<end>'!r}")
        for module in imports:
            if module not in file_imports:
                problems.append(f"README example {number} imports {module}; {names[0]} does not")
    for number, names in found.items():
        problems.append(f"{', '.join(names)}: README example {number} does not exist in README.md")
    for name, (file_imports, regions) in files.items():
        shown = {module for number in regions if number <= len(blocks) for module in blocks[number - 1][0]}
        for module in sorted(file_imports - shown - ALLOWED_EXTRA_IMPORTS):
            problems.append(f"{name} imports {module}, which none of its README examples imports")
    return problems


def self_test():
    """Runs the check on packages it writes, and fails unless each verdict is the expected one."""
    readme = "```swift\nimport MPOSKit\n\nlet a = 1\n```\n\n```swift\nprint(a)\n```\n"
    good = (
        "import MPOSKit\nfunc one() {\n    // README example 1 begin\n    let a = 1\n"
        "    // README example 1 end\n    // README example 2 begin\n    print(a)\n"
        "    // README example 2 end\n}\n")
    cases = [
        (readme, good, 0),
        (readme.replace("let a = 1", "let a = 2"), good, 1),
        (readme, good.replace("import MPOSKit", "import MPOSKit\nimport GatewayAPI"), 1),
        (readme.replace("import MPOSKit\n", "import MPOSKit\nimport ReaderLinkTCP\n"), good, 1),
        (readme + "```swift\nlet b = 2\n```\n", good, 1),
        (readme.replace("```swift\nprint(a)\n```\n", ""), good, 1),
    ]
    failures = 0
    for number, (readme_text, example, expected) in enumerate(cases, start=1):
        directory = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(directory, EXAMPLES_DIR))
            with open(os.path.join(directory, "README.md"), "w", encoding="utf-8") as handle:
                handle.write(readme_text)
            with open(os.path.join(directory, EXAMPLES_DIR, "Examples.swift"), "w", encoding="utf-8") as handle:
                handle.write(example)
            found = check(directory)
            if len(found) != expected:
                failures += 1
                print(f"self-test case {number}: expected {expected} problem(s), found {found}")
        finally:
            shutil.rmtree(directory)
    print(f"{len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    package_dir = arguments[0] if arguments else os.path.join(os.path.dirname(__file__), "..")
    problems = check(package_dir)
    for problem in problems:
        print(problem)
    if not problems:
        print("README examples match their compiled copies")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

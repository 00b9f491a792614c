#!/usr/bin/env python3
"""Fails when docs/seed-coverage.md says something the tests do not back.

The document holds one table per seed manual (`## <seed>` and a table whose columns are
capability | status | tests | notes) and, before the tables, one totals line per seed:
`- **<seed>**: N capabilities: a Y, b P, c –`. This script checks that

  * every seed has its table and its totals line, and the totals are the counts of its rows;
  * the line `In all, N capabilities: a Y, b P and c –.` adds up every table;
  * every status is `Y`, `P` or `–` (an en dash), alone in its column;
  * every `Y` or `P` row names at least one test in backticks;
  * every named test exists: a Swift test function (`func NAME(` under a `@Test` attribute in a
    Swift file under Tests/), a Python test function (`def NAME(` in a .py file under Tests/),
    or a file of that name under Tests/ (`NAMETests.swift`, `test_name.py`);
  * every `Y` row names at least one test that runs on Linux CI: not compiled only for Apple
    platforms (`#if os(iOS)`, `#if canImport(UIKit)` …), not `.disabled`, and enabled only on
    a condition `.ci/run` meets (the package it installs: zbar-tools, postgresql, strace).

    Scripts/check-seed-coverage.py [PACKAGE_DIR]    # exit 0 clean, 1 with a line per problem
    Scripts/check-seed-coverage.py --self-test      # proves each check can fail
"""

import os
import re
import shutil
import sys
import tempfile

DOCUMENT = os.path.join("docs", "seed-coverage.md")
TESTS = "Tests"
SEEDS = ["Wirecard Accept", "Handpoint Heft", "PaySimple ECP", "EVO Snap TSM", "Adyen POS Mobile"]
# What developers coming from these SDKs expect that no seed has: checked as a seed's table
# is, and counted apart from the manuals' grand total.
PEERS = "Stripe Terminal and Square"
STATUSES = ("Y", "P", "\u2013")
TOTALS = re.compile(
    r"^- \*\*(?P<seed>[^*]+)\*\*: (?P<rows>\d+) capabilities: (?P<Y>\d+) Y, (?P<P>\d+) P, (?P<absent>\d+) \u2013")
GRAND_TOTAL = re.compile(r"^In all, (?P<rows>\d+) capabilities: (?P<Y>\d+) Y, (?P<P>\d+) P and (?P<absent>\d+) \u2013\.")
HEADING = re.compile(r"^## (.+?)\s*$")
NAME = re.compile(r"`([^`]+)`")
SWIFT_FUNC = r"\bfunc\s+{}\s*[(<]"
# A test's attribute may span lines (`@Test(arguments: [...])`), but never a closing brace of
# another body: between `@Test` and the function there is no line that is only `}`.
BODY_END = re.compile(r"^\s*\}\s*$", re.MULTILINE)
# `#if` conditions under which code is compiled for Apple platforms only.
APPLE_ONLY = re.compile(
    r"os\((iOS|macOS|tvOS|watchOS|visionOS)\)|!os\(Linux\)|canImport\((UIKit|AppKit|SwiftUI|CoreBluetooth|"
    r"ExternalAccessory|CryptoTokenKit|LocalAuthentication|ReplayKit)\)")
# `.enabled(if: …)` conditions that CI meets, by the package `.ci/run` installs for each.
CI_CONDITIONS = {"Zbar.path": "zbar-tools", "LocalPostgres.isInstalled": "postgresql", "strace": "strace"}


def cells(line):
    """The cells of a Markdown table row, trimmed; None when the line is not a row."""
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    return [cell.strip() for cell in line[1:-1].split("|")]


def parse(text):
    """(totals {seed: (line, counts)}, tables {seed: [(line number, cells)]}) of the document.

    The grand total, when there is one, is under the key None.
    """
    totals, tables, seed = {}, {}, None
    for number, line in enumerate(text.splitlines(), start=1):
        match = GRAND_TOTAL.match(line)
        if match:
            totals[None] = (number, {key: int(match.group(key)) for key in ("rows", "Y", "P", "absent")})
            continue
        match = TOTALS.match(line)
        if match:
            counts = {key: int(match.group(key)) for key in ("rows", "Y", "P", "absent")}
            totals[match.group("seed").strip()] = (number, counts)
            continue
        heading = HEADING.match(line)
        if heading:
            seed = heading.group(1) if heading.group(1) in SEEDS + [PEERS] else None
            if seed is not None:
                tables.setdefault(seed, [])
            continue
        row = cells(line)
        if seed is None or row is None:
            continue
        if row[0].lower() == "capability" or set("".join(row)) <= set("-: "):
            continue  # the header and the separator
        tables[seed].append((number, row))
    return totals, tables


class TestIndex:
    """The test functions and files under Tests/, read once."""

    def __init__(self, package_dir):
        self.files, self.swift, self.python = set(), [], []
        ci = os.path.join(package_dir, ".ci", "run")
        self.ci = open(ci, encoding="utf-8").read() if os.path.isfile(ci) else ""
        root = os.path.join(package_dir, TESTS)
        for directory, _, names in os.walk(root):
            for name in names:
                self.files.add(name)
                path = os.path.join(directory, name)
                if name.endswith(".swift") or name.endswith(".py"):
                    with open(path, encoding="utf-8", errors="replace") as handle:
                        (self.swift if name.endswith(".swift") else self.python).append(handle.read())

    def definitions(self, name):
        """(text, offset of `func`) of each Swift test function called `name`."""
        found = []
        for text in self.swift:
            for match in re.finditer(SWIFT_FUNC.format(re.escape(name)), text):
                before = text[:match.start()]
                attribute = before.rfind("@Test")
                previous = max(before.rfind("func "), -1)
                if attribute > previous and not BODY_END.search(before[attribute:]):
                    found.append((text, match.start(), attribute))
        return found

    def has(self, name):
        if name in self.files:
            return True
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return False
        if self.definitions(name):
            return True
        return any(re.search(r"^\s*def\s+{}\s*\(".format(re.escape(name)), text, re.MULTILINE)
                   for text in self.python)

    def runs_on_linux(self, name):
        """Whether the named test (or file) is one CI on Linux runs."""
        if name in self.files or not re.fullmatch(r"[A-Za-z_]\w*", name):
            return name in self.files
        if any(re.search(r"^\s*def\s+{}\s*\(".format(re.escape(name)), text, re.MULTILINE)
               for text in self.python):
            return True
        for text, offset, attribute in self.definitions(name):
            traits = text[attribute:offset]
            suite = text.rfind("@Suite", 0, attribute)
            if suite >= 0:
                traits += text[suite:text.find("struct", suite) if text.find("struct", suite) > 0 else suite]
            if self.compiled_on_linux(text, offset) and self.enabled_in_ci(traits):
                return True
        return False

    @staticmethod
    def compiled_on_linux(text, offset):
        """Whether the code at `offset` is outside every Apple-only `#if` branch."""
        stack = []  # (condition is Apple-only, in its #else branch)
        for line in text[:offset].splitlines():
            stripped = line.strip()
            if stripped.startswith("#if "):
                stack.append([bool(APPLE_ONLY.search(stripped)), False])
            elif stripped.startswith("#elseif") and stack:
                stack[-1] = [bool(APPLE_ONLY.search(stripped)), False]
            elif stripped.startswith("#else") and stack:
                stack[-1][1] = True
            elif stripped.startswith("#endif") and stack:
                stack.pop()
        return not any(apple and not in_else for apple, in_else in stack)

    def enabled_in_ci(self, traits):
        """Whether the `.enabled(if:)` and `.disabled` traits in `traits` let the test run in CI."""
        if ".disabled(" in traits:
            return False
        for condition in re.findall(r"\.enabled\(if:\s*([^,)]+)", traits):
            package = next((CI_CONDITIONS[key] for key in CI_CONDITIONS if key in condition), None)
            if package is None or package not in self.ci:
                return False
        return True


def check(package_dir):
    """Problems, one line each; none when the document and the tests agree."""
    path = os.path.join(package_dir, DOCUMENT)
    if not os.path.isfile(path):
        return [f"{DOCUMENT} does not exist"]
    with open(path, encoding="utf-8") as handle:
        totals, tables = parse(handle.read())
    index, problems = TestIndex(package_dir), []
    everything = {"rows": 0, "Y": 0, "P": 0, "absent": 0}
    for seed in SEEDS + [PEERS]:
        rows = tables.get(seed)
        if rows is None:
            problems.append(f"{DOCUMENT}: no table for {seed} (a `## {seed}` heading and its rows)")
            continue
        counted = {"rows": len(rows), "Y": 0, "P": 0, "absent": 0}
        for number, row in rows:
            where = f"{DOCUMENT}:{number}"
            if len(row) != 4:
                problems.append(f"{where}: {len(row)} columns, want 4 (capability | status | tests | notes)")
            capability, status, tests = (row + ["", "", ""])[:3]
            if status not in STATUSES:
                problems.append(f"{where}: status {status!r} of {capability!r} is not Y, P or \u2013")
                continue
            counted["absent" if status == "\u2013" else status] += 1
            names = NAME.findall(tests)
            if status != "\u2013" and not names:
                problems.append(f"{where}: {capability!r} is {status} but names no test")
            for name in names:
                if not index.has(name):
                    problems.append(f"{where}: {capability!r} names `{name}`, which is no test under {TESTS}/")
            if status == "Y" and names and all(index.has(name) for name in names) \
                    and not any(index.runs_on_linux(name) for name in names):
                problems.append(f"{where}: {capability!r} is Y but none of its tests runs on Linux CI")
        for key in everything:
            everything[key] += counted[key] if seed != PEERS else 0
        if seed not in totals:
            problems.append(f"{DOCUMENT}: no totals line for {seed}")
            continue
        number, stated = totals[seed]
        if stated != counted:
            problems.append(
                f"{DOCUMENT}:{number}: {seed} totals say {stated['rows']} rows, {stated['Y']} Y, "
                f"{stated['P']} P, {stated['absent']} \u2013; the table has {counted['rows']}, "
                f"{counted['Y']}, {counted['P']}, {counted['absent']}")
    if None not in totals:
        problems.append(f"{DOCUMENT}: no line `In all, N capabilities: a Y, b P and c \u2013.`")
    # With a table missing the sum falls short by it, which is already reported above.
    elif all(seed in tables for seed in SEEDS) and totals[None][1] != everything:
        number, stated = totals[None]
        problems.append(
            f"{DOCUMENT}:{number}: in all the totals say {stated['rows']} rows, {stated['Y']} Y, {stated['P']} P, "
            f"{stated['absent']} \u2013; the tables have {everything['rows']}, {everything['Y']}, "
            f"{everything['P']}, {everything['absent']}")
    for seed in totals:
        if seed is not None and seed not in SEEDS + [PEERS]:
            problems.append(f"{DOCUMENT}:{totals[seed][0]}: totals for {seed!r}, which is not a seed")
    return problems


def document(rows_per_seed, totals=None, grand=None):
    """A coverage document with the given rows under every seed and totals that match them."""
    parts, everything = [], [0, 0, 0, 0]
    for seed in SEEDS + [PEERS]:
        rows = rows_per_seed.get(seed, rows_per_seed.get("*", []))
        counts = (totals or {}).get(seed) or (
            len(rows), sum(r[1] == "Y" for r in rows), sum(r[1] == "P" for r in rows),
            sum(r[1] == "\u2013" for r in rows))
        parts.append(f"- **{seed}**: {counts[0]} capabilities: {counts[1]} Y, {counts[2]} P, {counts[3]} \u2013\n")
        if seed != PEERS:
            everything = [total + count for total, count in zip(everything, counts)]
    grand = grand or everything
    parts.append(f"\nIn all, {grand[0]} capabilities: {grand[1]} Y, {grand[2]} P and {grand[3]} \u2013.\n")
    for seed in SEEDS + [PEERS]:
        rows = rows_per_seed.get(seed, rows_per_seed.get("*", []))
        parts.append(f"\n## {seed}\n\n| Capability | Status | Tests | Notes |\n|---|---|---|---|\n")
        parts.extend(f"| {' | '.join(row)} |\n" for row in rows)
    return "".join(parts)


def self_test():
    """Runs the check on packages it writes, and fails unless each verdict is the expected one."""
    swift = (
        "import Testing\n\n@Suite(.timeLimit(.minutes(1)))\nstruct SaleTests {\n"
        "    @Test func aSaleIsApproved() {}\n\n"
        "    @Test(\n        arguments: [1, 2]\n    )\n    func everyAmountIsCharged(amount: Int) {}\n\n"
        "    func helperThatIsNoTest() {}\n}\n"
        "#if canImport(UIKit)\n@Suite struct PhoneTests {\n    @Test func theJailbreakProbeRuns() {}\n}\n#endif\n"
        "@Suite(.enabled(if: Gadget.isThere))\nstruct GadgetTests {\n    @Test func theGadgetAnswers() {}\n}\n"
        "@Suite(.enabled(if: Zbar.path != nil))\nstruct QRTests {\n    @Test func theCodeDecodes() {}\n}\n")
    python = "def test_served_gateway_answers():\n    pass\n"
    good = [("Sale", "Y", "`aSaleIsApproved`, `SaleTests.swift`", ""),
            ("Amounts", "P", "`everyAmountIsCharged`; `test_served_gateway_answers`", "no tips"),
            ("Printer", "\u2013", "", "hardware")]
    def only_wirecard(row):
        return {"*": good, "Wirecard Accept": good[:2] + [row]}

    cases = [
        ("a good document", document({"*": good}), 0),
        ("a status that is none of the three", document(only_wirecard(("Refund", "Yes", "`aSaleIsApproved`", ""))), 1),
        ("a hyphen instead of the en dash", document(only_wirecard(("Refund", "-", "", ""))), 1),
        ("a peers' Y row without a test", document({"*": good, PEERS: good[:2] + [("Surcharge", "Y", "", "")]}), 1),
        ("a Y row without a test", document(only_wirecard(("Refund", "Y", "", ""))), 1),
        ("a P row without a test", document(only_wirecard(("Refund", "P", "none yet", ""))), 1),
        ("a test that does not exist", document(only_wirecard(("Refund", "Y", "`aRefundIsApproved`", ""))), 1),
        ("a helper named as a test", document(only_wirecard(("Refund", "Y", "`helperThatIsNoTest`", ""))), 1),
        ("a file that does not exist", document(only_wirecard(("Refund", "Y", "`RefundTests.swift`", ""))), 1),
        ("totals that disagree", document({"*": good}, {"Handpoint Heft": (3, 2, 0, 1)}, (15, 5, 5, 5)), 1),
        ("a grand total that disagrees", document({"*": good}, grand=(15, 5, 4, 6)), 1),
        ("no grand total", document({"*": good}).replace("In all,", "All in all,"), 1),
        ("a seed without a table",
         re.sub(r"\n## Adyen POS Mobile\n.*?(?=\n## )", "", document({"*": good}), flags=re.S), 1),
        ("a row with a missing column", document(only_wirecard(("Refund", "Y", "`aSaleIsApproved`"))), 1),
        ("a Y row whose test is compiled for Apple only", document(only_wirecard(("Jailbreak", "Y", "`theJailbreakProbeRuns`", ""))), 1),
        ("a P row whose test is compiled for Apple only", document(only_wirecard(("Jailbreak", "P", "`theJailbreakProbeRuns`", ""))), 0),
        ("a Y row whose test needs what CI lacks", document(only_wirecard(("Gadget", "Y", "`theGadgetAnswers`", ""))), 1),
        ("a Y row whose test needs what CI installs", document(only_wirecard(("QR", "Y", "`theCodeDecodes`", ""))), 0),
        ("a Y row with one test CI runs", document(only_wirecard(("Both", "Y", "`theGadgetAnswers`, `aSaleIsApproved`", ""))), 0),
    ]
    failures = 0
    for number, (what, text, expected) in enumerate(cases, start=1):
        directory = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(directory, "docs"))
            os.makedirs(os.path.join(directory, TESTS, "KitTests"))
            os.makedirs(os.path.join(directory, TESTS, "python"))
            with open(os.path.join(directory, TESTS, "KitTests", "SaleTests.swift"), "w", encoding="utf-8") as handle:
                handle.write(swift)
            with open(os.path.join(directory, TESTS, "python", "test_gateway.py"), "w", encoding="utf-8") as handle:
                handle.write(python)
            with open(os.path.join(directory, DOCUMENT), "w", encoding="utf-8") as handle:
                handle.write(text)
            os.makedirs(os.path.join(directory, ".ci"))
            with open(os.path.join(directory, ".ci", "run"), "w", encoding="utf-8") as handle:
                handle.write("apt-get install zbar-tools\n")
            found = check(directory)
            if len(found) != expected:
                failures += 1
                print(f"self-test case {number} ({what}): expected {expected} problem(s), found {found}")
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
        print(f"{DOCUMENT} agrees with the tests")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

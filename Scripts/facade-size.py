#!/usr/bin/env python3
"""How big the PaymentTerminal facade is: the functions (func and init) declared on the actor
and in its extensions, and the lines of the files that declare them, per file and in all.
Issue 44's bar: at most 40 functions in at most 1,000 lines.

    python3 Scripts/facade-size.py [--check]

With --check it exits 1 when either bar is passed.
"""
import glob
import re
import sys

ROOT = 'Sources/MPOSKit'
OPENS = re.compile(r'^(public |package )?(actor PaymentTerminal\b|extension PaymentTerminal\b)')
FUNC = re.compile(
    r'^(@\w+(\([^)]*\))?\s+)*((public|private|fileprivate|package|internal|static|nonisolated|mutating)\s+)*(func|init)\b')


def measure():
    per_file = {}
    for path in sorted(glob.glob(ROOT + '/**/*.swift', recursive=True)):
        lines = open(path, encoding='utf-8').read().split('\n')
        depth, inside, count, touched = 0, False, 0, False
        for line in lines:
            stripped = line.strip()
            if depth == 0 and OPENS.match(stripped):
                inside, touched = True, True
            if inside and depth == 1 and FUNC.match(stripped):
                count += 1
            code = re.sub(r'"(\\.|[^"\\])*"', '""', line).split('//')[0]
            depth += code.count('{') - code.count('}')
            if depth == 0:
                inside = False
        if touched:
            per_file[path] = (count, len(lines))
    return per_file


def main():
    per_file = measure()
    for path, (count, lines) in sorted(per_file.items(), key=lambda item: item[1]):
        print(f'{count:3} functions {lines:4} lines  {path}')
    functions = sum(count for count, _ in per_file.values())
    lines = sum(lines for _, lines in per_file.values())
    print(f'PaymentTerminal: {functions} functions in {lines} lines ({len(per_file)} files)')
    if '--check' in sys.argv and (functions > 40 or lines > 1000):
        sys.exit(1)


main()

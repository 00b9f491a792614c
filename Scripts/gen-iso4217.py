#!/usr/bin/env python3
"""Generate Sources/MPOSCore/Generated/Currency+ISO4217.swift from the ISO 4217 list.

The source is the official list one (table.xml, "Current currency & funds code list")
as shipped inside the PyPI package `iso4217` (`pip install iso4217`). By default the
script finds table.xml next to the installed package's __init__.py; pass a path to use
another copy of the file.

Usage (from the repository root):

    python3 Scripts/gen-iso4217.py [path/to/table.xml]

The output is deterministic: currencies are sorted by alpha code, and each currency
appears once even though the list repeats it for every country that uses it.
"""

from __future__ import annotations

import os
import sys
import textwrap
import xml.etree.ElementTree as ET

OUTPUT = os.path.join("Sources", "MPOSCore", "Generated", "Currency+ISO4217.swift")
COMMAND = "python3 Scripts/gen-iso4217.py"

# Currencies that get a static member (`Currency.eur`). Every alpha code would clash with
# Swift keywords (`try`) and with `Currency.all` (Albanian lek, ALL), so the set is chosen:
# the currencies card-present merchants meet most, plus a few edge cases worth naming.
NAMED = [
    "AUD", "BHD", "BRL", "CAD", "CHF", "CLF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD",
    "HUF", "INR", "ISK", "JPY", "KRW", "KWD", "MXN", "NOK", "NZD", "PLN", "RON", "SEK",
    "SGD", "USD", "XAU", "XTS", "XXX", "ZAR",
]


def locate_table() -> str:
    try:
        import iso4217  # type: ignore
    except ImportError:
        sys.exit("gen-iso4217: the `iso4217` package is not installed (pip install iso4217), "
                 "or pass the path to table.xml")
    path = os.path.join(os.path.dirname(iso4217.__file__), "table.xml")
    if not os.path.isfile(path):
        sys.exit(f"gen-iso4217: no table.xml in {os.path.dirname(path)}")
    return path


def swift_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def read_currencies(path: str) -> tuple[str, list[dict]]:
    root = ET.parse(path).getroot()
    published = root.get("Pblshd", "unknown")
    found: dict[str, dict] = {}
    for entry in root.iter("CcyNtry"):
        code = (entry.findtext("Ccy") or "").strip()
        if not code:
            continue  # territories without a currency of their own (e.g. Antarctica)
        name_node = entry.find("CcyNm")
        name = " ".join((name_node.text or "").split()) if name_node is not None else ""
        numeric = int((entry.findtext("CcyNbr") or "").strip())
        units_text = (entry.findtext("CcyMnrUnts") or "").strip()
        units = None if units_text == "N.A." else int(units_text)
        if units not in (None, 0, 2, 3, 4):
            sys.exit(f"gen-iso4217: {code} has unexpected minor units {units_text!r}")
        is_fund = name_node is not None and name_node.get("IsFund") == "true"
        currency = {"code": code, "numeric": numeric, "name": name, "units": units,
                    "fund": is_fund}
        previous = found.get(code)
        if previous is not None and previous != currency:
            sys.exit(f"gen-iso4217: {code} is listed with conflicting details:\n"
                     f"  {previous}\n  {currency}")
        found[code] = currency
    numerics: dict[int, str] = {}
    for currency in found.values():
        other = numerics.setdefault(currency["numeric"], currency["code"])
        if other != currency["code"]:
            sys.exit(f"gen-iso4217: numeric {currency['numeric']} used by {other} and "
                     f"{currency['code']}")
    missing = [code for code in NAMED if code not in found]
    if missing:
        sys.exit(f"gen-iso4217: named currencies missing from the list: {missing}")
    return published, sorted(found.values(), key=lambda c: c["code"])


def currency_literal(c: dict, indent: str, suffix: str, prefix: str = "") -> list[str]:
    """A `Currency(...)` initialiser, on one line when it fits in 110 columns, else three
    lines laid out as swift-format would."""
    units = "nil" if c["units"] is None else str(c["units"])
    fund = ", isFund: true" if c["fund"] else ""
    fields = f"code: {swift_string(c['code'])}, numericCode: {c['numeric']}, minorUnits: {units}"
    name = f"name: {swift_string(c['name'])}{fund}"
    one_line = f"{indent}{prefix}Currency({fields}, {name}){suffix}"
    if len(one_line) <= 110:
        return [one_line]
    return [f"{indent}{prefix}Currency(", f"{indent}    {fields},", f"{indent}    {name}){suffix}"]


def render(published: str, currencies: list[dict]) -> str:
    lines = [
        "// This file is generated. Do not edit it by hand.",
        f"// Regenerate with `{COMMAND}` from the repository root.",
        f"// Source: ISO 4217 list one (table.xml, published {published}) from PyPI's `iso4217`.",
        "",
        "extension Currency {",
        f"    /// Every active ISO 4217 currency and fund ({len(currencies)} entries, "
        f"list published {published}),",
        "    /// sorted by alpha code, each listed once.",
        "    public static let all: [Currency] = [",
    ]
    for c in currencies:
        lines.extend(currency_literal(c, "        ", ","))
    lines.append("    ]")
    by_code = {c["code"]: c for c in currencies}
    for code in NAMED:
        c = by_code[code]
        units = "no minor units" if c["units"] is None else f"{c['units']} decimals"
        lines.append("")
        doc = f"{c['name']} ({code}, {c['numeric']:03d}, {units})."
        for part in textwrap.wrap(doc, 96):
            lines.append(f"    /// {part}")
        lines.extend(currency_literal(c, "    ", "", f"public static let {code.lower()} = "))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    if len(argv) > 2:
        sys.exit("usage: gen-iso4217.py [path/to/table.xml]")
    path = argv[1] if len(argv) == 2 else locate_table()
    published, currencies = read_currencies(path)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.path.join(root, OUTPUT)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as out:
        out.write(render(published, currencies))
    print(f"gen-iso4217: wrote {len(currencies)} currencies to {OUTPUT}")


if __name__ == "__main__":
    main(sys.argv)

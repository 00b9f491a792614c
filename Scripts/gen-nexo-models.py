#!/usr/bin/env python3
"""Generates the Codable Terminal API (nexo, Adyen dialect) message types of the TerminalAPI
target from the compact schema in Scripts/nexo-models.txt.

    python3 Scripts/gen-nexo-models.py      # rewrites Sources/TerminalAPI/Generated/*.swift

Schema lines:
    file NAME                     starts Sources/TerminalAPI/Generated/NAME.swift
    struct Name | doc             a message structure; its fields follow, indented
      JSONName Type[?] [| doc]    a field; `?` marks it optional, `[T]` an array
    enum Name closed|open | doc   an enumeration; its values follow on indented lines
An unknown value of a closed enum is refused; an open enum keeps it as `.other(String)`.
The JSON name is the field's exact spelling on the wire; the Swift name is derived from it.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
SCHEMA = os.path.join(ROOT, "Scripts", "nexo-models.txt")
OUT = os.path.join(ROOT, "Sources", "TerminalAPI", "Generated")
SPECIAL = {"POIID": "poiID", "MAC": "mac", "PIN": "pin", "OK": "ok", "ICC": "icc", "RFID": "rfid",
           "XHTML": "xhtml", "v0": "v0"}
KEYWORDS = {"default", "in", "repeat", "return", "switch", "case", "protocol", "extension", "init"}


def swift_name(json_name):
    if json_name in SPECIAL:
        return SPECIAL[json_name]
    run = re.match(r"^[A-Z]*", json_name).group(0)
    rest = json_name[len(run):]
    if not rest:
        name = run.lower()
    elif len(run) <= 1:
        name = run.lower() + rest
    else:
        # An acronym run ends where the next word starts: "POIData" -> "poiData".
        name = run[:-1].lower() + run[-1] + rest
    name = name.replace("-", "_")
    return f"`{name}`" if name in KEYWORDS else name


def parse():
    files, current, item = [], None, None
    for raw in open(SCHEMA):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            head, _, doc = line.partition("|")
            words = head.split()
            if words[0] == "file":
                current = (words[1], [])
                files.append(current)
                continue
            item = {"kind": words[0], "name": words[1], "doc": doc.strip(), "members": []}
            if words[0] == "enum":
                item["open"] = words[2] == "open"
            current[1].append(item)
        else:
            head, _, doc = line.strip().partition("|")
            if item["kind"] == "enum":
                item["members"].extend(head.split())
            else:
                json_name, typ = head.split()
                item["members"].append((json_name, typ, doc.strip()))
    return files


def struct_code(item):
    name, fields = item["name"], item["members"]
    out = [f"/// {item['doc']}", f"public struct {name}: Codable, Sendable, Equatable {{"]
    for json_name, typ, doc in fields:
        optional = typ.endswith("?")
        text = doc or f"The `{json_name}` field."
        out.append(f"    /// {text}{'' if optional else ' Mandatory.'}")
        out.append(f"    public var {swift_name(json_name)}: {typ}")
    out.append("")
    out.append(f"    /// Creates a `{name}` from its fields.")
    params = []
    for json_name, typ, _ in fields:
        params.append(f"{swift_name(json_name).strip('`')}: {typ}{' = nil' if typ.endswith('?') else ''}")
    out.append(f"    public init({', '.join(params)}) {{")
    for json_name, _, _ in fields:
        n = swift_name(json_name)
        out.append(f"        self.{n.strip('`')} = {n.strip('`')}")
    out.append("    }")
    out.append("")
    if any(typ.rstrip("?") == "Bool" for _, typ, _ in fields):
        out += flag_decoder(fields)
    out.append("    enum CodingKeys: String, CodingKey, CaseIterable {")
    for json_name, _, _ in fields:
        out.append(f"        case {swift_name(json_name)} = \"{json_name}\"")
    out.append("    }")
    out.append("}")
    return out


def flag_decoder(fields):
    """A decoder that reads booleans leniently (Adyen's mock terminal writes "True")."""
    out = ["    /// Decodes the fields; booleans also from the strings `true` and `false` in any case.",
           "    public init(from decoder: any Decoder) throws {",
           "        let container = try decoder.container(keyedBy: CodingKeys.self)"]
    for json_name, typ, _ in fields:
        name = swift_name(json_name)
        base = typ.rstrip("?")
        optional = typ.endswith("?")
        if base == "Bool":
            call = "decodeNexoFlagIfPresent" if optional else "decodeNexoFlag"
            out.append(f"        {name.strip('`')} = try container.{call}(forKey: .{name})")
        else:
            call = "decodeIfPresent" if optional else "decode"
            out.append(f"        {name.strip('`')} = try container.{call}({base}.self, forKey: .{name})")
    out += ["    }", ""]
    return out


def enum_code(item):
    name, values = item["name"], item["members"]
    if not item["open"]:
        out = [f"/// {item['doc']}", "///", "/// A closed list: an unknown value is refused with a `MessageFormat` error naming the field.",
               f"public enum {name}: String, Codable, Sendable, CaseIterable {{"]
        for value in values:
            out.append(f"    /// `{value}`.")
            out.append(f"    case {swift_name(value)} = \"{value}\"")
        out.append("}")
        return out
    out = [f"/// {item['doc']}", "///",
           "/// An open list (Adyen extends it): a value this version does not know is kept as `.other`.",
           f"public enum {name}: OpenNexoEnumeration {{"]
    for value in values:
        out.append(f"    /// `{value}`.")
        out.append(f"    case {swift_name(value)}")
    out.append("    /// A value this version does not name.")
    out.append("    case other(String)")
    out.append("")
    out.append("    /// The value as it travels in JSON.")
    out.append("    public var rawValue: String {")
    out.append("        switch self {")
    for value in values:
        out.append(f"        case .{swift_name(value)}: \"{value}\"")
    out.append("        case .other(let value): value")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The case for a JSON value; never fails, unknown values become `.other`.")
    out.append("    public init(rawValue: String) {")
    out.append("        switch rawValue {")
    for value in values:
        out.append(f"        case \"{value}\": self = .{swift_name(value)}")
    out.append("        default: self = .other(rawValue)")
    out.append("        }")
    out.append("    }")
    out.append("}")
    return out


def main():
    files = parse()
    os.makedirs(OUT, exist_ok=True)
    names = set()
    for file_name, items in files:
        lines = ["// Generated by Scripts/gen-nexo-models.py from Scripts/nexo-models.txt; do not edit.", "",
                 "import Foundation", ""]
        for item in items:
            lines += struct_code(item) if item["kind"] == "struct" else enum_code(item)
            lines.append("")
            if item["kind"] == "struct":
                names.update(json_name for json_name, _, _ in item["members"])
        path = os.path.join(OUT, file_name + ".swift")
        open(path, "w").write("\n".join(lines).rstrip() + "\n")
        count = len(lines)
        if count > 400:
            sys.exit(f"{path}: {count} lines; split the schema's file")
    names.update(["SaleToPOIRequest", "SaleToPOIResponse"])
    lines = ["// Generated by Scripts/gen-nexo-models.py from Scripts/nexo-models.txt; do not edit.", "",
             "/// Every field name the Terminal API types know, spelled as on the wire: a JSON key that",
             "/// differs from one of these only in case is refused as wrong casing.",
             "enum NexoFieldNames {",
             "    /// The known names, keyed by their lowercase form.",
             "    static let byLowercase: [String: String] = ["]
    for n in sorted(names):
        lines.append(f"        \"{n.lower()}\": \"{n}\",")
    lines += ["    ]", "}"]
    open(os.path.join(OUT, "FieldNames.swift"), "w").write("\n".join(lines) + "\n")
    # The generated files follow the repository's .swift-format like the hand-written ones.
    subprocess.run(["swift", "format", "format", "-i", "-r", OUT], check=True)
    for name in os.listdir(OUT):
        count = sum(1 for _ in open(os.path.join(OUT, name)))
        if count > 400:
            sys.exit(f"{name}: {count} lines after formatting; split the schema's file")


main()

#!/usr/bin/env python3
"""Size limits of the sources: files and functions.

    python3 scripts/code-size.py [--max-file 600] [--max-function 150] DIR...

Every .cc / .h file under each DIR holds at most --max-file lines, and every
function body at most --max-function lines. A function is found by the
layout clang-format gives the project's sources (.clang-format: the body's
opening brace alone on a line at the indentation of the signature, its
closing brace the same); lambdas and class members defined in the class are
counted inside their enclosing function or not at all.

Tables are exempt: a function whose body is one
TypeId's Attribute list (`GetTypeId`) and files whose name ends in
`-table.cc` or `-table.h` (a key table is data). Prints each breach as
FILE:LINE: what, and exits 1 if there is any, else prints the largest file
and function and exits 0.
"""
import argparse
import os
import re
import sys

EXEMPT_FUNCTIONS = ("GetTypeId",)
EXEMPT_FILE_SUFFIXES = ("-table.cc", "-table.h")
# A signature's first line: an identifier (maybe qualified) followed by '('.
SIGNATURE = re.compile(r"^(\s*)(?:[\w:<>,\*&~ ]+\s)?([\w:~]+)\s*\(")


def functions(lines):
    """Yields (name, first line number, body lines) of each function body."""
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        # ns-3 style: the brace alone on a line; Google style: a signature
        # at column 0 whose last line ends in ") {" (or ") const {", ...).
        google = False
        if re.search(r"\)(\s*(const|override|noexcept|final))*\s*\{$", line.rstrip()):
            # the signature's first line: this one or one above, at column 0
            j = i
            while j > 0 and i - j < 8 and lines[j][:1] in (" ", "\t"):
                j -= 1
            google = lines[j][:1] not in ("", " ", "\t", "#", "/", "}") and (
                j == i or all(lines[x][:1] in (" ", "\t") for x in range(j + 1, i + 1)))
            google_start = j
        if (stripped == "{" and i > 0) or google:
            indent = "" if google else line[: len(line) - len(line.lstrip())]
            # Walk back over the signature (it may span lines) to a line
            # holding '(' at the brace's indentation.
            j = google_start if google else i - 1
            name = None
            while j >= 0 and i - j <= 12:
                m = SIGNATURE.match(lines[j])
                if m and m.group(1) == indent and not lines[j].lstrip().startswith(
                        ("if", "for", "while", "switch", "return", "//", "*", "/*")):
                    name = m.group(2)
                    break
                if lines[j].strip() == "" or lines[j].rstrip().endswith((";", "}")):
                    break
                j -= 1
            close = indent + "}"
            k = i + 1
            while k < n and not (lines[k].rstrip() == close or lines[k].rstrip().startswith(close + ";")):
                k += 1
            if name and k < n:
                yield name, j + 1, k - i - 1
                i = k
        i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-file", type=int, default=600)
    ap.add_argument("--max-function", type=int, default=150)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    breaches = []
    big_file = (0, "")
    big_fn = (0, "")
    for d in a.dirs:
        for root, _, names in sorted(os.walk(d)):
            for nm in sorted(names):
                if not nm.endswith((".cc", ".h")):
                    continue
                path = os.path.join(root, nm)
                with open(path, encoding="utf-8") as f:
                    lines = f.read().split("\n")
                count = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
                exempt_file = nm.endswith(EXEMPT_FILE_SUFFIXES)
                if count > a.max_file and not exempt_file:
                    breaches.append(f"{path}:1: {count} lines (at most {a.max_file})")
                big_file = max(big_file, (count, path))
                for name, line, body in functions(lines):
                    short = name.split("::")[-1]
                    if exempt_file or short in EXEMPT_FUNCTIONS:
                        continue
                    if body > a.max_function:
                        breaches.append(f"{path}:{line}: function {name} has {body} lines "
                                        f"(at most {a.max_function})")
                    big_fn = max(big_fn, (body, f"{path}:{line} {name}"))
    for b in breaches:
        print(b)
    if breaches:
        print(f"code-size: {len(breaches)} over the limits")
        return 1
    print(f"code-size: ok; largest file {big_file[1]} ({big_file[0]} lines), "
          f"largest function {big_fn[1]} ({big_fn[0]} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

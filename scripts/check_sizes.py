#!/usr/bin/env python3
"""The size rules of src/: no Rust file over 600 lines, no function of 120 lines or more.

Prints the longest files and functions (lines from `fn` to its closing brace; comments,
strings and char literals are skipped when matching braces) and exits 1 when a rule is
broken. `python3 scripts/check_sizes.py [DIR] [ROWS]` (default src, 5 rows).
"""
import os
import re
import sys

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 119


def blank(src):
    """`src` with comments, strings and char literals turned to spaces (newlines kept)."""
    out, i, n = [], 0, len(src)

    def spaces(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = src[i]
        raw = re.match(r'b?r(#*)"', src[i : i + 12])
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i) + 2
        elif raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + raw.group(1)
            j = src.find(end, i + raw.end()) + len(end)
        elif c == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
        elif c == "'" and re.match(r"'(\\[^']*|[^\\'])'", src[i:]):
            j = i + re.match(r"'(\\[^']*|[^\\'])'", src[i:]).end()
        else:
            out.append(c)
            i += 1
            continue
        out.append(spaces(src[i:j]))
        i = j
    return "".join(out)


def functions(path):
    """(lines, line number, name) of each function with a body in `path`."""
    code = blank(open(path, encoding="utf-8").read())
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        i = m.end()
        while i < len(code) and code[i] not in "{;":
            i += 1
        if i >= len(code) or code[i] == ";":
            continue
        depth = 0
        for j in range(i, len(code)):
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            if depth == 0:
                break
        start = code.count("\n", 0, m.start()) + 1
        yield code.count("\n", 0, j) + 2 - start, start, m.group(1)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if not os.path.isdir(root):
        sys.exit(f"check_sizes: {root} is not a folder")
    files, fns = [], []
    for d, _, names in os.walk(root):
        for name in names:
            if name.endswith(".rs"):
                p = os.path.join(d, name)
                with open(p, encoding="utf-8") as f:
                    files.append((len(f.read().splitlines()), p))
                fns += [(n, f"{p}:{line}", fn) for n, line, fn in functions(p)]
    files.sort(reverse=True)
    fns.sort(reverse=True)
    print(f"longest files (at most {MAX_FILE_LINES} lines):")
    for n, p in files[:rows]:
        print(f"  {n:4} {p}")
    print(f"longest functions (at most {MAX_FUNCTION_LINES} lines):")
    for n, at, fn in fns[:rows]:
        print(f"  {n:4} {at} {fn}")
    broken = any(n > MAX_FILE_LINES for n, _ in files) or any(
        n > MAX_FUNCTION_LINES for n, _, _ in fns
    )
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()

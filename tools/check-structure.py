#!/usr/bin/env python3
"""Structure checks of the source tree (issue 14): the simulation core's headers name no mm
structure, no source file is over 800 lines, no function over 150. (No exit() outside
src/cli and no unchecked allocation: tools/check-errors.sh.) Known violations that other
work is removing are listed, each with the issue that owns it, in tools/structure-allow.txt;
an entry that no longer matches anything is an error too, so the list only shrinks.

usage: tools/check-structure.py [SOURCE_DIR]     (exit 0 clean, 1 violations)"""
import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNC_LINES = 150
# mm vocabulary the core (src/sim) must not know: it has time, tasks, CPUs, wait queues
# and locks only
MM_WORDS = re.compile(
    r"\b(mm_struct|vm_area_struct|address_space|struct\s+page|pages?|pfn\w*|PFN\w*|zones?|"
    r"lru|swap\w*|vmstat|reclaim\w*|kswapd|oom\w*|OOM\w*|PF_[A-Z_]+|TIF_[A-Z_]+|GFP_\w+)\b"
)
SOURCE_DIRS = ("src", "tests", "bench", "fuzz", "tools")


def strip_c(text):
    """Comments, string and character literals, and preprocessor lines blanked out, line
    breaks kept, so line numbers and brace depth are those of the code."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1 : j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = "".join(out).split("\n")
    cont = False
    for k, line in enumerate(lines):  # #define bodies hold braces of no function
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines[k] = ""
    return lines


def functions(lines):
    """(name, first line, last line) of each function definition: a brace at depth 0 that
    follows a closing parenthesis."""
    depth, start, name, prev, last_call_name = 0, None, None, "", "?"
    for k, line in enumerate(lines):
        for m in re.finditer(r"[{}]|[^{}\s]+", line):
            tok = m.group(0)
            if tok == "{":
                if depth == 0 and prev.endswith(")"):
                    start, name = k, last_call_name
                depth += 1
            elif tok == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    yield name, start + 1, k + 1
                    start = None
            else:
                if depth == 0:
                    found = re.findall(r"(\w+)\s*\(", tok)
                    if found:
                        last_call_name = found[0]
            prev = tok if tok not in "{}" else prev


def source_files(root):
    for d in SOURCE_DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for nm in sorted(names):
                if nm.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, nm), root)


def violations(root):
    for path in sorted(source_files(root)):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        raw = text.split("\n")
        nlines = text.count("\n")
        if nlines > MAX_FILE_LINES:
            yield ("lines", path, None, f"{nlines} lines (limit {MAX_FILE_LINES})")
        code = strip_c(text)
        for name, a, b in functions(code):
            if b - a + 1 > MAX_FUNC_LINES:
                yield ("function", path, name,
                       f"{name}() at line {a} is {b - a + 1} lines (limit {MAX_FUNC_LINES})")
        if path.startswith("src/sim/") and path.endswith(".h"):
            for k, line in enumerate(raw):  # comments too: the vocabulary, not just code
                m = MM_WORDS.search(line)
                if m:
                    yield ("mm-word", path, None, f"line {k + 1}: '{m.group(0)}' in the core")


def read_allow(path):
    """Entries 'CHECK PATH [FUNCTION]'; '#' starts a comment (the owner issue)."""
    allow = {}
    if not os.path.exists(path):
        return allow
    with open(path) as f:
        for no, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) not in (2, 3) or fields[0] not in ("lines", "function"):
                sys.exit(f"{path}:{no}: expected 'lines|function PATH [FUNCTION]'")
            allow[tuple(fields) if len(fields) == 3 else (fields[0], fields[1], None)] = no
    return allow


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    allow_path = os.path.join(root, "tools", "structure-allow.txt")
    allow = read_allow(allow_path)
    used, bad = set(), 0
    for check, path, func, what in violations(root):
        key = (check, path, func)
        if key in allow:
            used.add(key)
            continue
        print(f"{path}: {what}")
        bad += 1
    for key, no in sorted(allow.items(), key=lambda kv: kv[1]):
        if key not in used:
            print(f"{allow_path}:{no}: '{' '.join(k for k in key if k)}' no longer applies:"
                  " remove the entry")
            bad += 1
    if bad:
        print(f"check-structure: {bad} problem(s)")
        return 1
    print(f"check-structure: ok ({len(used)} known violation(s) listed in {allow_path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

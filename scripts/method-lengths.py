#!/usr/bin/env python3
"""Methods longer than a limit (default 80 lines) under a source tree (default src/main/java).

    scripts/method-lengths.py [--max 80] [--top N] [ROOT]

A method's length is its lines from the line naming it to its closing brace, comments and blank lines included.
Methods and constructors of classes, interfaces, enums and records (compact constructors too) are counted; the
lambdas and anonymous classes inside a method count towards it. Exits 1 when one is over the limit.
"""
import argparse
import os
import re
import sys

CONTROL = {"if", "for", "while", "switch", "catch", "synchronized", "try", "do", "else", "finally", "return",
           "new", "case", "default"}
TYPE_DECL = re.compile(r"\b(class|interface|enum|record)\s+(\w+)")
METHOD = re.compile(r"(\w+)\s*(<[^()]*>)?\s*\([^;]*\)\s*(throws\s+[\w.,\s<>]+)?$", re.S)
ANONYMOUS = re.compile(r"\bnew\s+[\w.<>, ]+\s*\([^;]*\)$", re.S)
COMPACT = re.compile(r"^(?:@\w+\s*)*(?:public|protected|private)?\s*([A-Z]\w*)$")


def blank(src):
    """The source with comments, strings, text blocks and char literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith('"""', i):
            j = src.find('"""', i + 3)
            while j > 0 and src[j - 1] == "\\":
                j = src.find('"""', j + 1)
            j = n if j < 0 else j + 3
        elif src[i] in "\"'":
            q, j = src[i], i + 1
            while j < n and src[j] != q:
                j += 2 if src[j] == "\\" else 1
            j += 1
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", src[i:j]))
        i = j
    return "".join(out)


def methods(path):
    """(name, first line, last line) of each method in a file."""
    src = blank(open(path, encoding="utf-8").read())
    stack = []  # per open brace: ("type", name) | ("method", name, line) | ("other",)
    start = 0  # where the text before the next brace begins
    found = []
    parens = 0  # braces inside parentheses (annotation arrays, lambdas in arguments) are not declarations
    for i, ch in enumerate(src):
        if ch in "()":
            parens += 1 if ch == "(" else -1
        elif parens > 0:
            continue
        elif ch == ";":
            start = i + 1
        elif ch == "{":
            head = without_annotations(src[start:i]).strip()
            in_type = not stack or stack[-1][0] == "type"
            t = TYPE_DECL.search(head)
            m = METHOD.search(head)
            c = COMPACT.match(head)
            if t and (in_type or not m):
                stack.append(("type", t.group(2)))
            elif in_type and ANONYMOUS.search(head):
                stack.append(("type", ""))
            elif in_type and m and m.group(1) not in CONTROL and "=" not in head and "->" not in head:
                line = src.count("\n", 0, start + head_offset(src, start, m.group(1))) + 1
                stack.append(("method", m.group(1), line))
            elif in_type and c and stack and c.group(1) == stack[-1][1]:
                line = src.count("\n", 0, start + head_offset(src, start, c.group(1))) + 1
                stack.append(("method", c.group(1), line))
            else:
                stack.append(("other",))
            start = i + 1
        elif ch == "}":
            top = stack.pop() if stack else ("other",)
            if top[0] == "method":
                found.append((top[1], top[2], src.count("\n", 0, i) + 1))
            start = i + 1
    return found


def without_annotations(head):
    """The head with each annotation and its arguments (however nested) left out."""
    out, i = [], 0
    for m in re.finditer(r"@[\w.]+\s*\(?", head):
        if m.start() < i:
            continue
        out.append(head[i:m.start()])
        i = m.end()
        if m.group().endswith("("):
            depth = 1
            while i < len(head) and depth:
                depth += {"(": 1, ")": -1}.get(head[i], 0)
                i += 1
    out.append(head[i:])
    return " ".join(out)


def head_offset(src, start, name):
    return re.search(r"\b" + re.escape(name) + r"\b", src[start:]).start()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--top", type=int, default=0, help="also list the N longest methods")
    ap.add_argument("root", nargs="?", default="src/main/java")
    a = ap.parse_args()
    rows = []
    for d, _, files in os.walk(a.root):
        for f in files:
            if f.endswith(".java"):
                p = os.path.join(d, f)
                rows += [(last - first + 1, p, name, first) for name, first, last in methods(p)]
    rows.sort(reverse=True)
    over = [r for r in rows if r[0] > a.max]
    for n, p, name, first in rows[:max(a.top, len(over))]:
        print(f"{n:5d}  {p}:{first}  {name}{'' if n > a.max else '  (within)'}")
    print(f"{len(rows)} methods, {len(over)} over {a.max} lines")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()

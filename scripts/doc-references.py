#!/usr/bin/env python3
"""References to documents that the repository does not have.

    scripts/doc-references.py

Reads src/main/java, src/test/java, docs/*.md and README.md and reports: a `name.md` that is neither in docs/ nor
at the top; a section quoted right after a document's name (docs/api.md, "Limits" or docs/api.md ("Limits")) that is
none of its headings; a section given by number (§). Exits 1 when it finds one.
"""
import glob
import os
import re
import sys

DOC = re.compile(r"(?<![\w/.-])((?:docs/)?[A-Za-z][\w-]*\.md)\b")
SECTION = re.compile(r"(?<![\w/.-])((?:docs/)?[A-Za-z][\w-]*\.md)\}?(?:,\s*|\s*\(\s*|\s+)\"([^\"]+)\"")
CONTINUATION = re.compile(r"\n\s*(?:\*(?!/)|//)\s*")  # a comment's next line, read as one text


def headings():
    out = {}
    for path in glob.glob("docs/*.md") + ["README.md"]:
        with open(path, encoding="utf-8") as f:
            out[path] = [re.sub(r"^#+\s*", "", line.strip()).lower() for line in f if line.startswith("#")]
    return out


def sources():
    for root in ("src/main/java", "src/test/java"):
        for d, _, files in os.walk(root):
            yield from (os.path.join(d, f) for f in files if f.endswith(".java"))
    yield from glob.glob("docs/*.md")
    yield "README.md"


def resolve(name, heads):
    for candidate in (name, "docs/" + name):
        if candidate in heads:
            return candidate
    return None


def main():
    heads = headings()
    found = []
    for path in sources():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        joined = re.sub(r"\s*\n\s*", " ", text) if path.endswith(".md") else CONTINUATION.sub(" ", text)
        for m in DOC.finditer(text):
            if resolve(m.group(1), heads) is None:
                found.append(f"{path}:{text.count(chr(10), 0, m.start()) + 1}: no document {m.group(1)}")
        for m in SECTION.finditer(joined):
            doc, section = resolve(m.group(1), heads), m.group(2).lower()
            if doc and not any(h == section or h.startswith(section) for h in heads[doc]):
                found.append(f"{path}: {m.group(1)} has no section \"{m.group(2)}\"")
        for n, line in enumerate(text.split("\n"), 1):
            if re.search(r"§\s*\d", line):
                found.append(f"{path}:{n}: a section by number: {line.strip()}")
    print("\n".join(found) if found else "no reference to a missing document or section")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()

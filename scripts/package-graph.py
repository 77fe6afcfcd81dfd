#!/usr/bin/env python3
"""The service's package graph, from the sources' own imports (and fully qualified names).

usage: scripts/package-graph.py [--engine] [REV]   (default: the work tree; a revision is read with git show)

Prints, for each top-level package under src/main/java/dev/schedsim (the engine as one), what it imports
(package: count of files that import it), the circles (packages that import each other, directly or round
about), and a table: package, its first javadoc line (package-info.java), files, lines. With --engine, the same
for the engine's packages under src/main/java/dev/schedsim/engine ("(root)" is dev.schedsim.engine itself).
"""
import re
import subprocess
import sys

ROOT = "src/main/java/dev/schedsim/"
PREFIX = "dev.schedsim"


def files(rev):
    if rev:
        out = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, ROOT], capture_output=True, text=True,
                             check=True).stdout.split()
        read = lambda p: subprocess.run(["git", "show", "%s:%s" % (rev, p)], capture_output=True, text=True,
                                        check=True).stdout
    else:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", ROOT],
                             capture_output=True, text=True, check=True).stdout.split()
        read = lambda p: open(p, encoding="utf-8").read()
    return [(p, read(p)) for p in out if p.endswith(".java")]


def package(path):
    rest = path[len(ROOT):]
    return rest.split("/")[0] if "/" in rest else "(root)"


def main():
    global ROOT, PREFIX
    args = sys.argv[1:]
    if args and args[0] == "--engine":
        ROOT, PREFIX = ROOT + "engine/", PREFIX + ".engine"
        args = args[1:]
    rev = args[0] if args else None
    edges, sizes, about = {}, {}, {}
    for path, text in files(rev):
        p = package(path)
        n, lines = sizes.get(p, (0, 0))
        sizes[p] = (n + 1, lines + text.count("\n"))
        if path.endswith("package-info.java") and path.count("/") == ROOT.count("/") + (p != "(root)"):
            m = re.search(r"/\*\*\s*\n?\s*\*?\s*(.+?)(?:\.\s|\n\s*\*\s*\n|\*/)", text, re.S)
            if m:
                about[p] = re.sub(r"\s*\n\s*\*\s*", " ", m.group(1)).strip()[:110]
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)  # comments name classes without using them
        prefix = re.escape(PREFIX)
        used = set(re.findall(r"\b%s\.([a-z]\w*)\." % prefix, code))
        if re.search(r"\b%s\.[A-Z]" % prefix, code):
            used.add("(root)")
        for q in used - {p}:
            edges.setdefault(p, {}).setdefault(q, 0)
            edges[p][q] += 1
    print("imports (package -> package: files)")
    for p in sorted(sizes):
        out = edges.get(p, {})
        print("  %-12s -> %s" % (p, ", ".join("%s %d" % (q, out[q]) for q in sorted(out)) or "-"))
    # circles: strongly connected components of more than one package
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(sizes):
        if v not in index:
            visit(v)
    print("circles: %s" % ("; ".join(" <-> ".join(c) for c in sccs) if sccs else "none"))
    pairs = sorted("%s <-> %s" % (p, q) for p in edges for q in edges[p] if p < q and p in edges.get(q, {}))
    print("of them, packages that import each other directly: %s" % ("; ".join(pairs) or "none"))
    print()
    print("| package | what it holds | files | lines |")
    print("|---|---|---:|---:|")
    for p in sorted(sizes):
        print("| %s | %s | %d | %d |" % (p, about.get(p, ""), sizes[p][0], sizes[p][1]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Circles of files that include or import each other, anywhere in the tree (tests too).

    python3 tools/file_cycles.py     # prints the counts and each circle; exits 1 if there is one

The graph is file to file: a C file's `#include "..."` resolved against its own folder, the
tree's root or, failing those, the one tracked header whose path ends with it; a Python file's
`import x.y` / `from x.y import z` (z a module of x.y, else a name in it) resolved against its own
folder, then python/, backends/ and the root (the import roots the BUILD files give). Circles are the strongly connected components
of more than one file (Tarjan's algorithm). Standard library only.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

_INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')
_IMPORT = re.compile(r"\s*(?:from\s+([\w.]+)\s+import\s+\(?\s*([\w, ]*)|import\s+([\w.]+))")
_PYTHON_ROOTS = ("python", "backends", ".")


def _norm(path: str) -> str:
    parts: list[str] = []
    for part in PurePosixPath(path).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _c_targets(source: str, text: str, files: set[str], headers: list[str]) -> Iterable[str]:
    folder = str(PurePosixPath(source).parent)
    for line in text.splitlines():
        match = _INCLUDE.match(line)
        if not match:
            continue
        name = match.group(1)
        by_suffix = [h for h in headers if h.endswith("/" + name)][:1]
        for candidate in [f"{folder}/{name}", name, *by_suffix]:
            candidate = _norm(candidate)
            if candidate in files and candidate != source:
                yield candidate
                break


def _python_targets(source: str, text: str, files: set[str]) -> Iterable[str]:
    folder = str(PurePosixPath(source).parent)
    for line in text.splitlines():
        match = _IMPORT.match(line)
        if not match:
            continue
        if match.group(3):
            modules = [match.group(3).split(".")]
        else:
            # `from x import y`: y may be a module of package x, else a name in x.
            package = match.group(1).split(".")
            names = [n.split(" as ")[0].strip() for n in match.group(2).split(",") if n.strip()]
            modules = [[*package, name] for name in names] + [package]
        for parts in modules:
            target = _python_file(folder, parts, files)
            if target is not None and target != source:
                yield target


def _python_file(folder: str, parts: list[str], files: set[str]) -> str | None:
    candidates = [f"{folder}/{parts[0]}.py"] if len(parts) == 1 else []
    for root in _PYTHON_ROOTS:
        base = "/".join([root, *parts])
        candidates += [f"{base}.py", f"{base}/__init__.py"]
    for candidate in candidates:
        candidate = _norm(candidate)
        if candidate in files:
            return candidate
    return None


def graph(files: list[str], read: dict[str, str]) -> dict[str, set[str]]:
    """Each C or Python file's edges to the files it includes or imports."""
    tracked = set(files)
    headers = [f for f in files if f.endswith(".h")]
    edges: dict[str, set[str]] = {}
    for source in files:
        if source.endswith((".c", ".h")):
            edges[source] = set(_c_targets(source, read[source], tracked, headers))
        elif source.endswith(".py"):
            edges[source] = set(_python_targets(source, read[source], tracked))
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one file (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main() -> int:
    listed = subprocess.run(["git", "ls-files"], check=True, capture_output=True, text=True).stdout.split()
    files = [f for f in listed if f.endswith((".c", ".h", ".py"))]
    read = {f: Path(f).read_text(encoding="utf-8", errors="replace") for f in files}
    edges = graph(files, read)
    found = circles(edges)
    count = sum(len(e) for e in edges.values())
    print(f"file_cycles: {len(files)} C and Python files, {count} include/import edges, {len(found)} circles")
    for component in found:
        print("  circle: " + " <-> ".join(component))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

"""The toolkit's packages import each other without a cycle, and each stage's BUILD file
depends on exactly the stages its modules import.

A stage's tool (what Bazel actions run) holds only the packages its BUILD file lists, so a
stage that imported one it does not list would fail in the sandbox, and one that listed a
stage it does not import would rerun its actions whenever that stage changes. Imports are
read from the sources (every `import tinypte...` / `from tinypte... import`, also inside
functions); the shared core (`tinypte.errors`, `tinypte.library_noise`, the `tinypte`
package itself) is every stage's and not counted.

usage: import_graph_test.py SRC.py...   (runfiles-relative paths, as Bazel passes them;
       the BUILD files are read beside them)
"""

from __future__ import annotations

import ast
import os
import re
import sys
from pathlib import Path

import pytest

# Modules of the package root: every stage's, through //python/tinypte:core and :cli.
SHARED = {"errors", "export_cache", "histogram_search", "lazy_codegen", "library_noise", "cli", "worker", "__main__"}
# At least these stage packages must be found (the test fails if it checked fewer).
MIN_PACKAGES = 15


def sources() -> list[Path]:
    return [Path(p) for p in os.environ["TINYPTE_SOURCES"].split(os.pathsep)]


def package_of(path: Path) -> str | None:
    """'export' for python/tinypte/export/program.py; None outside the stage packages."""
    if "tinypte" not in path.parts[:-1]:
        return None
    parts = path.parts[path.parts.index("tinypte") + 1 :]
    return parts[0] if len(parts) > 1 else None


def imported_packages(path: Path) -> set[str]:
    """The tinypte stage packages a module imports (anywhere in it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tinypte" and len(parts) > 1 and parts[1] not in SHARED:
                found.add(parts[1])
    return found


def graph() -> dict[str, set[str]]:
    """Stage package -> the other stage packages its modules import."""
    edges: dict[str, set[str]] = {}
    for path in sources():
        package = package_of(path)
        if package is not None:
            edges.setdefault(package, set()).update(imported_packages(path) - {package})
    return edges


def build_deps(package: str) -> set[str]:
    """The stage packages a package's BUILD file names (labels //python/tinypte/<pkg>...)."""
    build = next(p for p in sources() if package_of(p) == package).parent / "BUILD.bazel"
    labels = re.findall(r'"//python/tinypte/(\w+)[:"]', build.read_text())
    return set(labels) - {package}


def test_enough_packages_were_read() -> None:
    assert len(graph()) >= MIN_PACKAGES, sorted(graph())


def test_no_import_cycle() -> None:
    edges = graph()
    done: set[str] = set()

    def visit(package: str, path: list[str]) -> None:
        if package in path:
            cycle = [*path[path.index(package) :], package]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if package in done:
            return
        for target in sorted(edges.get(package, ())):
            visit(target, [*path, package])
        done.add(package)

    for package in sorted(edges):
        visit(package, [])
    assert done == set(edges)


def test_build_files_list_exactly_the_imported_stages() -> None:
    problems = []
    for package, imported in sorted(graph().items()):
        listed = build_deps(package)
        if imported - listed:
            problems.append(f"python/tinypte/{package}/BUILD.bazel lacks deps on {sorted(imported - listed)}")
        if listed - imported:
            problems.append(f"python/tinypte/{package}/BUILD.bazel depends on {sorted(listed - imported)}, unused")
    assert not problems, "\n".join(problems)


def main(argv: list[str]) -> int:
    os.environ["TINYPTE_SOURCES"] = os.pathsep.join(argv)
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

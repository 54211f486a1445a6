"""The toolkit's packages import each other without a cycle, and each stage's BUILD file
depends on exactly the stages its modules import.

A stage's tool (what Bazel actions run) holds only the packages its BUILD file lists, so a
stage that imported one it does not list would fail in the sandbox, and one that listed a
stage it does not import would rerun its actions whenever that stage changes. Imports are
read from the sources (every `import tinypte...` / `from tinypte... import`, also inside
functions); the shared core (`tinypte.errors`, `tinypte.library_noise`, the `tinypte`
package itself) is every stage's and not counted.

The Ethos-U55's AOT side (`ethos_u55.aot`, backends/ethos_u55/aot) is a package of the graph
too, with one rule of its own: a stage imports it only inside functions (for delegated programs)
and does not list it; the stage's tool with it is a `tinypte_tool` in backends/ethos_u55/aot's
BUILD file, which must exist for each stage that imports it.

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
# At least these packages must be found (the test fails if it checked fewer).
MIN_PACKAGES = 16
# The Ethos-U55's AOT side, loaded lazily by the stages that need it (see the module docstring).
PLUGIN = "ethos_u55.aot"


def sources() -> list[Path]:
    return [Path(p) for p in os.environ["TINYPTE_SOURCES"].split(os.pathsep)]


def package_of(path: Path) -> str | None:
    """'export' for python/tinypte/export/pipeline.py, PLUGIN for backends/ethos_u55/aot/*.py;
    None outside those packages."""
    if path.parts[-3:-1] == ("ethos_u55", "aot"):
        return PLUGIN
    if "tinypte" not in path.parts[:-1]:
        return None
    parts = path.parts[path.parts.index("tinypte") + 1 :]
    return parts[0] if len(parts) > 1 else None


def imported_packages(path: Path, top_level_only: bool = False) -> set[str]:
    """The tinypte stage packages (and PLUGIN) a module imports (anywhere in it, or only at its
    top level)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    for node in tree.body if top_level_only else ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tinypte" and len(parts) > 1 and parts[1] not in SHARED:
                found.add(parts[1])
            if name == PLUGIN or name.startswith(PLUGIN + "."):
                found.add(PLUGIN)
    return found


def graph() -> dict[str, set[str]]:
    """Stage package -> the other stage packages its modules import."""
    edges: dict[str, set[str]] = {}
    for path in sources():
        package = package_of(path)
        if package is not None:
            edges.setdefault(package, set()).update(imported_packages(path) - {package})
    return edges


def build_file(package: str) -> Path:
    return next(p for p in sources() if package_of(p) == package).parent / "BUILD.bazel"


def _tools(text: str) -> list[str]:
    """The `tinypte_tool(...)` calls of a BUILD file, as text."""
    return re.findall(r"tinypte_tool\((?:[^()]|\([^()]*\))*\)", text)


def build_deps(package: str) -> set[str]:
    """The stage packages a package's BUILD file names (labels //python/tinypte/<pkg>...), beside
    its tools' (PLUGIN's tools name the stages that load it, not what it imports)."""
    text = build_file(package).read_text()
    for tool in _tools(text):
        text = text.replace(tool, "")
    labels = re.findall(r'"//python/tinypte/(\w+)[:"]', text)
    return set(labels) - {package}


def plugin_tool_stages() -> set[str]:
    """The stages PLUGIN's BUILD file has a tool for (a `tinypte_tool` with the stage and PLUGIN)."""
    found = set()
    for tool in _tools(build_file(PLUGIN).read_text()):
        if '":aot"' in tool:
            found.update(re.findall(r'"//python/tinypte/(\w+)"', tool))
    return found


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
        imported = imported - {PLUGIN}
        listed = build_deps(package)
        if imported - listed:
            problems.append(f"python/tinypte/{package}/BUILD.bazel lacks deps on {sorted(imported - listed)}")
        if listed - imported:
            problems.append(f"python/tinypte/{package}/BUILD.bazel depends on {sorted(listed - imported)}, unused")
    assert not problems, "\n".join(problems)


def test_the_plugin_is_loaded_lazily_through_its_own_tools() -> None:
    problems = []
    loaders = {package for package, imported in graph().items() if PLUGIN in imported and package != PLUGIN}
    assert loaders, f"no stage imports {PLUGIN}: the test checks nothing"
    for path in sources():
        package = package_of(path)
        if package not in (None, PLUGIN) and PLUGIN in imported_packages(path, top_level_only=True):
            problems.append(f"{path} imports {PLUGIN} at its top level: import it where the delegated path needs it")
    for package in sorted(loaders):
        if '"//backends/ethos_u55/aot' in build_file(package).read_text():
            problems.append(f"python/tinypte/{package}/BUILD.bazel lists {PLUGIN}: its `:tool` would hold it")
    missing = loaders - plugin_tool_stages()
    if missing:
        problems.append(f"backends/ethos_u55/aot/BUILD.bazel has no tinypte_tool for {sorted(missing)} with :aot")
    assert not problems, "\n".join(problems)


def main(argv: list[str]) -> int:
    os.environ["TINYPTE_SOURCES"] = os.pathsep.join(argv)
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

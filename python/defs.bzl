"""Python targets of tinypte's own: the toolkit's stage libraries and tools, tests, lint inputs.

Every py_binary and py_test here runs on the Python toolchain that WORKSPACE registers
(the venv built from python/requirements.lock), so they all take the same settings. The
toolkit is split by stage (python/tinypte/<stage>/, one py_library each): a tool or test
depends on the stages it imports, so a change to one stage reruns only what uses it.
"""

# tinypte's own labels, canonical (str(Label(...))): these macros' targets name tinypte's files
# and libraries whichever repository their package is in.
_MAIN = str(Label("//python:tinypte_main.py"))
_CORE = str(Label("//python/tinypte:core"))
_CLI = str(Label("//python/tinypte:cli"))

# When tinypte is another workspace's dependency (@tinypte), Bazel's legacy `__init__.py`
# files would make the repository's runfiles directory, `tinypte/`, a package that hides
# tinypte's own `tinypte` package (python/tinypte/, which has its `__init__.py` files): its
# binaries and tests are built without them there. As the main repository nothing changes.
_INIT = {"legacy_create_init": False} if str(Label("//:WORKSPACE")).startswith("@") else {}

def tinypte_py_library(*, name, srcs = None, deps = [], **kwargs):
    """A py_library of the toolkit (public): a stage, or a part of one other stages import.

    Args:
      name: Target name, the stage's (`train`, `export`, ...) or the part's (`format`, ...).
      srcs: Python sources (default: every `*.py` of the package); the package's
        `__init__.py` is always one of them.
      deps: The stages its modules import (`//python/tinypte:core` is always added).
      **kwargs: Other py_library attributes (data, ...).
    """
    srcs = native.glob(["*.py"]) if srcs == None else depset(native.glob(["__init__.py"]) + srcs).to_list()
    native.py_library(
        name = name,
        srcs = srcs,
        deps = depset([_CORE] + deps).to_list(),
        visibility = ["//visibility:public"],
        **kwargs
    )

def tinypte_stage(*, name, srcs = None, deps = [], tool = True, **kwargs):
    """A stage package's targets: its py_library `:<name>`, its `:tool` (unless `tool = False`:
    a library other stages import), `:py_srcs` for the lint test, and its BUILD file exported
    for //python/tests:import_graph_test (which compares `deps` with the imports).

    Args:
      name: The stage, the package's name (`train`, `export`, ...).
      srcs: Its modules (default: every `*.py` of the package).
      deps: The stages its modules import (labels under //python/tinypte).
      tool: Whether Bazel actions run it (a `:tool` binary).
      **kwargs: Other py_library attributes (data, ...).
    """
    native.exports_files(["BUILD.bazel"])
    tinypte_py_library(name = name, srcs = srcs, deps = deps, **kwargs)
    if tool:
        tinypte_tool(deps = [":" + name])
    py_lint_sources()

def tinypte_tool(*, name = "tool", deps):
    """`tinypte SUBCOMMAND ...` built with only `deps`' stages: what Bazel actions run.

    The binary is python/tinypte_main.py (tinypte.cli, which imports a subcommand's module
    only when it runs); an action passes the subcommand as its first argument. A tool lacks
    every stage it does not list, so editing another stage does not rerun its actions.

    Args:
      name: Target name (`tool`: `//python/tinypte/<stage>:tool`).
      deps: The stage libraries whose subcommands it runs.
    """
    native.py_binary(
        name = name,
        srcs = [_MAIN],
        main = _MAIN,
        python_version = "PY3",
        deps = [_CLI] + deps,
        visibility = ["//visibility:public"],
        **_INIT
    )

def tinypte_py_test(*, name, srcs = None, deps = [], size = "small", **kwargs):
    """A py_test on the locked venv.

    Args:
      name: Target name; `srcs` defaults to `[<name>.py]`.
      srcs: Python sources (the first with a `__main__` entry, or set `main`).
      deps: The toolkit stages (py_library targets under //python/tinypte) it imports.
      size: Bazel test size.
      **kwargs: Other py_test attributes (args, data, main, ...).
    """
    native.py_test(
        name = name,
        srcs = srcs or [name + ".py"],
        deps = [_CORE] + deps,
        size = size,
        python_version = "PY3",
        **dict(_INIT, **kwargs)
    )

def tinypte_py_binary(*, name, srcs = None, deps = [], **kwargs):
    """A py_binary on the locked venv (`srcs` defaults to `[<name>.py]`; `deps` as for tests)."""
    native.py_binary(
        name = name,
        srcs = srcs or [name + ".py"],
        deps = [_CORE] + deps,
        python_version = "PY3",
        **dict(_INIT, **kwargs)
    )

def py_lint_sources(*, extra = []):
    """`:py_srcs`, this package's Python files (and `extra` filegroups), which
    //python/tests:lint_test checks."""
    native.filegroup(
        name = "py_srcs",
        srcs = native.glob(["*.py"]) + extra,
        visibility = ["//python:__subpackages__"],
    )

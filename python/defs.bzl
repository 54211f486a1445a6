"""Python targets of tinypte's own: tests, tools and lint inputs, on the locked venv.

Every py_binary and py_test here runs on the Python toolchain that WORKSPACE registers
(the venv built from python/requirements.lock), so they all take the same settings:
Python 3 and the toolkit library //python:tinypte_lib. These macros write those once.
"""

_TOOLKIT = "//python:tinypte_lib"

def tinypte_py_test(*, name, srcs = None, deps = [], size = "small", **kwargs):
    """A py_test on the locked venv with the toolkit library.

    Args:
      name: Target name; `srcs` defaults to `[<name>.py]`.
      srcs: Python sources (the first with a `__main__` entry, or set `main`).
      deps: Extra py_library dependencies besides //python:tinypte_lib.
      size: Bazel test size.
      **kwargs: Other py_test attributes (args, data, main, ...).
    """
    native.py_test(
        name = name,
        srcs = srcs or [name + ".py"],
        deps = [_TOOLKIT] + deps,
        size = size,
        python_version = "PY3",
        **kwargs
    )

def tinypte_py_binary(*, name, srcs = None, deps = [], **kwargs):
    """A py_binary on the locked venv with the toolkit library (`srcs` defaults to `[<name>.py]`)."""
    native.py_binary(
        name = name,
        srcs = srcs or [name + ".py"],
        deps = [_TOOLKIT] + deps,
        python_version = "PY3",
        **kwargs
    )

def py_lint_sources():
    """`:py_srcs`, this package's Python files, which //python/tests:lint_test checks."""
    native.filegroup(
        name = "py_srcs",
        srcs = native.glob(["*.py"]),
        visibility = ["//python/tests:__pkg__"],
    )

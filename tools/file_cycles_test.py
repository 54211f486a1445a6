"""file_cycles finds circles of includes and imports, resolved the way the tree's files are found,
and none where the graph only branches or joins."""

from __future__ import annotations

import sys

import file_cycles
import pytest


def found(read: dict[str, str]) -> list[list[str]]:
    return file_cycles.circles(file_cycles.graph(sorted(read), read))


def test_include_circle_through_own_folder_and_root() -> None:
    read = {"x/a.h": '#include "b.h"', "x/b.h": '#include "x/a.h"', "x/c.c": '#include "a.h"'}
    assert found(read) == [["x/a.h", "x/b.h"]]


def test_include_by_path_suffix() -> None:
    read = {"lib/include/tinypte/p.h": '#include "q.h"', "lib/q.h": '#include "tinypte/p.h"'}
    assert found(read) == [["lib/include/tinypte/p.h", "lib/q.h"]]


def test_python_circle_of_three_over_import_roots() -> None:
    read = {
        "python/pkg/a.py": "from pkg import b",
        "python/pkg/b.py": "import pkg.c",
        "python/pkg/c.py": "from pkg.a import run",
        "python/pkg/__init__.py": "",
    }
    assert found(read) == [["python/pkg/a.py", "python/pkg/b.py", "python/pkg/c.py"]]


def test_diamond_is_no_circle() -> None:
    read = {
        "top.c": '#include "left.h"\n#include "right.h"',
        "left.h": '#include "base.h"',
        "right.h": '#include "base.h"',
        "base.h": "",
        "self.py": "import self",
    }
    assert found(read) == []


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

"""The command line of a model's program checks (models/zoo.bzl: program_test): the paths Bazel
passes, PTE OPS_JSON PLAN_JSON GOLDEN_BIN MODEL_PY, for the pytest functions of a check file.

    from tinypte.oracle import program_checks

    def test_something() -> None:
        ops = json.loads(program_checks.path("OPS").read_text())

    if __name__ == "__main__":
        sys.exit(program_checks.main(__file__, sys.argv[1:]))
"""

from __future__ import annotations

import os
from pathlib import Path

NAMES = ("PTE", "OPS", "PLAN", "GOLDEN", "MODEL")


def path(name: str) -> Path:
    """The file `name` (one of NAMES) of the program under check."""
    return Path(os.environ[f"TINYPTE_TEST_{name}"])


def main(test_file: str, argv: list[str]) -> int:
    """Run the pytest functions of `test_file` on the files `argv` names (in NAMES' order)."""
    import pytest

    for name, value in zip(NAMES, argv, strict=True):
        os.environ[f"TINYPTE_TEST_{name}"] = value
    return int(pytest.main([test_file, "-q", "-s", "-p", "no:cacheprovider"]))

"""The Python that Bazel runs is the venv built from python/requirements.lock.

Checks that this test runs on that venv (not the host's Python), that every locked
distribution is installed at exactly its locked version, and that the AOT stack
(torch CPU build, executorch, torchao, pyelftools) imports.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import sys
from pathlib import Path

import pytest


def lock_file() -> Path:
    return Path(os.environ["TINYPTE_TEST_LOCK"])


def venv_path_file() -> Path:
    return Path(os.environ["TINYPTE_TEST_VENV_PATH_FILE"])


def locked_versions(lock: Path) -> dict[str, str]:
    """name -> version for each `name==version` line of a pip lock file."""
    pins = {}
    for line in lock.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^ \\]+)", line)
        if match:
            pins[match.group(1)] = match.group(2)
    return pins


def test_runs_on_the_locked_venv() -> None:
    venv = Path(venv_path_file().read_text().strip())
    assert Path(sys.prefix) == venv, f"tests run on {sys.prefix}, not the locked venv {venv}"
    assert sys.prefix != sys.base_prefix, "not running inside a venv"
    assert sys.version_info[:2] == (3, 11)
    assert (venv / "requirements.lock").read_bytes() == lock_file().read_bytes(), "venv built from another lock"


def test_every_locked_distribution_is_installed_at_its_version() -> None:
    pins = locked_versions(lock_file())
    assert len(pins) > 50, f"lock parsed to only {len(pins)} pins"
    wrong = {}
    for name, version in pins.items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = "missing"
        if installed != version:
            wrong[name] = (version, installed)
    assert not wrong, f"(locked, installed) mismatches: {wrong}"


def test_aot_stack_imports() -> None:
    import elftools
    import executorch.exir
    import torch
    import torchao

    assert torch.__version__.startswith("2.13.0")
    assert torch.version.cuda is None, "torch must be the CPU build"
    assert importlib.metadata.version("executorch") == "1.5.1"
    assert torchao.__version__.startswith("0.18.0")
    assert hasattr(executorch.exir, "to_edge")
    assert elftools.__version__


def main() -> int:
    # pytest imports this file again as a module: hand it the arguments through the
    # environment.
    parser = argparse.ArgumentParser()
    parser.add_argument("--lock", required=True)
    parser.add_argument("--venv-path-file", required=True)
    args, rest = parser.parse_known_args()
    os.environ["TINYPTE_TEST_LOCK"] = args.lock
    os.environ["TINYPTE_TEST_VENV_PATH_FILE"] = args.venv_path_file
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider", *rest])


if __name__ == "__main__":
    sys.exit(main())

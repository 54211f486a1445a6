"""tinypte's Python is lint-clean, formatted and type-checked, with the repository's pyproject.toml.

Runs, on the locked venv, over the files Bazel gives as data (python/, models/, tools/):
- `ruff check` (rules E, W, F, I, B, UP, SIM, RUF, BLE; see pyproject.toml),
- `ruff format --check`,
- `mypy` in strict mode: everything but the model files in one run, and the model files (all
  named model.py) in another, each named by its path (`models.sine.model`: explicit package
  bases), as two runs share one cache.

usage: lint_test.py PYPROJECT_TOML FILE.py...   (Bazel passes runfiles-relative paths;
       with no arguments it checks python/, models/ and tools/ of the checkout it lies in)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest


def config() -> Path:
    return Path(os.environ["TINYPTE_LINT_CONFIG"])


def sources() -> list[str]:
    return os.environ["TINYPTE_LINT_FILES"].split(os.pathsep)


def run(*args: str) -> None:
    """Run `python -m TOOL ...` from the directory of pyproject.toml; fail with its output."""
    env = dict(os.environ)
    # Bazel's launcher puts the runfiles on PYTHONPATH; mypy must find tinypte through its
    # mypy_path only, or it sees the package twice.
    env.pop("PYTHONPATH", None)
    result = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=config().parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = (result.stdout + result.stderr).strip()
    print(f"$ {' '.join(args[:2])} ... ({len(args)} args)\n{output}")
    assert result.returncode == 0, f"{args[0]} failed:\n{output}"


def test_there_is_something_to_check() -> None:
    files = sources()
    assert any(f.endswith("python/tinypte/export/command.py") for f in files), files
    assert any(f.endswith("models/sine/model.py") for f in files), files
    assert all(f.endswith(".py") for f in files)


def test_ruff_check() -> None:
    run("ruff", "check", "--no-cache", "--config", str(config()), *sources())


def test_ruff_format() -> None:
    run("ruff", "format", "--check", "--no-cache", "--config", str(config()), *sources())


def test_mypy() -> None:
    models = [f for f in sources() if Path(f).name == "model.py"]
    rest = [f for f in sources() if Path(f).name != "model.py"]
    cache = Path(os.environ.get("TEST_TMPDIR") or tempfile.mkdtemp(prefix="tinypte-mypy-")) / "mypy_cache"
    common = ("--config-file", str(config()), "--cache-dir", str(cache), "--no-error-summary")
    run("mypy", *common, *rest)
    run("mypy", *common, "--explicit-package-bases", *models)


def main(argv: list[str]) -> int:
    if argv:
        pyproject, files = Path(argv[0]).absolute(), argv[1:]
        # Runfiles-relative paths: make them relative to pyproject.toml's directory, where
        # the tools run (the runfiles root of the workspace under Bazel).
        root = pyproject.parent
        files = [os.path.relpath(Path(f).absolute(), root) for f in files]
    else:
        root = Path(__file__).resolve().parents[2]
        pyproject = root / "pyproject.toml"
        files = sorted(
            str(p.relative_to(root)) for d in ("python", "models", "tools") for p in (root / d).rglob("*.py")
        )
    os.environ["TINYPTE_LINT_CONFIG"] = str(pyproject)
    os.environ["TINYPTE_LINT_FILES"] = os.pathsep.join(files)
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

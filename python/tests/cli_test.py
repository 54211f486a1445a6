"""Unit tests of tinypte.cli: one parser for every subcommand, one place that reports errors."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tinypte.cli import SUBCOMMANDS, main
from tinypte.firmware import header


def test_help_lists_each_subcommand_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listing = out.split("\nsubcommands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listing] == list(SUBCOMMANDS)
    for line, (name, entry) in zip(listing, SUBCOMMANDS.items(), strict=True):
        assert line == f"  {name:<12} {entry.summary}"


@pytest.mark.parametrize("name", list(SUBCOMMANDS))
def test_each_subcommand_has_its_own_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: tinypte {name} [-h] ")
    assert " ".join(SUBCOMMANDS[name].summary.split()) in " ".join(out.split())


def test_the_command_line_imports_no_stage_until_one_runs() -> None:
    """Lazy subcommands: `tinypte --help` and a stage's tool import no other stage (nor torch)."""
    script = "import sys; from tinypte.cli import main; main(['--help']); print(sorted(sys.modules))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(ast.literal_eval(run.stdout.splitlines()[-1]))
    stages = {entry.module for entry in SUBCOMMANDS.values()}
    assert not loaded & stages, loaded & stages
    assert "torch" not in loaded


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["nope"]) == 2
    assert main(["uf2", "--elf", "x.elf"]) == 2  # --out missing
    err = capsys.readouterr().err
    assert "invalid choice: 'nope'" in err and "the following arguments are required: --out" in err


def test_user_error_is_one_line_and_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.pte"
    bad.write_bytes(b"\0" * 64)
    out_h, out_c = tmp_path / "m.h", tmp_path / "m.c"
    args = ["--pte", str(bad), "--name", "m", "--label", "//x:m", "--out-h", str(out_h), "--out-c", str(out_c)]
    assert main(["header", *args]) == 1
    assert capsys.readouterr().err == f"error: {bad}: not an ExecuTorch program (no ET.. identifier)\n"
    assert not out_h.exists()


def test_unexpected_errors_keep_their_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: object) -> None:
        raise RuntimeError("a bug in tinypte")

    monkeypatch.setattr(header, "run", broken)
    with pytest.raises(RuntimeError, match="a bug in tinypte"):
        main(["header", "--pte", "m.pte", "--name", "m", "--label", "//x:m", "--out-h", "m.h", "--out-c", "m.c"])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))

"""The built tinypte binary prints only tinypte's own lines, and its runfiles hold every source.

Bazel shows an action's stderr in the build output, so library noise there reaches every
user. This runs //python:tinypte as actions do (the built binary, in a subprocess) on a
tiny model, once per subcommand that imports torch or ExecuTorch (which imports torchao):
their stderr may hold only the model's own training log. A `Failed to load ...so` line, a
torch `W...` log line or a Python `...Warning:` fails the test: hide it, narrowly, in
tinypte.library_noise, or remove its cause.

A runfiles path that collides with another one (as the binary's own executable did when
it was named `tinypte`, with the package directory python/tinypte/) hides files, and Bazel
only warns; so every source of the package must be a file in the runfiles.

A stage's own tool (python/tinypte/<stage>:tool, what actions run) holds that stage only:
the uf2 stage's tool, asked to train in an action (where it has its own runfiles, not this
test's), said it was built without the train stage.

usage: quiet_cli_test.py TOOL UF2_TOOL_ASKED_TO_TRAIN.txt SRC.py...   (runfiles-relative paths)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_model import write_model


def tool() -> Path:
    return Path(os.environ["TINYPTE_TOOL"]).absolute()


def sources() -> list[str]:
    return os.environ["TINYPTE_SOURCES"].split(os.pathsep)


def run_quietly(*args: str, own_lines: tuple[str, ...] = ()) -> None:
    """Run `tinypte ARGS` with an action's environment; fail on any stderr line but `own_lines`."""
    env = {"PATH": os.environ.get("PATH", "/bin:/usr/bin"), "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0",
           "PYTHONSAFEPATH": "1"}  # fmt: skip
    result = subprocess.run([str(tool()), *args], env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"tinypte {args[0]} failed:\n{result.stderr}"
    noise = [line for line in result.stderr.splitlines() if line not in own_lines]
    assert noise == [], f"tinypte {args[0]} printed library noise on stderr:\n" + "\n".join(noise)


def test_torch_subcommands_print_no_library_noise(tmp_path: Path) -> None:
    model, pte, weights = write_model(tmp_path), tmp_path / "tiny.pte", tmp_path / "tiny.pt"
    metrics, plan, golden = tmp_path / "tiny.json", tmp_path / "plan.json", tmp_path / "golden.bin"
    run_quietly("train", "--model", str(model), "--weights", str(weights), "--metrics", str(metrics),
                own_lines=("tiny: trained",))  # fmt: skip
    run_quietly("export", "--model", str(model), "--weights", str(weights), "--pte", str(pte))
    run_quietly("quantize", "--model", str(model), "--weights", str(weights), "--metrics", str(metrics),
                "--float-pte", str(pte), "--pte", str(tmp_path / "q.pte"), "--report", str(tmp_path / "q.json"),
                "--edge-program", str(tmp_path / "q.edge"))  # fmt: skip
    run_quietly("inspect_pte", "--pte", str(pte), "--ops-json", str(tmp_path / "ops.json"), "--plan-json", str(plan))
    run_quietly("golden", "--model", str(model), "--weights", str(weights), "--out", str(golden))
    run_quietly("golden", "--model", str(model), "--edge-program", str(tmp_path / "q.edge"), "--program",
                str(tmp_path / "q.pte"), "--out", str(golden))  # fmt: skip
    run_quietly("report", "--model", str(model), "--weights", str(weights), "--golden", str(golden), "--pte",
                str(pte), "--plan-json", str(plan), "--fit-png", str(tmp_path / "fit.png"), "--arena-png",
                str(tmp_path / "arena.png"))  # fmt: skip


def test_a_stage_tool_holds_only_its_stage() -> None:
    output = Path(os.environ["TINYPTE_UF2_TOOL_ASKED_TO_TRAIN"]).read_text()
    assert "this tool was built without tinypte.train.command" in output, output
    assert output.rstrip().endswith("exit status 1"), output


def test_runfiles_hold_every_source_of_the_tool() -> None:
    assert tool().is_file() and os.access(tool(), os.X_OK), tool()
    hidden = [source for source in sources() if not Path(source).is_file()]
    assert hidden == [], f"missing from the runfiles (a runfiles path collision hides them): {hidden}"
    assert any(source.endswith("python/tinypte/cli.py") for source in sources())


def main(argv: list[str]) -> int:
    os.environ["TINYPTE_TOOL"], os.environ["TINYPTE_UF2_TOOL_ASKED_TO_TRAIN"], *files = argv
    os.environ["TINYPTE_SOURCES"] = os.pathsep.join(files)
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

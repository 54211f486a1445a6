"""End-to-end checks of the RP2350 model's two-core reports, on the two-core test firmware (tests/two_cores).

- exact_count: core 1 runs hand-written code whose instructions are known (2011 up to the
  load it stalls on: exact_count.c derives it), so the last line must say core1=2011; a second
  run must print the same numbers (the interleaving is deterministic).
- two_cores with --count-execute: its tp_method_execute stand-in has core 1 count down from
  COUNT (2 COUNT + 1 instructions) while core 0 counts down from COUNT / 2 and then waits, so
  the two execute lines must agree with each other (instructions = core0, wall = core0 +
  wait0) and with that shape (core1 and the wall just above 2 COUNT + 1, core0 just above
  COUNT + 1); the last line's total is the sum of the cores' counts.
- busy_core1 with --core1-watchdog 100000: core 1 answers, then never waits again; core 0,
  woken by the answer, must still finish the run (core 1 yields after 100000 instructions).

usage: two_cores_test.py TWO_CORES_TEST EXACT_COUNT_TEST BUSY_CORE1_TEST (instruction_model_test executables)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

COUNT = 20000  # two_cores.c
OVERHEAD = 400  # instructions a call's plumbing may add around the count-downs
PASS_LINE = re.compile(
    r"^instruction_model_test: PASS \((\d+) instructions, (\d+) output checks; core0=(\d+) core1=(\d+) wait0=(\d+) wait1=(\d+)\)$",
    re.M,
)
EXECUTE_LINE = re.compile(
    r"^instruction_model_test: execute instructions=(\d+) kernel_instructions=(\d+) kernel_calls=(\d+)$", re.M
)
CORES_LINE = re.compile(
    r"^instruction_model_test: execute cores=2 core0=(\d+) core1=(\d+) wait0=(\d+) wall=(\d+)$", re.M
)


def executables() -> list[Path]:
    """The instruction_model_test executables (from the command line, through the environment)."""
    return [Path(path) for path in os.environ["TWO_CORES_TESTS"].split(os.pathsep)]


def run(test: Path, *args: str) -> str:
    result = subprocess.run([str(test), *args], capture_output=True, text=True, check=False)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{test} {' '.join(args)} failed:\n{output[-3000:]}"
    return output


def fields(pattern: re.Pattern[str], output: str) -> list[int]:
    found = pattern.search(output)
    assert found, f"no line matches /{pattern.pattern}/ in:\n{output[-3000:]}"
    return [int(group) for group in found.groups()]


def test_core1s_hand_written_instructions_are_counted_exactly() -> None:
    output = run(executables()[1])
    total, _, core0, core1, _, wait1 = fields(PASS_LINE, output)
    assert core1 == 2011, f"core 1 ran 2011 instructions up to its stall, the model says {core1}"
    assert total == core0 + core1
    assert wait1 > 0, "core 1's clock starts at its launch: time in the boot ROM counts as waiting"
    print(f"exact_count: core0={core0} core1={core1} wait1={wait1}")


def test_a_two_core_run_is_deterministic() -> None:
    first, second = run(executables()[1]), run(executables()[1])
    assert fields(PASS_LINE, first) == fields(PASS_LINE, second)


def test_the_timed_call_is_split_and_reported() -> None:
    output = run(executables()[0], "--count-execute")
    instructions, _, _ = fields(EXECUTE_LINE, output)
    core0, core1, wait0, wall = fields(CORES_LINE, output)
    total, checks, all0, all1, _, _ = fields(PASS_LINE, output)
    print(f"two_cores: execute instructions={instructions} core0={core0} core1={core1} wait0={wait0} wall={wall}")
    checked = [
        ("instructions == core0", instructions == core0),
        ("wall == core0 + wait0", wall == core0 + wait0),
        ("core 0 counts down from COUNT / 2", COUNT + 1 <= core0 <= COUNT + 1 + OVERHEAD),
        ("core 1 counts down from COUNT", 2 * COUNT + 1 <= core1 <= 2 * COUNT + 1 + OVERHEAD),
        ("core 0 waits for core 1", COUNT - OVERHEAD <= wait0 <= COUNT + OVERHEAD),
        ("the wall is core 1's path", core1 <= wall <= core1 + OVERHEAD),
        ("the last line sums the cores", total == all0 + all1 and checks == 6),
    ]
    failed = [what for what, ok in checked if not ok]
    print(f"two_cores: {len(checked) - len(failed)} of {len(checked)} checks hold")
    assert not failed, f"{failed}:\n{output[-2000:]}"


def test_a_core1_that_never_waits_again_yields_to_core0() -> None:
    output = run(executables()[2], "--core1-watchdog", "100000")
    _, _, core0, core1, _, _ = fields(PASS_LINE, output)
    assert 100000 <= core1 <= 100000 + OVERHEAD, f"core 1 yields after its slice, ran {core1}"
    print(f"busy_core1: core0={core0} core1={core1}")


if __name__ == "__main__":
    os.environ["TWO_CORES_TESTS"] = os.pathsep.join(str(Path(arg).absolute()) for arg in sys.argv[1:4])
    sys.exit(pytest.main([__file__, "-q", "-s", "-p", "no:cacheprovider"]))

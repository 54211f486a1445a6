"""Checks of core.py's C block hook (block_counter.c) on hand-assembled Thumb code: exact counts,
deadlines at the right block, the blocks a listener is given, and errors that stop the run.

Runs on the instruction models' venv (unicorn; no pytest there): `python block_counter_test.py`
with python/ on PYTHONPATH, as the BUILD file's machines_py_test does.

The program: MOVS r0, #LOOPS; then LOOPS times a body of 16- and 32-bit instructions that touch
only r1 (a fixed random mix), SUBS r0, r0, #1 and BNE back; then WFI, which ends emulation. So it runs
1 + LOOPS * (len(body) + 2) + 1 instructions, in blocks that unicorn cuts at the branch.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from machines.cortex_m.core import Core

unicorn: Any = importlib.import_module("unicorn")

CODE = 0x10000000
LOOPS = 50
CASES = 40  # random programs checked (the run fails if fewer were)


def program(rng: random.Random) -> tuple[bytes, int, int, int]:
    """(code, body instructions, loop address, WFI address) of a random body."""
    halfwords = [0x2000 | LOOPS]  # MOVS r0, #LOOPS
    loop = CODE + 2
    body = rng.randint(1, 40)
    # NOP, and 32-bit instructions of each first-halfword kind (0b11101, 0b11110, 0b11111).
    kinds = [[0xBF00], [0xEA41, 0x0101], [0xF3AF, 0x8000], [0xFB01, 0xF101]]  # NOP, ORR.W, NOP.W, MUL
    for _ in range(body):
        halfwords += rng.choice(kinds)
    halfwords.append(0x3801)  # SUBS r0, r0, #1
    here = CODE + 2 * len(halfwords)
    halfwords.append(0xD100 | (((loop - (here + 4)) >> 1) & 0xFF))  # BNE loop
    wfi = CODE + 2 * len(halfwords)
    halfwords.append(0xBF30)  # WFI
    return b"".join(h.to_bytes(2, "little") for h in halfwords), body, loop, wfi


def make_core(code: bytes, deadline_passed: Callable[[Core], None]) -> Core:
    core = Core(0, {}, deadline_passed)
    core.uc.mem_map(CODE, 0x10000)
    core.uc.mem_write(CODE, code)
    core.deadline = 1 << 40
    return core


def run(core: Core) -> None:
    core.active = True
    try:
        core.uc.emu_start(CODE | 1, 0xFFFFFFFF)
    finally:
        core.active = False
        core.flush()


def test_counts_and_listeners(seed: int) -> None:
    rng = random.Random(seed)
    code, body, _, wfi = program(rng)
    total = 1 + LOOPS * (body + 2) + 1

    # Every block to a listener that wants them all: the blocks' instructions (decoded in Python)
    # add up to the C count, which is the program's.
    seen: list[tuple[Sequence[int], int]] = []
    core = make_core(code, lambda core: None)

    def everything(starts: Sequence[int], executed: int, waited: int) -> bool:
        seen.append((starts, executed))
        return True

    core.listen_around(everything, CODE)
    run(core)
    assert core.total_instructions() == total, (seed, core.total_instructions(), total)
    assert sum(len(starts) for starts, _ in seen) + core.count == total, seed
    executed = 0
    for starts, before in seen:  # each block's `executed` is the instructions before it
        assert before == executed, seed
        executed += len(starts)
    decoded = [tuple(starts) for starts in core._lengths.values()]  # Python's decoding of each block
    assert all(starts in decoded for starts, _ in seen), seed  # C counted each block whole
    assert core.cached_blocks() >= 2, seed

    # A listener that never asks for every block gets only the blocks around its address: the
    # last loop block (it runs right before the WFI's).
    around: list[Sequence[int]] = []
    core = make_core(code, lambda core: None)

    def never_all(starts: Sequence[int], executed: int, waited: int) -> bool:
        around.append(starts)
        return False

    core.listen_around(never_all, wfi)
    run(core)
    assert around == [seen[-1][0]], (seed, around, seen[-1])

    # The deadline: deadline_passed runs once, at the first block after the count passed it (a
    # random deadline, one on a block boundary, one just before it).
    boundaries = [before for _, before in seen] + [total - core.count]
    boundary = rng.choice(boundaries[1:-1])
    for deadline in (rng.randrange(total - body - 3), boundary, boundary - 1):
        passed: list[int] = []

        def note(core: Core, passed: list[int] = passed) -> None:
            passed.append(core.executed)
            core.deadline = 1 << 40

        core = make_core(code, note)
        core.deadline = deadline
        run(core)
        assert passed == [min(b for b in boundaries if b > deadline)], (seed, passed, deadline)
        assert core.total_instructions() == total, seed


def test_an_error_in_python_stops_the_run() -> None:
    code, _, _, _ = program(random.Random(0))

    def fail(core: Core) -> None:
        raise RuntimeError("stop here")

    core = make_core(code, fail)
    core.deadline = 10
    try:
        run(core)
    except RuntimeError as error:
        assert str(error) == "stop here"
    else:
        raise AssertionError("the deadline's error did not stop the run")


def main() -> int:
    checked = 0
    for seed in range(CASES):
        test_counts_and_listeners(seed)
        checked += 1
    test_an_error_in_python_stops_the_run()
    if checked < CASES:
        print(f"block_counter_test: only {checked} random programs checked, fewer than {CASES}")
        return 1
    print(f"block_counter_test: {checked} random programs and the error path checked")
    print(f"{checked + 1} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

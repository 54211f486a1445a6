"""Unit tests of instruction_count's trace reading and of execute_count's attribution (the
RP2350 model's too: whole blocks at a time), on hand-written traces."""

from __future__ import annotations

import random
import sys

import pytest
from fake_code import FakeCode
from instruction_count import count_executes, executed_addresses

from machines.execute_count import ExecuteCount, ExecuteCounter


def test_log_lines_become_addresses() -> None:
    log = [
        "Trace 0: 0x7f00 [0080044a/00000010/00000150/ff020201] main\n",
        "Stopped execution of TB chain before 0x7f10 [00000014] main\n",
        "Trace 0: 0x7f10 [0080044a/00000014/00000150/ff020201] main\n",
        "cpu_io_recompile: rewound execution of TB to 00000014\n",
        "Trace 0: 0x7f10 [0080044a/00000014/00000150/ff020201] main\n",
        "Trace 0: 0x7f20 [00000000/00000018/00109003/ff020201] \n",
    ]
    assert list(executed_addresses(log)) == [0x10, 0x14, 0x18]


def test_a_block_stopped_before_it_ran_counts_once() -> None:
    # -icount's budget ran out as the block at 0x14 was entered: QEMU logged it, stopped
    # before running it, and logged it again when it ran.
    log = [
        "Trace 0: 0x7f00 [00800442/00000010/00000050/ff020201] f\n",
        "Trace 0: 0x7f10 [00800442/00000014/00000050/ff020201] f\n",
        "Stopped execution of TB chain before 0x7f10 [00000014] f\n",
        "Trace 0: 0x7f10 [00800442/00000014/00000050/ff020201] f\n",
        "Trace 0: 0x7f20 [00800442/00000018/00000050/ff020201] f\n",
    ]
    assert list(executed_addresses(log)) == [0x10, 0x14, 0x18]


def test_execute_and_kernel_calls_are_attributed() -> None:
    # main calls tp_method_execute from 0x010 (a 4-byte call: returns to 0x014); the executor
    # runs 3 instructions, calls a kernel's run routine at 0x200 that runs 4, then runs 2 more,
    # the last of which returns.
    trace = [0x00C, 0x010, 0x100, 0x102, 0x106, 0x200, 0x202, 0x204, 0x206, 0x108, 0x10A, 0x014, 0x018]
    (count,) = count_executes(FakeCode(), trace * 2, wanted=1)
    assert (count.instructions, count.kernel_instructions, count.kernel_calls) == (9, 4, 1)
    assert count.runtime_instructions == 5
    assert len(count_executes(FakeCode(), trace * 2, wanted=2)) == 2


def test_blocks_count_as_their_instructions() -> None:
    # The same run as translated blocks (each ends at a branch), as the RP2350 model gives
    # them: the counts are those of the instruction-by-instruction trace.
    blocks = [[0x008, 0x00C, 0x010], [0x100, 0x102, 0x106], [0x200, 0x202, 0x204, 0x206], [0x108, 0x10A], [0x014]]
    counter = ExecuteCounter(FakeCode())
    for block in blocks * 3:
        counter.step_all(block)
    flat = [address for block in blocks * 3 for address in block]
    assert counter.counts == count_executes(FakeCode(), flat, wanted=3)
    assert [c.instructions for c in counter.counts] == [9, 9, 9]
    first_only = ExecuteCounter(FakeCode(), wanted=1)
    for block in blocks * 3:
        first_only.step_all(block)
    assert first_only.done and first_only.counts == counter.counts[:1]


class RandomCode:
    """Code of random 2- and 4-byte instructions over [0, 0x400), tp_method_execute at
    [0x100, 0x180), cut into basic blocks of 1 to 8 instructions (each starting where the last
    ended, so the block after a call holds its return address)."""

    def __init__(self, rng: random.Random) -> None:
        self.execute, self.execute_end = 0x100, 0x180
        self.lengths: dict[int, int] = {}
        address = 0
        while address < 0x400:
            # The entry is an instruction start; so, in some programs, is no other boundary.
            length = 2 if address + 2 == self.execute or rng.random() < 0.6 else 4
            if address < self.execute < address + length:
                length = self.execute - address
            self.lengths[address] = length
            address += length
        starts = sorted(self.lengths)
        self.blocks: list[list[int]] = []
        while starts:
            size = rng.randint(1, 8)
            if rng.random() < 0.5 and self.execute in starts[1:size]:
                size = starts.index(self.execute)  # some programs start a block at the entry
            self.blocks.append(starts[:size])
            starts = starts[size:]

    def instruction_length(self, address: int) -> int:
        return self.lengths[address]


def random_blocks(rng: random.Random, code: RandomCode, count: int) -> list[list[int]]:
    """`count` blocks of a run that calls tp_method_execute (the block holding its entry) from
    random blocks and returns to the block after the caller's (calls nest), jumps at random
    in between, and now and then stops a block early (as a stalled core's block is cut)."""
    entry = next(i for i, block in enumerate(code.blocks) if code.execute in block)
    callers: list[int] = []
    index, run = rng.randrange(len(code.blocks)), []
    for _ in range(count):
        block = code.blocks[index]
        run.append(block[: rng.randint(1, len(block))] if rng.random() < 0.05 else block)
        choice = rng.random()
        if choice < 0.15:
            callers.append(index)
            index = entry
        elif choice < 0.3 and callers:
            index = callers.pop() + 1
        elif choice < 0.5:
            index = rng.randrange(len(code.blocks))
        else:
            index += 1
        index %= len(code.blocks)
    return run


RANDOM_RUNS = 300  # random programs and runs checked (the test fails if fewer were)


def test_whole_blocks_count_as_stepping_each_address() -> None:
    # step_all's per-block shortcut against step on every address of random runs: the same
    # calls and counts, in every run, with and without `wanted`.
    checked = shortcuts = calls = 0
    for seed in range(RANDOM_RUNS):
        rng = random.Random(seed)
        code = RandomCode(rng)
        run = random_blocks(rng, code, 600)
        reference = ExecuteCounter(code)
        for block in run:
            for address in block:
                reference.step(address)
        wanted = rng.choice([None, 1, 3])
        counter = ExecuteCounter(code, wanted=wanted)
        for block in run:
            counter.step_all(block)
        expected: list[ExecuteCount] = reference.counts if wanted is None else reference.counts[:wanted]
        assert counter.counts == expected, f"seed {seed}"
        if wanted is None:
            assert counter.in_call == reference.in_call, f"seed {seed}"
        checked += 1
        shortcuts += sum(1 for _, _, place in counter._blocks.values() if place)
        calls += len(expected)
    assert checked >= RANDOM_RUNS
    assert shortcuts > 10 * RANDOM_RUNS and calls > 10 * RANDOM_RUNS, (shortcuts, calls)


def test_too_few_executes_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="ran 0 inferences, fewer than the 1"):
        count_executes(FakeCode(), [0x00C, 0x010], wanted=1)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))

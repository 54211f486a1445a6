"""Unit tests of instruction_count's trace reading and of execute_count's attribution (the
RP2350 model's too: whole blocks at a time), on hand-written traces."""

from __future__ import annotations

import sys

import pytest
from execute_count import ExecuteCounter
from fake_code import FakeCode
from instruction_count import count_executes, executed_addresses


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


def test_too_few_executes_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="ran 0 inferences, fewer than the 1"):
        count_executes(FakeCode(), [0x00C, 0x010], wanted=1)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))

"""Two cores: the first tp_method_execute of core 0, counted exactly, and how the two cores shared it.

`CallSplit` stands between core 0's block hook and machines/execute_count.py's ExecuteCounter (it
is given each block's executed instructions as the next block starts: cortex_m/core.py), and notes
core 0's clock and waits when the call starts and returns, so that with core 1 running,
the call's wall (core 0's clock from entry to return: its instructions plus the cycles it
waited for core 1) and core 1's instructions in that span (by core 1's clock, its own waits
excluded) can be reported next to the counter's line. It listens around the call's entry (only
the blocks that hold it or run right before one that does: all the counter needs to see a call
start) and to every block while the call runs; once the call is counted it unhooks itself (the
rest of the run is not slowed down).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from machines.cortex_m.core import Core
from machines.execute_count import ExecuteCount, ExecuteCounter


@dataclass(frozen=True)
class Split:
    """One call on two cores, in cycles of core 0's clock (wall = core0 + wait0)."""

    core0: int
    core1: int
    wait0: int
    wall: int

    def line(self) -> str:
        return f"instruction_model_test: execute cores=2 core0={self.core0} core1={self.core1} wait0={self.wait0} wall={self.wall}"


class CallSplit:
    """Counts core 0's first tp_method_execute (`counter`, wanted=1) and times it on both cores."""

    def __init__(self, counter: ExecuteCounter, core0: Core, core1: Core) -> None:
        self.counter = counter
        self.core0, self.core1 = core0, core1
        self.entry: tuple[int, int] | None = None  # core 0's clock and waits at the call's entry
        self.waited_at_return: int | None = None
        self._in_call = False  # the counter's in_call before the block
        core0.listen_around(self.step_all, counter.code.execute)

    def step_all(self, starts: Sequence[int], executed: int, waited: int) -> bool:
        """One block of core 0 that ran (`starts`), after `executed` instructions and `waited`
        cycles of waits (waits happen between blocks or at a stalled load). True while the call
        is being counted (every block is wanted then)."""
        counter = self.counter
        in_call = counter.step_all(starts)
        if in_call and not self._in_call and self.entry is None:  # the call starts in this block
            before = starts.index(counter.code.execute) if counter.code.execute in starts else 0
            self.entry = (executed + before + waited, waited)
        if counter.counts and counter.done:
            self.waited_at_return = waited  # the call returned at this block's start
            self.core0.stop_listening()
        self._in_call = in_call
        return in_call

    @property
    def count(self) -> ExecuteCount | None:
        return self.counter.counts[0] if self.counter.counts else None

    def split(self) -> Split | None:
        """The call's split over the cores; None unless core 1 ran and the call was counted."""
        count = self.count
        if count is None or self.entry is None or self.waited_at_return is None or not self.core1.started:
            return None
        start, waited = self.entry
        wait0 = self.waited_at_return - waited
        wall = count.instructions + wait0
        return Split(count.instructions, self.core1.instructions_between(start, start + wall), wait0, wall)

"""A stand-in for a firmware's code in the bench's unit tests (instruction_count_test,
op_profile_test): tp_method_execute at [0x100, 0x120), every instruction 2 bytes but the
call at 0x010 (4), so that a hand-written trace of addresses can be split exactly."""

from __future__ import annotations


class FakeCode:
    """tp_method_execute's code at [0x100, 0x120); every instruction 2 bytes but 0x010 (4)."""

    def __init__(self) -> None:
        self.execute = 0x100
        self.execute_end = 0x120

    def instruction_length(self, address: int) -> int:
        return 4 if address == 0x010 else 2

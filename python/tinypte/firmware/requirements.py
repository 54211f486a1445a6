"""What a program needs on the boards, as the runtime computes it.

//runtime/tools:pte_requirements, built for //platforms/host:ilp32 (the boards' data
layout), prints a method's planned buffers and state pool as JSON; the build keeps it as
`<model>.requirements.json`. This module reads that JSON and writes the C assertions that
pin the data layout the pool size was computed for, so a firmware whose compiler lays the
runtime's structures out differently fails to compile instead of running out of pool.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError


def align16(size: int) -> int:
    return (size + 15) // 16 * 16


@dataclass(frozen=True)
class Requirements:
    program_bytes: int
    pool_bytes: int
    buffer_bytes: list[int]  # per memory id; id 0 is never used
    layout: dict[str, int]  # C expression -> its value where the pool size was computed
    # What the pool holds, in bytes: values, tensors, instructions, lists, call_args, states.
    pool_parts: dict[str, int] = field(default_factory=dict)
    planned_tensors: int = 0
    kernel_calls: int = 0
    # The method decoded at build time (tinypte.firmware.method_image), or None with the reason.
    image: dict[str, Any] | None = None
    image_unavailable: str = ""
    # The second core's scratch (tinypte/worker.h): the most a call split over two cores needs.
    worker_scratch_bytes: int = 0

    @property
    def firmware_pool_bytes(self) -> int:
        """The state pool firmware gives the method: the image's when there is one."""
        return int(self.image["pool_bytes"]) if self.image is not None else self.pool_bytes

    @classmethod
    def from_json(cls, text: str) -> Requirements:
        data = json.loads(text)
        buffers = [int(n) for n in data["buffer_bytes"]]
        return cls(
            int(data["program_bytes"]),
            int(data["pool_bytes"]),
            buffers,
            dict(data["layout"]),
            {str(k): int(v) for k, v in data.get("pool_parts", {}).items()},
            int(data.get("planned_tensors", 0)),
            int(data.get("kernel_calls", 0)),
            data.get("image"),
            str(data.get("image_unavailable", "")),
            int(data.get("worker_scratch_bytes", 0)),
        )

    @classmethod
    def measure(cls, tool: Path, pte: Path) -> Requirements:
        """Run the requirements tool on `pte`."""
        run = subprocess.run([str(tool), str(pte)], capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise TinypteError(run.stderr.strip() or f"{tool} failed on {pte} with status {run.returncode}")
        return cls.from_json(run.stdout)

    def memory_bytes(self) -> int:
        """Pool and planned buffers carved one after the other from one 16-byte aligned arena."""
        return align16(self.pool_bytes) + sum(align16(size) for size in self.buffer_bytes)


def layout_assertions(layout: dict[str, int], what: str) -> str:
    """C11 `_Static_assert`s that the target has the data layout `what` was sized for."""
    return "".join(
        f'_Static_assert({expression} == {value}, "{what} was sized by pte_requirements for '
        f'{expression} == {value}; this target differs");\n'
        for expression, value in layout.items()
    )

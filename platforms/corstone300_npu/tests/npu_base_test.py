"""The Corstone-300 machine model puts the Ethos-U55's registers where the board says they are:
npu.c's tp_board_ethos_u55_base (the board's one statement of it, which firmware reads) and
machine/npu_port.py's BASE must be the same address.

usage: npu_base_test.py NPU_C NPU_PORT_PY
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def address(path: Path, pattern: str) -> int:
    match = re.search(pattern, path.read_text(), re.MULTILINE)
    if not match:
        raise SystemExit(f"npu_base_test: FAIL no {pattern!r} in {path}")
    return int(match.group(1), 16)


def main(argv: list[str]) -> int:
    board = address(Path(argv[0]), r"tp_board_ethos_u55_base = (0x[0-9a-fA-F]+)u;")
    machine = address(Path(argv[1]), r"^BASE = (0x[0-9a-fA-F]+)")
    if board != machine:
        print(f"npu_base_test: FAIL the board's NPU is at {board:#010x}, the machine model's at {machine:#010x}")
        return 1
    print(f"npu_base_test: the NPU at {board:#010x} on the board and in the machine model")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

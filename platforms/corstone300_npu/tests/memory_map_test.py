"""The Corstone-300 machine model's memories are the boards' (//platforms/corstone300 states the
map, //platforms/corstone300_npu takes its SRAM and DDR from it): memory_map.py's MEMORIES must
be corstone300's regions, in order and with the same bases and sizes, and its NPU_REACHES the
regions of corstone300_npu (the two the NPU reaches, where that board puts everything).

usage: memory_map_test.py CORSTONE300_BOARD_JSON CORSTONE300_NPU_BOARD_JSON MEMORY_MAP_PY
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def board_regions(path: Path) -> list[tuple[int, int]]:
    """A board description's regions (tinypte_board_info's <board>.board.json), as (base, size)."""
    return [(region["origin"], region["size"]) for region in json.loads(path.read_text())["memory"]]


def load_memory_map(path: Path) -> ModuleType:
    """python/machines/sse300/memory_map.py, imported from its file (it needs nothing but the standard library)."""
    spec = importlib.util.spec_from_file_location("memory_map", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining Memory
    spec.loader.exec_module(module)
    return module


def spans(memories: tuple[Any, ...]) -> list[tuple[int, int]]:
    """memory_map.Memory values, as (base, size)."""
    return [(memory.base, memory.size) for memory in memories]


def show(regions: list[tuple[int, int]]) -> str:
    return ", ".join(f"{base:#010x}+{size:#x}" for base, size in regions)


def main(argv: list[str]) -> int:
    corstone300 = board_regions(Path(argv[0]))
    corstone300_npu = board_regions(Path(argv[1]))
    memory_map = load_memory_map(Path(argv[2]))
    failures = []
    if spans(memory_map.MEMORIES) != corstone300:
        failures.append(f"MEMORIES {show(spans(memory_map.MEMORIES))}, corstone300's regions {show(corstone300)}")
    if sorted(spans(memory_map.NPU_REACHES)) != sorted(corstone300_npu):
        failures.append(f"NPU_REACHES {show(spans(memory_map.NPU_REACHES))}, corstone300_npu's {show(corstone300_npu)}")
    for failure in failures:
        print(f"memory_map_test: FAIL the machine model's {failure}")
    if failures:
        return 1
    print(f"memory_map_test: the machine model's memories are the boards' ({show(corstone300)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

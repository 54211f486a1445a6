"""Unit tests of tinypte.firmware.placement and app_data's use of it: which region each of a
firmware's arrays goes to, the C sections that put it there, and the messages when nothing fits."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from tinypte.errors import TinypteError
from tinypte.firmware import app_data
from tinypte.firmware.placement import firmware_items, place
from tinypte.firmware.requirements import Requirements
from tinypte.golden.format import Golden

# Golden data of one float input and output: what app_data reads the input and output count from.
GOLDEN = Golden(1e-5, inputs=[[np.zeros((1, 1), np.float32)]], outputs=[[np.zeros((1, 1), np.float32)]]).to_bytes()

KIB = 1024


def region(name: str, size: int, access: str = "rwx", speed: int = 1, loadable: bool = False) -> dict[str, Any]:
    return {"name": name, "origin": 0, "size": size, "access": access, "speed": speed, "loadable": loadable}


def board(name: str, stack_size: int, *memory: dict[str, Any]) -> dict[str, Any]:
    """A board's facts as its board.json has them, with FLASH and RAM as its flash and RAM regions."""
    return {
        "name": name,
        "flash_region": "FLASH",
        "ram_region": "RAM",
        "stack_size": stack_size,
        "memory": list(memory),
    }


# The STM32H7's memories (platforms/stm32h7/board.bzl): DTCM, AXI SRAM, SRAM1-3.
H7 = board(
    "h7",
    8 * KIB,
    region("FLASH", 2048 * KIB, "rx"),
    region("RAM", 128 * KIB),
    region("SRAM123", 288 * KIB, speed=3),
    region("AXI_SRAM", 512 * KIB, speed=2),
)

# The Corstone-300's (platforms/corstone300/board.bzl): ITCM, DTCM, and loadable SRAM and DDR.
CORSTONE = board(
    "sse300",
    16 * KIB,
    region("FLASH", 512 * KIB, "rx"),
    region("RAM", 512 * KIB),
    region("DDR", 16384 * KIB, speed=3, loadable=True),
    region("SRAM", 2048 * KIB, speed=2, loadable=True),
)


def needs(program: int, pool: int, *buffers: int) -> Requirements:
    return Requirements(program, pool, [0, *buffers], {"sizeof(void *)": 4})


def placed(board: dict[str, Any], requirements: Requirements, golden: int = 1000, stack: int = 4096) -> dict[str, str]:
    placement = place(board, firmware_items(requirements, golden, stack))
    assert not placement.unplaced, placement.unplaced
    return placement.region_of


def test_what_fits_the_fastest_region_stays_there() -> None:
    assert placed(H7, needs(100_000, 8_000, 50_000)) == {
        "stack": "RAM",
        "pool": "RAM",
        "buffer1": "RAM",
        "program": "FLASH",
        "golden": "FLASH",
    }


def test_an_arena_too_big_for_the_dtcm_goes_to_the_next_fastest_region() -> None:
    # vww (float) on the H7: a 294,912 B arena; the slower SRAM1-3 (288 KiB) could not hold it
    # anyway, and the AXI SRAM (speed 2) comes before it (speed 3) although declared after.
    where = placed(H7, needs(916_432, 30_528, 294_912))
    assert where["buffer1"] == "AXI_SRAM" and where["pool"] == "RAM" and where["stack"] == "RAM"
    where = placed(H7, needs(10, 30_528, 200_000))
    assert where["buffer1"] == "AXI_SRAM"


def test_memory_ids_are_placed_one_by_one_largest_first() -> None:
    # Two planned buffers of 100 KiB and 600 KiB: the large one cannot stay in the DTCM nor in
    # the AXI SRAM; it is placed first, in neither, and fails; the small one takes the DTCM.
    placement = place(H7, firmware_items(needs(10, 1_000, 100 * KIB, 300 * KIB), 10, 4096))
    assert placement.region_of["buffer2"] == "AXI_SRAM"
    assert placement.region_of["buffer1"] == "RAM"
    assert [item.key for item in placement.contents["RAM"]] == ["stack", "pool", "buffer1"]


def test_a_program_too_big_for_flash_goes_to_a_loadable_region() -> None:
    # anomaly (float) on the Corstone-300: 1,090,720 B of program, 512 KiB of ITCM.
    where = placed(CORSTONE, needs(1_090_720, 7_208, 3_072), golden=41_040)
    assert where["program"] == "SRAM" and where["golden"] == "FLASH"
    assert placed(CORSTONE, needs(3_000_000, 7_208, 3_072))["program"] == "DDR"


def test_sections_name_the_region_and_leave_the_main_regions_to_the_defaults() -> None:
    placement = place(CORSTONE, firmware_items(needs(1_090_720, 7_208, 600 * KIB), 100, 4096))
    assert placement.section("program") == ".tp_region.SRAM.load.program"
    assert placement.section("buffer1") == ".tp_region.SRAM.noload.buffer1"
    assert placement.section("pool") is None and placement.section("golden") is None
    assert placement.summary() == (
        "golden 100 B in FLASH, stack 4096 B in RAM, pool 7208 B in RAM, buffer1 614400 B in SRAM, "
        "program 1090720 B in SRAM"
    )


def test_app_data_puts_each_array_in_its_section_and_embeds_a_moved_program() -> None:
    requirements = needs(64, 800, 600 * KIB)
    placement = place(CORSTONE, firmware_items(requirements, 16, 4096))
    program = bytes(range(64))
    c = app_data.render("m", "m_program.h", "m", GOLDEN, requirements, placement, program)
    assert 'section(".tp_region.SRAM.noload.buffer1")' in c
    assert 'section(".bss.tinypte.pool")' in c
    assert "const uint8_t *const tp_app_program = m_pte;" in c
    placement = place(CORSTONE, firmware_items(needs(600 * KIB, 800, 100), 16, 4096))
    program = bytes(600 * KIB)
    c = app_data.render("m", "m_program.h", "m", GOLDEN, needs(600 * KIB, 800, 100), placement, program)
    assert 'section(".tp_region.SRAM.load.program")' in c
    assert "const uint8_t *const tp_app_program = program;" in c
    assert "_Static_assert(sizeof program == M_PTE_SIZE" in c
    with pytest.raises(TinypteError, match="needs its bytes"):
        app_data.render("m", "m_program.h", "m", GOLDEN, needs(600 * KIB, 800, 100), placement, None)


def test_what_fits_nowhere_is_named_with_every_candidate_region() -> None:
    with pytest.raises(TinypteError) as error:
        app_data.check_fit("//m:big", H7, 100, needs(100, 2_000, 900 * KIB), 4096)
    message = str(error.value)
    assert message.startswith("model //m:big does not fit board h7: RAM: the planned buffer of memory id 1 (921600 B)")
    assert "RAM 124976 B free of 131072 B (stack 4096 B, pool 2000 B)" in message
    assert "AXI_SRAM 524288 B free of 524288 B" in message and "SRAM123 294912 B free of 294912 B" in message
    assert "FLASH" not in message.split("fits in no region:")[1]
    # Constants: flash, then loadable regions only (the H7 has none).
    problems = app_data.fit_problems(H7, 100, needs(3000 * KIB, 100, 100), 4096)
    assert [p.region for p in problems] == ["flash"]
    assert problems[0].message == (
        "flash: the program (3072000 B) fits in no region: FLASH 2097052 B free of 2097152 B (golden 100 B)"
    )


def test_the_stack_only_goes_to_the_ram_region() -> None:
    problems = app_data.fit_problems(H7, 100, needs(100, 100, 100), 200 * KIB)
    assert [(p.region, p.message.split(":")[1].strip()) for p in problems] == [
        ("RAM", "the stack (204800 B) fits in no region")
    ]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

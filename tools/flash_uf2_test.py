"""flash_uf2 (pico2w_flash): finds the RP2350 boot drive by its INFO_UF2.TXT, copies the UF2, and says in
one line how to enter BOOTSEL when there is no drive."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import flash_uf2 as flash
import pytest
from flash_uf2 import FlashError


def make_drive(root: Path, name: str, info: str) -> Path:
    drive = root / name
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text(info)
    return drive


def test_copies_to_the_rp2350_drive_only() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_drive(root, "RPI-RP2", "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
        drive = make_drive(root, "RP2350", "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n")
        uf2 = root / "pico2w_uf2.uf2"
        uf2.write_bytes(bytes(range(256)) * 4)
        target = flash.flash(uf2, [root])
        assert target == drive / "pico2w_uf2.uf2"
        assert target.read_bytes() == uf2.read_bytes()


def test_no_drive_says_how_to_enter_bootsel_in_one_line() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        uf2 = root / "fw.uf2"
        uf2.write_bytes(b"\0" * 512)
        with pytest.raises(FlashError) as error:
            flash.flash(uf2, [root / "media"])
        message = str(error.value)
        assert "\n" not in message and "BOOTSEL" in message and str(root / "media") in message


def test_two_drives_are_refused() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("A", "B"):
            make_drive(root, name, "Model: Raspberry Pi RP2350\n")
        uf2 = root / "fw.uf2"
        uf2.write_bytes(b"\0" * 512)
        with pytest.raises(FlashError, match="2 RP2350 boot drives"):
            flash.flash(uf2, [root])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

"""Copy a UF2 firmware image onto a Raspberry Pi Pico 2 W in BOOTSEL mode.

    bazel run //models/<model>:pico2w_flash        (model_firmware passes --uf2 <its UF2>)
    python3 tools/flash_uf2.py --uf2 FIRMWARE.uf2 [--drives DIR ...]

Held in BOOTSEL while plugged in, the RP2350's boot ROM shows a USB drive whose
INFO_UF2.TXT names the chip ("RP2350"); a .uf2 copied there is written to flash and the
board restarts into it. This finds that drive among the usual mount places (or --drives),
copies the image and flushes it to the device. With no drive, it says in one line how to
enter BOOTSEL and where it looked, and exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import shutil
import sys
from pathlib import Path

CHIP = "RP2350"


class FlashError(Exception):
    """Why the image was not copied (one line)."""


def mount_roots() -> list[Path]:
    """Where removable drives appear: Linux desktops (/media, /run/media), macOS (/Volumes),
    /mnt, and every FAT mount point /proc/mounts lists."""
    user = getpass.getuser()
    roots = [Path("/media") / user, Path("/media"), Path("/run/media") / user, Path("/Volumes"), Path("/mnt")]
    mounts = Path("/proc/mounts")
    if mounts.exists():
        for line in mounts.read_text(errors="replace").splitlines():
            fields = line.split()
            if len(fields) > 2 and fields[2] in ("vfat", "msdos", "fat"):
                roots.append(Path(fields[1].replace("\\040", " ")))
    return roots


def is_boot_drive(path: Path) -> bool:
    info = path / "INFO_UF2.TXT"
    try:
        return info.is_file() and CHIP in info.read_text(errors="replace")
    except OSError:
        return False


def boot_drives(roots: list[Path]) -> list[Path]:
    """RP2350 boot drives at or directly under `roots`, each once."""
    found: list[Path] = []
    for root in roots:
        candidates = [root]
        with contextlib.suppress(OSError):  # a root that does not exist or cannot be listed
            candidates += sorted(child for child in root.iterdir() if child.is_dir())
        for candidate in candidates:
            if is_boot_drive(candidate) and candidate.resolve() not in [f.resolve() for f in found]:
                found.append(candidate)
    return found


def flash(uf2: Path, roots: list[Path]) -> Path:
    """Copy `uf2` to the one RP2350 boot drive under `roots`; the path written."""
    if not uf2.is_file():
        raise FlashError(f"{uf2}: no such UF2 file (build it first)")
    drives = boot_drives(roots)
    if not drives:
        looked = ", ".join(str(root) for root in roots)
        raise FlashError(
            f"no {CHIP} boot drive found (looked in {looked}): hold the BOOTSEL button while plugging the "
            "Pico 2 W into USB, wait for the drive to mount, then run this again"
        )
    if len(drives) > 1:
        raise FlashError(f"{len(drives)} {CHIP} boot drives ({', '.join(map(str, drives))}): unplug all but one")
    target = drives[0] / uf2.name
    with uf2.open("rb") as source, target.open("wb") as sink:
        shutil.copyfileobj(source, sink)
        sink.flush()
        os.fsync(sink.fileno())
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Copy a .uf2 to a Pico 2 W in BOOTSEL mode.")
    parser.add_argument("--uf2", type=Path, required=True, help="the firmware image")
    parser.add_argument("--drives", type=Path, nargs="+", help="look for the boot drive here instead")
    args = parser.parse_args(argv)
    uf2 = args.uf2.resolve()  # Bazel's runfiles path, before moving to the user's directory
    os.chdir(os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd()))
    try:
        target = flash(uf2, args.drives or mount_roots())
    except FlashError as error:
        print(f"pico2w_flash: {error}")
        return 1
    print(f"pico2w_flash: {uf2.name} ({uf2.stat().st_size} B) -> {target}; the board restarts into it")
    print("pico2w_flash: watch it with `bazel run //tools:serial_plotter` (finds the board's USB serial port)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

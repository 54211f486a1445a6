"""The Pico 2 W console's USB vendor and product IDs, read from the firmware's own header
(platforms/pico2w/usb_descriptors.h: TP_USB_VID, TP_USB_PID), their one source. The serial
plotter finds the board's port by them; the RP2350 model's USB host checks the firmware
reports them."""

from __future__ import annotations

import re
from pathlib import Path

# In the runfiles of the tools that read it, beside this module's repository root (python/machines/
# rp2350/ is three levels down): found the same way whether tinypte is the main repository or
# another workspace's @tinypte, whose files are not below the working directory.
HEADER = Path(__file__).parents[3] / "platforms/pico2w/usb_descriptors.h"


def pico2w_usb_ids(header: Path = HEADER) -> tuple[int, int]:
    """(VID, PID) as the header defines them."""
    found = dict(re.findall(r"#define TP_USB_(VID|PID) (0x[0-9a-fA-F]+)u", header.read_text()))
    if set(found) != {"VID", "PID"}:
        raise ValueError(f"{header}: no TP_USB_VID / TP_USB_PID definitions")
    return int(found["VID"], 16), int(found["PID"], 16)

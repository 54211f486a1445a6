"""`bazel run //tools:serial_plotter -- ARGS`: `tinypte plotter ARGS`, run from the user's directory.

`bazel run` starts programs inside their runfiles tree; relative paths given on the
command line (a log to plot, a PNG to write) mean the directory the user ran it from.
With neither --port nor --input, the port is the Pico 2 W's USB serial port, found by the
console's VID:PID (machines.rp2350.usb_ids).
"""

from __future__ import annotations

import os
import sys

from machines.rp2350.usb_ids import pico2w_usb_ids
from tinypte.cli import main


def pico2w_port() -> str:
    """The serial port of the one Pico 2 W running tinypte firmware; exits with a one-line reason if
    there is none or several."""
    from serial.tools import list_ports  # pyserial, in the locked venv

    vid, pid = pico2w_usb_ids()
    ports = [port.device for port in list_ports.comports() if (port.vid, port.pid) == (vid, pid)]
    if len(ports) != 1:
        found = f"{len(ports)} ports ({', '.join(ports)})" if ports else "none"
        sys.exit(
            f"serial_plotter: looked for the Pico 2 W's USB serial port ({vid:04x}:{pid:04x}) and found {found}: "
            "plug the board in (tinypte firmware with the USB console), or give --port PORT"
        )
    print(f"serial_plotter: the Pico 2 W is on {ports[0]}")
    return str(ports[0])


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if not {"--port", "--input", "-h", "--help"} & set(arguments):
        arguments = ["--port", pico2w_port(), *arguments]
    os.chdir(os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd()))
    sys.exit(main(["plotter", *arguments]))

"""Plot a firmware's `x=... y=... ref=...` lines: live from a serial port, or from a log.

The inference firmware prints one line per inference, e.g. `x=1.571 y=0.9998 ref=1.0000`.
This tool collects the numeric `key=value` fields of such lines and plots every field
against `x` (or against the line number when there is no `x`).

usage:
  tinypte plotter --port /dev/ttyACM0 [--baud 115200]   # live window
  tinypte plotter --input run.log --png plot.png        # saved log or QEMU output
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from tinypte.errors import TinypteError
from tinypte.report import plotting

_FIELD = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)=(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def parse_line(line: str) -> dict[str, float]:
    """The numeric key=value fields of one line ({} when there are none)."""
    return {key: float(value) for key, value in _FIELD.findall(line)}


def parse_lines(lines: Iterable[str]) -> list[dict[str, float]]:
    """Records of every line that carries at least one key=value field."""
    return [record for record in map(parse_line, lines) if record]


def series(records: list[dict[str, float]]) -> tuple[list[float], dict[str, list[float]], str]:
    """(x values, {field: values}, x label) ready to plot, sorted by x."""
    if not records:
        raise TinypteError("no `key=value` lines found (expected lines like `x=0.5 y=0.47 ref=0.48`)")
    has_x = all("x" in record for record in records)
    xs = [record["x"] if has_x else float(i) for i, record in enumerate(records)]
    order = sorted(range(len(records)), key=lambda i: xs[i])
    fields = sorted({key for record in records for key in record} - ({"x"} if has_x else set()))
    values = {key: [records[i].get(key, float("nan")) for i in order] for key in fields}
    return [xs[i] for i in order], values, "x" if has_x else "line"


def render_png(records: list[dict[str, float]], png: Path, title: str) -> None:
    plt = plotting.pyplot()
    xs, values, x_label = series(records)
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for key, ys in values.items():
        axes.plot(xs, ys, marker="." if key != "ref" else None, linestyle="-" if key == "ref" else ":", label=key)
    axes.set_xlabel(x_label)
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(png, dpi=100, metadata={"Software": None})
    plt.close(figure)


def serial_lines(port: str, baud: int) -> Iterator[str]:
    try:
        import serial  # pyserial; only the live mode needs it
    except ImportError as error:
        raise TinypteError("live plotting needs pyserial (`pip install pyserial`)") from error
    try:
        connection = serial.Serial(port, baud, timeout=1)
    except serial.SerialException as error:
        raise TinypteError(f"cannot open {port}: {error}. Is the board plugged in, and is the port right?") from error
    with connection:
        while True:
            yield connection.readline().decode("utf-8", errors="replace")


def plot_live(lines: Iterable[str], window: int) -> None:
    import matplotlib.pyplot as plt

    records: list[dict[str, float]] = []
    plt.ion()
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for line in lines:
        record = parse_line(line)
        if not record:
            continue
        records = [*records, record][-window:]
        xs, values, x_label = series(records)
        axes.clear()
        for key, ys in values.items():
            axes.plot(xs, ys, ".", label=key)
        axes.set_xlabel(x_label)
        axes.legend(loc="upper right")
        figure.canvas.draw_idle()
        plt.pause(0.01)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--port", help="serial port of the board, e.g. /dev/ttyACM0 (live window)")
    source.add_argument("--input", type=Path, help="a saved log or QEMU test output")
    parser.add_argument("--baud", type=int, default=115200)
    parser.add_argument("--png", type=Path, help="with --input: write the plot here")
    parser.add_argument("--window", type=int, default=200, help="live mode: points kept on screen")


def run(args: argparse.Namespace) -> None:
    if args.input:
        if not args.png:
            raise TinypteError("--input needs --png OUT.png")
        records = parse_lines(args.input.read_text(errors="replace").splitlines())
        render_png(records, args.png, args.input.name)
        print(f"plotter: {len(records)} points -> {args.png}")
    else:
        plot_live(serial_lines(args.port, args.baud), args.window)

"""Every number the README quotes is what the code and the build say.

Each claim is a regular expression that must match the README exactly once, and whose
groups must equal what the artifacts, the sources or the board facts give (sizes from the
build's size reports, the program's operators and plan, the golden data, the board files,
the firmware's own constants). Then every figure with a unit (B, KiB, MiB, s) and every
address in the README must lie inside a checked claim: a number added to the README
without a check fails here.

usage: readme_test.py --readme README.md --sine-pte P --sine-ops J --sine-plan J
           --sine-golden G --sine-metrics J --sine-model PY --sine-size J --sine-uart-size J
           --usb-header H --usb-console C --uart-console C --setup SH --perf-baseline J --board J...
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import sys
from pathlib import Path
from typing import Any

from claims import Claim, check_claims, unchecked_figures

# Claims checked at least (the test fails when it checked fewer).
MIN_CLAIMS = 20


def number(text: str) -> int:
    return int(text.replace(",", ""))


def kib(size: int) -> str:
    """A size as the README writes a round one: '4 KiB', '2 MiB'."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MiB"
    if size % 1024 == 0:
        return f"{size // 1024} KiB"
    return f"{size} B"


def golden_header(path: Path) -> tuple[int, float]:
    """(cases, tolerance) of golden data (python/tinypte/golden/format.py's layout)."""
    data = path.read_bytes()
    assert data[:4] == b"TPGD", path
    _, cases, _, _, tolerance = struct.unpack_from("<4If", data, 4)
    return cases, tolerance


def uart_baud(console: Path) -> str:
    """The standard baud rate the UART console's divisors give from the 12 MHz crystal (within 1 %)."""
    text = console.read_text()
    ibrd = re.search(r"#define TP_UART_IBRD_\d+ (\d+)u", text)
    fbrd = re.search(r"#define TP_UART_FBRD_\d+ (\d+)u", text)
    assert ibrd and fbrd, f"{console}: no TP_UART_IBRD_/FBRD_ divisors"
    baud = 12_000_000 / (16 * (int(ibrd.group(1)) + int(fbrd.group(1)) / 64))
    return next(
        (str(b) for b in (9600, 19200, 38400, 57600, 115200, 230400) if abs(baud - b) < 0.01 * b), f"{baud:.0f}"
    )


def board_claim(board: dict[str, Any]) -> Claim:
    """A board's row of the boards table: its memory regions and stack, as board.bzl says."""
    memory = "; ".join(f"{r['name']} 0x{r['origin']:08x} {kib(r['size'])}" for r in board["memory"])
    return Claim(
        f"board {board['name']}'s memory and stack",
        rf"^\| {re.escape(board['name'])} \|.*\| ([^|]*) \| (\d+ [KM]iB) \|$",
        lambda: [memory, kib(board["stack_size"])],
    )


def pico2w_claim(baseline: dict[str, dict[str, int]], program: str) -> Claim:
    """The README's MLPerf row of `program` on the Pico 2 W: one core's instructions and the two-core
    wall, as perf_baseline.json's two-core entry holds them."""
    row = baseline[f"cores:{program}/pico2w"]
    return Claim(
        f"{program} on the Pico 2 W, one core and two (perf_baseline.json's two-core row)",
        rf"\(`{program}`\) \| ([\d,]+) \| ([\d,]+) \|",
        lambda: [f"{row['one_core']:,}", f"{row['wall']:,}"],
    )


def claims(args: argparse.Namespace) -> list[Claim]:
    ops = json.loads(args.sine_ops.read_text())["operators"]
    plan = json.loads(args.sine_plan.read_text())
    cases, tolerance = golden_header(args.sine_golden)
    metrics = json.loads(args.sine_metrics.read_text())["metrics"]
    acceptance = re.search(r'ACCEPTANCE = \{"test_mse": \("<=", ([0-9.e-]+)\)\}', args.sine_model.read_text())
    assert acceptance, "no ACCEPTANCE test_mse in the sine model file"
    usb = json.loads(args.sine_size.read_text())
    uart = json.loads(args.sine_uart_size.read_text())
    vid, pid = (
        int(v, 16) for v in re.findall(r"#define TP_USB_(?:VID|PID) (0x[0-9a-fA-F]+)u", args.usb_header.read_text())
    )
    wait_us = re.search(r"#define TP_USB_WAIT_FOR_TERMINAL_US (\d+)u", args.usb_console.read_text())
    assert wait_us, "no TP_USB_WAIT_FOR_TERMINAL_US in the USB console"
    baseline = json.loads(args.perf_baseline.read_text())
    bazel = re.search(r"\[bazel-bootstrap\]=([0-9.]+)", args.setup.read_text())
    assert bazel, "no bazel-bootstrap version in setup.sh"
    count = {f"{o['name']}.{o['overload']}": str(o["count"]) for o in ops}
    result = [
        Claim(
            "sine.pte's size",
            r"`bazel-bin/models/sine/sine\.pte` \((\d+) B\)",
            lambda: [str(args.sine_pte.stat().st_size)],
        ),
        Claim(
            "sine's operators",
            r"`aten::addmm\.out` x(\d+), `aten::relu\.out` x(\d+)\)",
            lambda: [count.get("aten::addmm.out", "0"), count.get("aten::relu.out", "0")] if len(count) == 2 else ["?"],
        ),
        Claim(
            "sine's planned arena",
            r"`sine\.plan\.json` \((\d+) B of\s+planned activations\)",
            lambda: [str(sum(plan["non_const_buffer_sizes"]))],
        ),
        Claim("sine's golden cases", r"`sine\.golden\.bin` \((\d+) inputs", lambda: [str(cases)]),
        Claim(
            "the summary line's cases and tolerance",
            r"inferences=(\d+) failures=0 max_err=\.\.\. tolerance=(\S+) ticks_per_inference=\.\.\. \(systick\) "
            r"outputs=0x\.\.\. stack=\.\.\./(\d+) PASS",
            lambda: [str(cases), f"{tolerance:.2e}", str(usb["ram"]["sections"][".stack"])],
        ),
        Claim(
            "sine's test MSE and acceptance",
            r"test MSE ([0-9.e-]+),\s+acceptance <= ([0-9.e-]+);",
            lambda: [repr(float(f"{metrics['test_mse']:.1e}")), repr(float(acceptance.group(1)))],
            normalize=lambda quoted: repr(float(quoted)),
        ),
        Claim(
            "the Pico 2 W firmware's flash, RAM and stack",
            r"the firmware uses ([\d,]+) B of flash and ([\d,]+) B\s+of RAM \((\d+ KiB) of it stack\)",
            lambda: [f"{usb['flash']['used']:,}", f"{usb['ram']['used']:,}", kib(usb["ram"]["sections"][".stack"])],
        ),
        Claim(
            "its budgets",
            r"(\d+ KiB) of flash, (\d+ KiB) of RAM; the build fails above them",
            lambda: [kib(usb["flash"]["budget"]), kib(usb["ram"]["budget"])],
        ),
        Claim(
            "the UART firmware and what USB costs",
            r"it is ([\d,]+) B and ([\d,]+) B, so USB costs ([\d,]+) B of\s+flash and ([\d,]+) B of RAM",
            lambda: [
                f"{uart['flash']['used']:,}",
                f"{uart['ram']['used']:,}",
                f"{usb['flash']['used'] - uart['flash']['used']:,}",
                f"{usb['ram']['used'] - uart['ram']['used']:,}",
            ],
        ),
        Claim("the USB IDs (journey)", r"USB\s+`([0-9a-f]{4}:[0-9a-f]{4})`, product", lambda: [f"{vid:04x}:{pid:04x}"]),
        Claim(
            "the USB IDs (troubleshooting)", r"`lsusb -d ([0-9a-f]{4}:[0-9a-f]{4})`", lambda: [f"{vid:04x}:{pid:04x}"]
        ),
        Claim(
            "the terminal wait (journey)",
            r"It waits up to (\d+) s for a terminal",
            lambda: [str(int(wait_us.group(1)) // 1_000_000)],
        ),
        Claim(
            "the terminal wait (troubleshooting)",
            r"The firmware waits (\d+) s for a terminal",
            lambda: [str(int(wait_us.group(1)) // 1_000_000)],
        ),
        Claim("the UART's baud rate", r"GPIO1 \(RX\), (\d+) 8N1\.", lambda: [uart_baud(args.uart_console)]),
        Claim(
            "the app's stack margin",
            r"a run that comes within\s+(\d+) B of the reservation fails",
            lambda: re.findall(r"#define TP_APP_STACK_MARGIN (\d+)\n", args.inference_app.read_text()),
        ),
        Claim("Bazel's version", r"`bazel-bootstrap` ([0-9.]+) and", lambda: [bazel.group(1)]),
    ] + [pico2w_claim(baseline, program) for program in ("resnet8_int8", "kws_int8", "vww_int8", "anomaly_int8")]
    return result + [board_claim(json.loads(path.read_text())) for path in args.board]


# Figures with a unit, and addresses: each must lie in a checked claim.
FIGURE = re.compile(r"\b(?:\d[\d,]*(?:\.\d+)? ?(?:B|KiB|MiB|s)\b|0x[0-9a-fA-F]+)")


def check(readme: str, all_claims: list[Claim]) -> list[str]:
    problems, covered = check_claims("", readme, all_claims)
    unchecked, _ = unchecked_figures(readme, FIGURE, covered)
    return problems + [f"README.md:{line}: {figure!r} is quoted but no claim checks it" for line, figure in unchecked]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    for name in ("readme", "sine-pte", "sine-ops", "sine-plan", "sine-golden", "sine-metrics", "sine-model",
                 "sine-size", "sine-uart-size", "usb-header", "usb-console", "uart-console", "setup", "inference-app",
                 "perf-baseline"):  # fmt: skip
        parser.add_argument(f"--{name}", type=Path, required=True)
    parser.add_argument("--board", type=Path, action="append", required=True)
    args = parser.parse_args(argv)
    all_claims = claims(args)
    problems = check(args.readme.read_text(), all_claims)
    for problem in problems:
        print(f"FAIL {problem}")
    if len(all_claims) < MIN_CLAIMS:
        print(f"FAIL only {len(all_claims)} claims checked, at least {MIN_CLAIMS} expected")
        return 1
    print(f"readme: {len(all_claims)} claims checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Every figure the READMEs below the top one quote is what the code, the board facts or a measurement say.

The top README has its own test (readme_test.py). For every other README given, each figure (a size
in B, KiB, MiB, KB or MB; a time in s, ms or us; a percentage; an address; a number with thousands
separators; a count in millions; a ratio such as 2.5x) outside a code example must be one of:
- inside a generated block (tests/bench/README.md's table of the perf guard's baseline), which must
  equal its rendering from the checked-in perf_baseline.json;
- a memory region's origin or size, or the stack's size, of the README's board (its board.json), on
  a line that names that region (a memory-map row) or the stack;
- an address that one of the README's source files writes as a literal (a register, a boot block word);
- a value a claim below checks against a constant in a source file.
A figure that none of these covers fails the test: a number added to a README without a check, or one
the code no longer gives.

usage: readmes_test.py --readme README BOARD_JSON|- SOURCE,SOURCE,...|- [--readme ...]
           --baseline perf_baseline.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import baseline_table
from claims import Claim, check_claims, unchecked_figures

# READMEs and figures checked at least (the test fails below either).
MIN_READMES = 15
MIN_FIGURES = 100

FIGURE = re.compile(
    r"(?<![\w.])(?:"
    r"\d[\d,]*(?:\.\d+)? ?(?:B|KiB|MiB|KB|MB|s|ms|us|MHz)(?!\w)"
    r"|\d+(?:\.\d+)? ?%"
    r"|0x[0-9a-fA-F]+\b"
    r"|\d{1,3}(?:,\d{3})+(?![\d.])"
    r"|\d+(?:\.\d+)?M\b"
    r"|\d+(?:\.\d+)?x(?![\w.])"
    r")"
)
HEX = re.compile(r"0x[0-9a-fA-F]+")
# A fenced block with a language (```starlark, ```c, ...) is a code example, not a claim.
CODE_EXAMPLE = re.compile(r"^```[a-z]+\n.*?^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class SourceClaim:
    """`pattern` matches the README once; its groups must equal what `source`'s constant gives."""

    what: str
    pattern: str
    source: str  # a source file's name, among the README's (names joined by + : their texts in turn)
    constant: str  # a regular expression over that file
    value: Callable[[tuple[str, ...]], list[str]] = list  # the quoted values, from its groups


def _divided(unit: int, suffix: str = "") -> Callable[[tuple[str, ...]], list[str]]:
    """Each group as a whole number of `unit`s: '2000000' -> '2' (seconds of microseconds)."""
    return lambda groups: [f"{int(g) // unit}{suffix}" for g in groups]


def _pll_mhz(groups: tuple[str, ...]) -> list[str]:
    """The crystal, PLL_SYS's and PLL_USB's outputs in MHz from the crystal's Hz and each PLL's
    feedback divider and post dividers (out = crystal * fbdiv / postdiv1 / postdiv2)."""
    crystal = int(groups[0]) // 1_000_000
    plls = [groups[1:4], groups[4:7]]
    return [f"{crystal} MHz"] + [f"{crystal * int(f) // int(a) // int(b)} MHz" for f, a, b in plls]


# Claims per README (by its path in the tree): values a README quotes from a constant of the code.
CLAIMS: dict[str, list[SourceClaim]] = {
    "runtime/README.md": [
        SourceClaim(
            "the int8 convolution's stack scratch",
            r"up to (\d+) B \(`TP_S8_CONV_STACK_SCRATCH`\)",
            "s8_conv.h",
            r"#define TP_S8_CONV_STACK_SCRATCH (\d+)",
        ),
        SourceClaim(
            "the float 3x3 convolution's padded planes on the stack",
            r"\(at most (\d+ KiB)\)",
            "convolution.c",
            r"#define PADDED_MAX (\d+)",
            lambda floats: [f"{int(floats[0]) * 4 // 1024} KiB"],
        ),
    ],
    "rules/README.md": [
        SourceClaim(
            "qemu_test's default time limit",
            r"with a time limit \((\d+) s\s+by default\)",
            "qemu_test.bzl",
            r'"timeout_seconds": attr\.int\(\s*default = (\d+)',
        )
    ],
    "platforms/mps2_an521/README.md": [
        SourceClaim(
            "core 1's stack",
            r"core 1's (\d+ KiB) stack",
            "two_cores.c",
            r"#define CORE1_STACK_BYTES (\d+)",
            lambda g: [f"{int(g[0]) // 1024} KiB"],
        ),
        SourceClaim(
            "the wait's time limit",
            r"`TP_BOARD_TWO_CORES_TIMEOUT_US` \((\d+) s\)",
            "two_cores_board.h",
            r"#define TP_BOARD_TWO_CORES_TIMEOUT_US (\d+)u",
            _divided(1_000_000),
        ),
        SourceClaim(
            "the timeout's period and the timer's clock",
            r"counted in (\d+ ms) periods of the SSE-200's TIMER0 \(0x50000000, the (\d+ MHz) system clock",
            "two_cores.c",
            r"#define SYSCLK_TICKS_PER_US (\d+)u\n#define TIMEOUT_PERIOD_US (\d+)u",
            lambda g: [f"{int(g[1]) // 1000} ms", f"{g[0]} MHz"],
        ),
    ],
    "platforms/corstone300_npu/README.md": [
        SourceClaim(
            "the NPU's register window",
            r"^\| Ethos-U55 registers \| 0x[0-9a-f]+ \| (\d+ KiB) \|",
            "npu_port.py",
            r"^SIZE = (0x[0-9a-fA-F]+)",
            lambda g: [f"{int(g[0], 16) // 1024} KiB"],
        ),
    ],
    "platforms/pico2w/README.md": [
        SourceClaim(
            "core 1's stack",
            r"Its (\d+ KiB) stack is the SCRATCH_X bank",
            "two_cores.c",
            r"#define CORE1_STACK_WORDS (\d+)u",
            lambda g: [f"{int(g[0]) * 4 // 1024} KiB"],
        ),
        SourceClaim(
            "the wait's time limit",
            r"`TP_BOARD_TWO_CORES_TIMEOUT_US` \((\d+) s by TIMER0\)",
            "two_cores_board.h",
            r"#define TP_BOARD_TWO_CORES_TIMEOUT_US (\d+)u",
            _divided(1_000_000),
        ),
        SourceClaim(
            "the USB console's wait for a terminal",
            r"up to (\d+) s for a terminal",
            "usb_console.c",
            r"#define TP_USB_WAIT_FOR_TERMINAL_US (\d+)u",
            _divided(1_000_000),
        ),
        SourceClaim(
            "the flash",
            r"runs in Arm Secure mode, (\d+ MiB) of QSPI",
            "board.bzl",
            r'memory_region\("FLASH", 0x10000000, (\d+) \* 1024 \* 1024',
            lambda g: [f"{g[0]} MiB"],
        ),
        SourceClaim(
            "the clocks",
            r"the (\d+ MHz) crystal for clk_ref and clk_peri, PLL_SYS for clk_sys (\d+ MHz), "
            r"PLL_USB for clk_usb (\d+ MHz)",
            "rp2350_regs.h+clocks.c",
            r"#define TP_XOSC_HZ (\d+)u[\s\S]*start_pll\(TP_PLL_SYS, (\d+), (\d+), (\d+)\);\s*"
            r"start_pll\(TP_PLL_USB, (\d+), (\d+), (\d+)\);",
            _pll_mhz,
        ),
    ],
    "tests/bench/README.md": [
        SourceClaim(
            "the host timing's turns",
            r"(\d+) times, each turn about (\d+ ms)",
            "perf.py",
            r"HOST_ROUNDS = (\d+)\b.*\nHOST_SECONDS_PER_TURN = ([0-9.]+)",
            lambda g: [g[0], f"{round(float(g[1]) * 1000)} ms"],
        ),
        SourceClaim(
            "the guard's allowed growth",
            r"instructions grow more than (\d+ %), or its flash,\s+RAM or stack "
            r"more than (\d+ %)",
            "perf.py",
            r"INSTRUCTION_GROWTH = ([0-9.]+)\b.*\nMEMORY_GROWTH = ([0-9.]+)",
            lambda g: [f"{round(float(x) * 100)} %" for x in g],
        ),
    ],
}


@dataclass
class Readme:
    path: Path
    name: str  # its path in the tree
    board: dict[str, object] | None
    sources: dict[str, Path]


def _spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text, re.MULTILINE)]


def _size_text(size: int) -> set[str]:
    """How a README may write a region's size: '4 MiB', '512 KiB', '768 B'."""
    texts = {f"{size:,} B", f"{size} B"}
    if size % (1024 * 1024) == 0:
        texts.add(f"{size // (1024 * 1024)} MiB")
    if size % 1024 == 0:
        texts.add(f"{size // 1024} KiB")
    return texts


def _line_of(text: str, position: int) -> str:
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    return text[start : end if end >= 0 else len(text)]


def board_fact(readme: Readme, text: str, figure: re.Match[str]) -> bool:
    """Whether `figure` is an origin or a size of the board's regions (on a line naming the region,
    for a size) or its stack size (beside the word stack)."""
    if readme.board is None:
        return False
    line = _line_of(text, figure.start())
    value = figure.group()
    regions = readme.board["memory"]
    assert isinstance(regions, list)
    for region in regions:
        if value.startswith("0x") and int(value, 16) == region["origin"]:
            return True
        if value in _size_text(region["size"]) and re.search(rf"\b{re.escape(region['name'])}\b", line, re.IGNORECASE):
            return True
    stack = readme.board["stack_size"]
    assert isinstance(stack, int)
    after = text[figure.end() : figure.end() + 12]
    return value in _size_text(stack) and re.match(r"\s*(?:of\s+)?stack", after) is not None


def constant_of(readme: Readme, claim: SourceClaim) -> tuple[str, ...] | None:
    """The groups of `claim.constant` in its source files (read in turn), or None."""
    sources = [readme.sources.get(name) for name in claim.source.split("+")]
    texts = [source.read_text() for source in sources if source]
    found = re.search(claim.constant, "\n".join(texts), re.MULTILINE) if len(texts) == len(sources) else None
    return found.groups() if found else None


def source_literals(readme: Readme) -> set[int]:
    return {int(h, 16) for path in readme.sources.values() for h in HEX.findall(path.read_text(errors="replace"))}


def check_readme(readme: Readme, baseline: dict[str, dict[str, int]]) -> tuple[list[str], int]:
    """(problems, figures checked) of one README."""
    text = readme.path.read_text()
    problems: list[str] = []
    covered = _spans(CODE_EXAMPLE.pattern, text)
    table = baseline_table.quoted(text)
    if table is not None:
        if table != baseline_table.render(baseline):
            problems.append(f"{readme.name}: the perf baseline table is not perf_baseline.json's: "
                            "`bazel run //tests/bench:perf -- --update-baseline` rewrites it")  # fmt: skip
        start = text.index(baseline_table.BEGIN)
        covered.append((start, text.index(baseline_table.END, start)))
    claims: list[Claim] = []
    for source_claim in CLAIMS.get(readme.name, []):
        found = constant_of(readme, source_claim)
        if found is None:
            problems.append(
                f"{readme.name}: {source_claim.what}: no /{source_claim.constant}/ in {source_claim.source}"
            )
            continue
        expected = partial(source_claim.value, found)
        claims.append(Claim(source_claim.what, source_claim.pattern, expected, said_by=source_claim.source))
    claim_problems, claim_spans = check_claims(f"{readme.name}: ", text, claims)
    literals = source_literals(readme)

    def checked_otherwise(figure: re.Match[str]) -> bool:
        value = figure.group()
        return board_fact(readme, text, figure) or (value.startswith("0x") and int(value, 16) in literals)

    unchecked, figures = unchecked_figures(text, FIGURE, covered + claim_spans, checked_otherwise)
    problems += claim_problems + [
        f"{readme.name}:{line}: {figure!r} is quoted but nothing checks it (a claim in "
        "tests/docs/readmes_test.py, the board's facts, or a literal of its sources)"
        for line, figure in unchecked
    ]
    return problems, figures


def self_check(scratch: Path) -> list[str]:
    """The checker fails what it must: an unchecked figure, a claim the source contradicts, a
    stale baseline table (each on a README written here)."""
    source = scratch / "s8_conv.h"
    source.write_text("#define TP_S8_CONV_STACK_SCRATCH 256u\n")
    readme = scratch / "README.md"
    readme.write_text(
        f"up to 512 B (`TP_S8_CONV_STACK_SCRATCH`) and 12 KiB more.\n{baseline_table.BEGIN}\n| x |\n{baseline_table.END}\n"
    )
    problems, _ = check_readme(Readme(readme, "runtime/README.md", None, {"s8_conv.h": source}), {})
    wanted = ["the README says ['512']; s8_conv.h: ['256']", "'12 KiB' is quoted", "perf baseline table"]
    return [f"self-check: no problem reported for {w!r}" for w in wanted if not any(w in p for p in problems)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--readme", nargs=3, action="append", required=True, metavar=("README", "BOARD", "SOURCES"))
    parser.add_argument("--baseline", type=Path, required=True)
    args = parser.parse_args(argv)
    baseline = json.loads(args.baseline.read_text())
    with tempfile.TemporaryDirectory() as scratch:
        problems = self_check(Path(scratch))
    figures = 0
    for path, board, sources in args.readme:
        readme = Readme(
            Path(path),
            path,
            json.loads(Path(board).read_text()) if board != "-" else None,
            {Path(s).name: Path(s) for s in sources.split(",") if s != "-"},
        )
        found, count = check_readme(readme, baseline)
        problems += found
        figures += count
    for problem in problems:
        print(f"FAIL {problem}")
    print(f"readmes: {len(args.readme)} READMEs, {figures} figures checked, {len(problems)} problems")
    if len(args.readme) < MIN_READMES or figures < MIN_FIGURES:
        print(f"FAIL expected at least {MIN_READMES} READMEs and {MIN_FIGURES} figures")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

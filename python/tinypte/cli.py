"""`tinypte SUBCOMMAND ARGS...`: the AOT toolkit's one command line (//python:tinypte).

Each subcommand is a module of this package that defines `SUMMARY` (its one-line help),
`add_arguments(parser)` and `run(args)`. This is the one place where a `TinypteError`
becomes one `error: ...` line on stderr and exit status 1; any other exception is a bug
in tinypte and keeps its traceback. Before any subcommand imports torch or ExecuTorch,
`tinypte.library_noise` hides the libraries' known-harmless messages.
"""

from __future__ import annotations

import argparse
import sys
from typing import Protocol

from tinypte import app_data, export, golden, header, inspect_pte, kernels, library_noise, plotter, report, size, uf2
from tinypte.errors import TinypteError


class Subcommand(Protocol):
    """What a subcommand module provides."""

    SUMMARY: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> None: ...


# In pipeline order: model file -> .pte -> firmware data -> checked image; then tools.
SUBCOMMANDS: dict[str, Subcommand] = {
    "export": export,
    "inspect_pte": inspect_pte,
    "golden": golden,
    "report": report,
    "header": header,
    "kernels": kernels,
    "app_data": app_data,
    "size": size,
    "uf2": uf2,
    "plotter": plotter,
}


def build_parser() -> argparse.ArgumentParser:
    # The subcommand list is written out (not argparse's own, which wraps long names and
    # summaries onto a second line): one line per subcommand, whatever the terminal width.
    listing = "".join(f"  {name:<12} {module.SUMMARY}\n" for name, module in SUBCOMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="tinypte",
        description="tinypte's ahead-of-time toolkit: from a PyTorch model file to firmware data.",
        epilog=f"subcommands:\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(
        dest="subcommand", required=True, metavar="SUBCOMMAND", help="`tinypte SUBCOMMAND --help` shows its arguments"
    )
    for name, module in SUBCOMMANDS.items():
        module.add_arguments(subparsers.add_parser(name, description=module.SUMMARY))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; the exit status (0 ok, 1 a user error, 2 a usage error)."""
    library_noise.install()
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error argparse has already printed
        return stop.code if isinstance(stop.code, int) else 2
    try:
        SUBCOMMANDS[args.subcommand].run(args)
    except TinypteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0

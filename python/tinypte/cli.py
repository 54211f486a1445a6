"""`tinypte SUBCOMMAND ARGS...`: the AOT toolkit's one command line.

Each subcommand is a module of a stage package (`tinypte.train.command`, ...) that defines
`add_arguments(parser)` and `run(args)`; `SUBCOMMANDS` names it and its one-line help. The
module is imported only when its subcommand runs, so a tool built with one stage's package
(the `tool` binary in python/tinypte/<stage>/, which Bazel actions run) needs nothing else,
and `//python:tinypte` holds them all.

This is the one place where a `TinypteError` becomes one `error: ...` line on stderr and
exit status 1; any other exception is a bug in tinypte and keeps its traceback. Before any
subcommand imports torch or ExecuTorch, `tinypte.library_noise` hides the libraries'
known-harmless messages, and a subcommand that exports gets tinypte.export_cache (torch.export's
decompositions made cheap to repeat) and tinypte.lazy_codegen (graph code written when used).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from types import ModuleType

from tinypte import export_cache, lazy_codegen, library_noise
from tinypte.errors import InternalError, TinypteError


@dataclass(frozen=True)
class Subcommand:
    module: str  # the module defining add_arguments(parser) and run(args)
    summary: str  # one line of help
    exports: bool = False  # runs torch.export / to_edge: install tinypte.export_cache first
    heavy: tuple[str, ...] = ()  # slow imports of its run, which a persistent worker does once

    def load(self) -> ModuleType:
        try:
            return importlib.import_module(self.module)
        except ModuleNotFoundError as error:
            if not self.module.startswith(f"{error.name}.") and error.name != self.module:
                raise  # the module is there; something it imports is not
            raise InternalError(f"this tool was built without {self.module} (its stage's py_library)") from error


# What a subcommand imports that takes seconds: a persistent worker (tinypte.worker) imports it
# once, before it forks for each action.
TORCH = ("torch",)
EXIR = (*TORCH, "executorch.exir")
CORTEX_M = (*EXIR, "torchao.quantization.pt2e.quantize_pt2e", "executorch.backends.cortex_m.quantizer.quantizer",
            "executorch.backends.cortex_m.passes.cortex_m_pass_manager")  # fmt: skip

# In pipeline order: model file -> weights -> .pte -> firmware data -> checked image; then tools.
SUBCOMMANDS: dict[str, Subcommand] = {
    "train": Subcommand("tinypte.train.command", "Train a model file: its weights and metrics.", heavy=TORCH),
    "export": Subcommand(
        "tinypte.export.command", "Export a model file's trained weights to a float .pte.", exports=True, heavy=EXIR
    ),
    "quantize": Subcommand(
        "tinypte.quantize.command",
        "Quantize a model file's trained weights to an int8 .pte.",
        exports=True,
        heavy=CORTEX_M,
    ),
    "inspect_pte": Subcommand("tinypte.inspect_pte.command", "Operators and memory plan of a .pte."),
    "golden": Subcommand("tinypte.golden.command", "Golden inputs and PyTorch outputs.", heavy=CORTEX_M),
    "report": Subcommand(
        "tinypte.report.command", "Fit and arena pictures of a model.", heavy=(*TORCH, "matplotlib.pyplot")
    ),
    "header": Subcommand("tinypte.firmware.header", "Embed a .pte as a C array in flash (a model's program library)."),
    "kernels": Subcommand("tinypte.kernels.registry", "Generate a selective kernel registry."),
    "app_data": Subcommand("tinypte.firmware.app_data", "Static data of a model firmware."),
    "size": Subcommand(
        "tinypte.size.command", "Flash and RAM use of a firmware ELF against its board's memory map, and budgets."
    ),
    "uf2": Subcommand("tinypte.uf2.command", "Convert a firmware ELF to UF2."),
    "plotter": Subcommand("tinypte.plotter.command", "Plot x/y/ref lines from firmware output."),
}


def heavy_imports(argv: list[str]) -> tuple[str, ...]:
    """The slow imports of the subcommand `argv` runs (none for an unknown one)."""
    requested = next((a for a in argv if not a.startswith("-")), None)
    entry = SUBCOMMANDS.get(requested or "")
    return entry.heavy if entry else ()


def build_parser(subcommand: str | None) -> argparse.ArgumentParser:
    """The command line; only `subcommand`'s module (if any) is imported for its arguments."""
    # The subcommand list is written out (not argparse's own, which wraps long names and
    # summaries onto a second line): one line per subcommand, whatever the terminal width.
    listing = "".join(f"  {name:<12} {entry.summary}\n" for name, entry in SUBCOMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="tinypte",
        description="tinypte's ahead-of-time toolkit: from a PyTorch model file to firmware data.",
        epilog=f"subcommands:\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(
        dest="subcommand", required=True, metavar="SUBCOMMAND", help="`tinypte SUBCOMMAND --help` shows its arguments"
    )
    for name, entry in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, description=entry.summary)
        if name == subcommand:
            entry.load().add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; the exit status (0 ok, 1 a user error, 2 a usage error). With
    `--persistent_worker` (how Bazel starts a worker), serve Bazel's work requests instead."""
    library_noise.install()
    argv = sys.argv[1:] if argv is None else argv
    if "--persistent_worker" in argv:
        from tinypte import worker

        return worker.serve(main, heavy_imports, sys.stdin.buffer, sys.stdout.buffer)
    requested = next((a for a in argv if not a.startswith("-")), None)
    try:
        args = build_parser(requested if requested in SUBCOMMANDS else None).parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error argparse has already printed
        return stop.code if isinstance(stop.code, int) else 2
    entry = SUBCOMMANDS[args.subcommand]
    if entry.exports:
        export_cache.install()
        lazy_codegen.install()
    try:
        entry.load().run(args)
    except TinypteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0

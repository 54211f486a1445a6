"""`tinypte export`: a model file and its trained weights become a float .pte.

The model file's `build()` with the weights of the train stage, exported by pipeline.py
(ExecuTorch with tinypte's memory planning). Same model file and weights, same bytes.

usage: tinypte export --model M.py --weights W.pt --pte OUT.pte [--seed 0]
           [--no-constant-prop] [--alignment 16] [--memory-planning best|greedy|lowest_offset|naive]
"""

from __future__ import annotations

import argparse
import hashlib

from tinypte.export.pipeline import add_program_arguments, export_program, trained_model


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_program_arguments(parser, pte="float .pte to write")
    parser.add_argument("--no-constant-prop", dest="constant_prop", action="store_false")


def run(args: argparse.Namespace) -> None:
    _, model, example = trained_model(args)
    pte = export_program(model, example, args.constant_prop, args.model, args.alignment, args.memory_planning)
    args.pte.write_bytes(pte)
    print(f"export: {args.model.name}: {args.pte.name} {len(pte)} B sha256:{hashlib.sha256(pte).hexdigest()[:16]}")

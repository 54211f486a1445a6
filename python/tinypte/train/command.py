"""`tinypte train`: train a model file, check its metrics, write the weights and the metrics.

Pipeline: seed torch (deterministic algorithms, one thread) -> build() -> train(model,
seed=, log=) -> evaluate() against the model file's ACCEPTANCE. Same model file and seed,
same weights bit for bit. Every later stage (export, quantize, golden, report) starts from
these weights, so training runs once per model file and seed, whatever is built from it.

Outputs: the trained state_dict (torch.save) and a JSON file
    {"model": "<model file name>", "seed": S, "metrics": {name: value}, "weights_sha256": hex}
that the quantize stage compares the int8 program's metrics with.

With `--state-dict` the weights come from elsewhere (a notebook): they are loaded into
build()'s module instead of calling train() (a mismatch names the first parameter that does
not fit), then evaluated against ACCEPTANCE when the model file has them.

usage: tinypte train --model M.py --weights OUT.pt --metrics OUT.json [--seed 0]
                     [--state-dict GIVEN.pt]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError
from tinypte.model import loading


def state_dict_bytes(model: Any) -> bytes:
    import torch

    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.getvalue()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, required=True, help="model file (see tinypte/model/loading.py)")
    parser.add_argument("--weights", type=Path, required=True, help="trained state_dict to write (torch.save)")
    parser.add_argument("--metrics", type=Path, required=True, help="the trained model's metrics to write (JSON)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--state-dict", type=Path, help="weights trained elsewhere: load them instead of train()")


def run(args: argparse.Namespace) -> None:
    path: Path = args.model
    module = loading.load(path)
    loading.deterministic(args.seed)
    model = loading.call(path, "build()", module.build)
    if args.state_dict is not None:
        import torch

        try:
            state = torch.load(args.state_dict, weights_only=True)
        except Exception as error:  # an unreadable file is the user's input
            raise TinypteError(f"{args.state_dict}: not a state_dict saved with torch.save: {error}") from error
        loading.load_weights(path, model, state, args.state_dict)
    elif not hasattr(module, "train"):
        raise TinypteError(f"{path} has no train(): give executorch_model `weights` (a state_dict file) to build it")
    else:
        log = lambda line: print(line, file=sys.stderr)  # noqa: E731
        loading.call(path, "train()", module.train, model, seed=args.seed, log=log)
    model.eval()
    metrics = loading.call(path, "evaluate()", module.evaluate, model)
    loading.check_acceptance(path, metrics, module.ACCEPTANCE)
    weights = state_dict_bytes(model)
    digest = hashlib.sha256(weights).hexdigest()
    args.weights.write_bytes(weights)
    record = {"model": path.name, "seed": args.seed, "metrics": metrics, "weights_sha256": digest}
    args.metrics.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    shown = ", ".join(f"{k}={v:.6g}" for k, v in sorted(metrics.items()))
    origin = f"weights {args.state_dict.name}" if args.state_dict is not None else f"seed {args.seed}"
    print(f"train: {path.name} {origin}: {shown or 'no metrics'}; {args.weights.name} sha256:{digest[:16]}")

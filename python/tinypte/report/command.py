"""`tinypte report`: pictures of a model: its fit against the truth, and its memory arena over time.

fit PNG:   the model file's `plot_fit(model, axes)` if it defines one (sine: the learned
           curve against sin(x)); otherwise each golden output (the golden stage's) against
           its case number.
arena PNG: every planned tensor as a bar spanning its lifetime (instruction indices) at
           its byte offset in its planned buffer: overlaps in time and space would be bugs.

usage: tinypte report --model M.py --weights W.pt --golden G.bin --pte M.pte --plan-json plan.json
           --fit-png fit.png --arena-png arena.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tinypte.golden.format import Golden
from tinypte.model import loading
from tinypte.report import plotting


def plot_fit(model_path: Path, weights: Path, golden: Path, png: Path) -> None:
    plt = plotting.pyplot()
    module = loading.load(model_path)
    figure, axes = plt.subplots(figsize=(7, 4))
    if hasattr(module, "plot_fit"):
        model = loading.trained(model_path, module, weights)
        loading.call(model_path, "plot_fit()", module.plot_fit, model, axes)
    else:
        data = Golden.from_bytes(golden.read_bytes())
        outputs = [case[0].reshape(-1) for case in data.outputs]
        for k in range(len(outputs[0])):
            axes.plot([o[k] for o in outputs], ".", label=f"output[{k}]")
        axes.set_xlabel("golden case")
    axes.set_title(f"{model_path.parent.name}: fit")
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    figure.savefig(png, dpi=100, metadata={"Software": None})
    plt.close(figure)


def plot_arena(plan: dict[str, Any], png: Path, title: str) -> None:
    plt = plotting.pyplot()
    figure, axes = plt.subplots(figsize=(7, 4))
    colors = {"input": "tab:green", "output": "tab:red", "intermediate": "tab:blue"}
    for t in plan["tensors"]:
        start, end = t["first_use"], t["last_use"]
        axes.broken_barh([(start - 0.4, end - start + 0.8)], (t["offset"], t["nbytes"]),
                         facecolor=colors[t["role"]], edgecolor="black", alpha=0.6)  # fmt: skip
        axes.text(start, t["offset"] + t["nbytes"] / 2, f"v{t['evalue']}", va="center", fontsize=7)
    axes.set_xlabel("instruction")
    axes.set_ylabel("byte offset in planned buffer")
    axes.set_title(f"{title}: arena {sum(plan['non_const_buffer_sizes'])} B (green input, red output)")
    axes.set_ylim(0, max(1, max(plan["non_const_buffer_sizes"])))
    figure.tight_layout()
    figure.savefig(png, dpi=100, metadata={"Software": None})
    plt.close(figure)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--weights", type=Path, required=True)
    parser.add_argument("--golden", type=Path, required=True, help="its golden data (plotted without plot_fit())")
    parser.add_argument("--pte", type=Path, required=True)
    parser.add_argument("--plan-json", type=Path, required=True)
    parser.add_argument("--fit-png", type=Path, required=True)
    parser.add_argument("--arena-png", type=Path, required=True)


def run(args: argparse.Namespace) -> None:
    plot_fit(args.model, args.weights, args.golden, args.fit_png)
    plot_arena(json.loads(args.plan_json.read_text()), args.arena_png, args.pte.name)

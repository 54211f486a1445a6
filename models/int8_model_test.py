"""Checks of an int8 model (executorch_model with quantize = "int8") against its float twin.

- ops.json: every operator but data movement is a cortex_m:: one, and int8 tensors flow;
- the export's report (<name>.quant.json): nothing left in float, int8 constants at most
  --max-constant-ratio of float's, arena at most --max-arena-ratio, and the quality metric
  within bounds: --metric NAME with --at-most X (absolute) and/or --within D (at most D
  worse than float, in the direction ACCEPTANCE names with --higher-is-better).

usage: int8_model_test.py OPS_JSON QUANT_JSON --metric NAME [--at-most X] [--within D]
           [--higher-is-better] [--max-constant-ratio R] [--max-arena-ratio R]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DATA_MOVEMENT = {"aten::view_copy", "aten::permute_copy", "aten::clone", "dim_order_ops::_clone_dim_order"}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ops_json", type=Path)
    parser.add_argument("quant_json", type=Path)
    parser.add_argument("--metric", required=True)
    parser.add_argument("--at-most", type=float)
    parser.add_argument("--within", type=float)
    parser.add_argument("--higher-is-better", action="store_true")
    parser.add_argument("--max-constant-ratio", type=float, default=0.30)
    parser.add_argument("--max-arena-ratio", type=float, default=1.0)
    args = parser.parse_args(argv)
    ops = json.loads(args.ops_json.read_text())["operators"]
    report = json.loads(args.quant_json.read_text())
    failures: list[str] = []
    checks = 0

    def check(ok: bool, what: str) -> None:
        nonlocal checks
        checks += 1
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    names = [o["name"] for o in ops]
    check(any(n.startswith("cortex_m::") for n in names), f"ops.json lists cortex_m:: operators: {names}")
    other = [n for n in names if not n.startswith("cortex_m::") and n not in DATA_MOVEMENT]
    check(not other, f"no float compute operators left: {other}")
    check(any("int8" in o["dtypes"] for o in ops), "int8 tensors in the program")
    check(not report["float_nodes"], f"nodes left in float: {report['float_nodes']}")
    f, q = report["float"], report["int8"]
    ratio = q["constant_bytes"] / f["constant_bytes"]
    check(
        ratio <= args.max_constant_ratio,
        f"constants {q['constant_bytes']} B = {ratio:.1%} of float's {f['constant_bytes']} B (<= {args.max_constant_ratio:.0%})",
    )
    arena = q["arena_bytes"] / f["arena_bytes"]
    check(
        arena <= args.max_arena_ratio,
        f"arena {q['arena_bytes']} B = {arena:.1%} of float's {f['arena_bytes']} B (<= {args.max_arena_ratio:.0%})",
    )
    value, reference = q["metrics"][args.metric], f["metrics"][args.metric]
    if args.at_most is not None:
        check(value <= args.at_most, f"{args.metric} {value:.6g} <= {args.at_most:g} (float {reference:.6g})")
    if args.within is not None:
        worse = reference - value if args.higher_is_better else value - reference
        check(worse <= args.within, f"{args.metric} {value:.6g} within {args.within:g} of float's {reference:.6g}")
    expected = 6 + (args.at_most is not None) + (args.within is not None)
    if checks != expected:
        failures.append(f"ran {checks} checks, expected {expected}")
    print(f"{checks} checks, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The NPU model against tosa_reference_model on the MLPerf Tiny programs' own delegates: for each
delegated program the zoo builds (`<m>_npu`), every delegate's blob (from the .pte) runs on the
NPU model and its TOSA graph (what the quantize stage kept) on the reference, on seeded random
int8 inputs over the whole range, and the outputs must be equal byte for byte.

The outputs must also mostly lie inside their type's range (`--min-unsaturated`, a share): an
output clamped to -128 or 127 would agree with the reference whatever went wrong before the clamp.

usage: zoo_graphs_test.py --min-values N --seeds K [--min-unsaturated 0.9] (PTE DELEGATE_GRAPHS_JSON)...
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from pathlib import Path

from ethos_u55.npu_model.compare import check, seeded_inputs


def delegate_blobs(pte: Path) -> list[bytes]:
    """Each delegate's processed blob, in the forward plan's order."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    program = deserialize_pte_binary(pte.read_bytes()).program
    plan = next(p for p in program.execution_plan if p.name == "forward")
    return [bytes(program.backend_delegate_data[d.processed.index].data) for d in plan.delegates]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--min-values", type=int, required=True, help="fail when fewer output values were compared")
    parser.add_argument("--seeds", type=int, default=3, help="random input cases per delegate")
    parser.add_argument(
        "--min-unsaturated", type=float, default=0.9,
        help="fail when a smaller share of the outputs is strictly inside its type's range (saturated outputs hide errors)",
    )  # fmt: skip
    parser.add_argument("pairs", nargs="+", help="PTE DELEGATE_GRAPHS_JSON ...")
    args = parser.parse_args(argv)
    values = unsaturated = 0
    failures = 0
    for pte, graphs_json in zip(args.pairs[::2], args.pairs[1::2], strict=True):
        graphs = [g for g in json.loads(Path(graphs_json).read_text())["graphs"] if g["method"] == "forward"]
        blobs = delegate_blobs(Path(pte))
        if len(graphs) != len(blobs):
            print(f"zoo_graphs: FAIL {pte}: {len(blobs)} delegates, {len(graphs)} TOSA graphs")
            return 1
        for graph, blob in zip(graphs, blobs, strict=True):
            tosa = base64.b64decode(graph["tosa"])
            for seed in range(args.seeds):
                report = check(tosa, blob, seeded_inputs(blob, seed))
                name = f"{Path(pte).name} delegate {graph['delegate']} seed {seed}"
                if report.mismatch is not None:
                    print(f"zoo_graphs: FAIL {name}: {report.mismatch}")
                    failures += 1
                    continue
                print(f"zoo_graphs: {name}: {report.values} values, exact, {report.unsaturated} unsaturated")
                values += report.values
                unsaturated += report.unsaturated
    if failures:
        return 1
    if values < args.min_values:
        print(f"zoo_graphs: FAIL only {values} values compared, at least {args.min_values} required")
        return 1
    print(f"zoo_graphs: {unsaturated} of {values} output values unsaturated")
    if unsaturated < args.min_unsaturated * values:
        print(
            f"zoo_graphs: FAIL fewer than {args.min_unsaturated:.0%} of the outputs unsaturated: inputs that saturate"
        )
        return 1
    print(f"zoo_graphs: {values} output values of {len(args.pairs) // 2} programs exact against tosa_reference_model")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

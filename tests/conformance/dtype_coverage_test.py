"""Dtype parity with ExecuTorch's portable kernels: every dtype variant ExecuTorch's host
runtime accepts (dtype_variants.py) must run in tinypte's runtime and give ExecuTorch's outputs.

Runs pte_run on every accepted variant of every shard directory, exactly as the host
conformance test runs cases (integers exact, floats within the case's tolerance). Prints, per
operator, the dtypes ExecuTorch accepts and those tinypte matches. `dtype_gaps.txt` lists the
variants still failing, one `<case>__<dtype>` per line: the test fails on a failure it does not
list and on a listed variant that now passes, so the list only shrinks.

usage: dtype_coverage_test.py PTE_RUN GAPS_FILE --min-variants=N SHARD_DIR...
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from case_minimum import exit_status
from host_conformance_test import check_case


def listed_gaps(path: Path) -> set[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line}


def main(argv: list[str]) -> int:
    pte_run, gaps_file = argv[0], Path(argv[1])
    min_variants = int(argv[2].removeprefix("--min-variants="))
    shards = [Path(a) for a in argv[3:]]
    failing: dict[str, str] = {}
    accepted: dict[str, set[str]] = defaultdict(set)
    matched: dict[str, set[str]] = defaultdict(set)
    outcomes: dict[str, int] = defaultdict(int)
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for root in shards:
            manifest: dict[str, Any] = json.loads((root / "manifest.json").read_text())
            operators = {p["name"]: p["operators"] for p in manifest["probed"]}
            for probed in manifest["probed"]:
                outcomes[probed["outcome"]] += 1
            for case in manifest["cases"]:
                name = case["name"]
                dtype = name.rsplit("__", 1)[1]
                problems = check_case(pte_run, root, case, Path(tmp))
                checked += 1
                # A call the runtime refused names its operator; wrong outputs blame the case's all.
                refused = re.search(r"instruction \d+ \(([\w:.]+)\)", problems[0]) if problems else None
                for operator in operators[name]:
                    accepted[operator].add(dtype)
                    if not problems or (refused is not None and refused.group(1) != operator):
                        matched[operator].add(dtype)
                if problems:
                    failing[name] = problems[0]
    print("dtype coverage: operator: dtypes ExecuTorch accepts -> tinypte matches")
    for operator in sorted(accepted):
        gap = sorted(accepted[operator] - matched[operator])
        print(f"  {operator}: {' '.join(sorted(accepted[operator]))}" + (f" (not yet: {' '.join(gap)})" if gap else ""))
    listed = listed_gaps(gaps_file)
    new = sorted(set(failing) - listed)
    closed = sorted(listed - set(failing))
    for name in new:
        print(f"FAIL {failing[name]}")
    for name in closed:
        print(f"FAIL {name} is listed in {gaps_file.name} but passes now: remove the line")
    summary = ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))
    print(
        f"dtype coverage: {sum(outcomes.values())} variants probed ({summary}); {checked} checked in tinypte, "
        f"{checked - len(failing)} match, {len(failing)} listed gaps"
    )
    return exit_status(new + closed, checked, min_variants, "dtype coverage: ", "variants checked")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

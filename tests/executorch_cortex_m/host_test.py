"""Run every lowered ExecuTorch Cortex-M test case through pte_run; outputs must be bit-exact.

usage: host_test.py PTE_RUN CASES_DIR --min-cases=N

CASES_DIR is a merged lowering (merge.py): each case's program, inputs and the reference
implementations' outputs, all in the memory order of the program's tensors. Prints how many
cases ExecuTorch's flow lowered (per pipeline), how many it could not (with the reasons), and
how many ran exactly; exits non-zero on any mismatch or when fewer than N cases were checked.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from case_minimum import exit_status, min_cases


def check_case(pte_run: str, root: Path, case: dict[str, Any], out: Path) -> str | None:
    """The problem with one case, or None when every output is bit-identical."""
    inputs = ["-" if "scalar" in record else str(root / record["file"]) for record in case["inputs"]]
    run = subprocess.run([pte_run, str(root / case["pte"]), *inputs, "--out", str(out)], capture_output=True, text=True)
    if run.returncode != 0:
        return f"{case['name']}: {run.stderr.strip()}"
    for index, output in enumerate(case["outputs"]):
        want = (root / output["file"]).read_bytes()
        got = (out / f"out{index}.bin").read_bytes()
        if got != want:
            differing = sum(1 for a, b in zip(got, want, strict=False) if a != b)
            return f"{case['name']}: output {index} ({output['dtype']}) differs in {differing} of {len(want)} bytes"
    return None


def summary(manifest: dict[str, Any]) -> list[str]:
    """What was lowered and what ExecuTorch's flow could not lower, with the reasons."""
    lowered = collections.Counter(case["name"].split("_", 1)[0] for case in manifest["cases"])
    lines = [f"lowered: {len(manifest['cases'])} programs ("
             + ", ".join(f"{pipeline} {count}" for pipeline, count in sorted(lowered.items())) + ")"]  # fmt: skip
    reasons = collections.Counter(entry["reason"] for entry in manifest["unsupported"])
    lines.append(f"not lowerable by ExecuTorch's own flow: {len(manifest['unsupported'])} (not counted)")
    lines += [f"  {count:3d} x {reason}" for reason, count in reasons.most_common()]
    lines += [f"  test module {entry['name']}: {entry['reason']}" for entry in manifest.get("not_imported", [])]
    return lines


def main(argv: list[str]) -> int:
    pte_run, root = argv[0], Path(argv[1])
    minimum = min_cases(argv)
    manifest = json.loads((root / "manifest.json").read_text())
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in manifest["cases"]:
            problem = check_case(pte_run, root, case, Path(tmp))
            if problem is not None:
                problems.append(problem)
    for line in summary(manifest):
        print(line)
    for problem in problems:
        print(f"FAIL {problem}")
    cases = len(manifest["cases"])
    print(f"executorch cortex-m on the host: {cases - len(problems)} of {cases} exact, {len(problems)} failed")
    return exit_status(problems, cases, minimum, "", "cases checked")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

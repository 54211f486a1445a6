"""Operator parity with ExecuTorch's portable kernels: every in-scope overload of the pinned
executorch wheel's `kernels/portable/functions.yaml` must have a tinypte kernel and conformance
cases.

In scope: every overload except the training-only (`*_backward*`, `native_dropout`) and random
(`rand`, `randn`) ones, and those whose ExecuTorch kernel takes complex dtypes only
(`_conj_physical`, `view_as_real_copy`: no dtype of the issue's set). An overload is covered when `//runtime/kernels:all` registers a kernel for
it and at least one supported conformance case's program calls it (read from the generated
manifest: the operators ExecuTorch actually put in the program). Overloads no program can reach
(ExecuTorch cannot export or run them) count when a case marked `unsupported` names them, with
the reason printed.

`coverage_gaps.txt` lists what is still missing, one `namespace::name.overload` per line: the
test fails on a gap it does not list, and on a listed overload that is no longer a gap, so the
list only shrinks.

usage: coverage_test.py KERNELS_JSON CASES_DIR GAPS_FILE --min-cases=N
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import all_cases
import yaml  # type: ignore[import-untyped]
from case_minimum import exit_status, min_cases

EXCLUDED = {  # name pattern -> why it is out of scope
    r".*_backward$": "training only",
    r"native_dropout$": "training only",
    r"rand(n)?$": "random",
    # The dtypes are float32, int8, uint8, int16, int32, int64 and bool; these kernels of
    # ExecuTorch's accept complex tensors only, so none of them is in scope.
    r"_conj_physical$": "complex dtypes only",
    r"view_as_real_copy$": "complex dtypes only",
}


@dataclass(frozen=True)
class Scope:
    listed: int  # overloads in functions.yaml
    overloads: list[str]  # in scope, namespace::name.overload
    excluded: dict[str, str]  # overload -> reason


def functions_yaml() -> Path:
    import executorch

    for root in executorch.__path__:  # a namespace package: no __file__
        path = Path(root) / "kernels" / "portable" / "functions.yaml"
        if path.is_file():
            return path
    raise FileNotFoundError("the executorch wheel has no kernels/portable/functions.yaml")


def overload_of(entry: dict[str, str]) -> str:
    """`namespace::name.overload` of one functions.yaml entry (`op:` or `func:` form)."""
    signature = entry.get("op") or entry["func"].split("(", 1)[0]
    if "." not in signature:
        signature += ".default"
    return signature if "::" in signature else f"aten::{signature}"


def scope(path: Path) -> Scope:
    entries = yaml.safe_load(path.read_text())
    overloads: list[str] = []
    excluded: dict[str, str] = {}
    for entry in entries:
        overload = overload_of(entry)
        name = overload.split("::", 1)[1].split(".", 1)[0]
        reason = next((why for pattern, why in EXCLUDED.items() if re.fullmatch(pattern, name)), None)
        if reason is None:
            overloads.append(overload)
        else:
            excluded[overload] = reason
    return Scope(len(entries), overloads, excluded)


def read_gaps(path: Path) -> set[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line}


def main(argv: list[str]) -> int:
    kernels_json, cases_dir, gaps_file = Path(argv[0]), Path(argv[1]), Path(argv[2])
    minimum = min_cases(argv)
    kernels = {k["operator"] for k in json.loads(kernels_json.read_text())["kernels"]}
    manifest = json.loads((cases_dir / "manifest.json").read_text())
    calls: Counter[str] = Counter(op for case in manifest["cases"] for op in set(case["operators"]))
    unreachable = {
        op: case.unsupported for case in all_cases.ALL_CASES if case.unsupported is not None for op in case.operators
    }
    in_scope = scope(functions_yaml())
    known = read_gaps(gaps_file)

    problems: list[str] = []
    gaps: set[str] = set()
    for overload in in_scope.overloads:
        missing = []
        if overload not in kernels:
            missing.append("no kernel (runtime/kernels/)")
        if calls[overload] == 0 and overload not in unreachable:
            missing.append("no conformance case (tests/conformance/cases*.py)")
        if missing:
            gaps.add(overload)
            if overload not in known:
                problems.append(f"{overload}: {' and '.join(missing)}")
    for overload in sorted(known - gaps):
        problems.append(f"{overload} is covered now: remove it from {gaps_file.name}")
    for overload in sorted(known - set(in_scope.overloads)):
        problems.append(f"{overload} in {gaps_file.name} is not an in-scope overload of functions.yaml")

    covered = len(in_scope.overloads) - len(gaps)
    cases = len(manifest["cases"])
    print(
        f"coverage: {len(in_scope.overloads)} overloads in scope ({in_scope.listed} in functions.yaml, "
        f"{len(in_scope.excluded)} excluded: training, random, complex-only), {covered} covered (kernel + cases), "
        f"{len(gaps)} known gaps; {cases} conformance cases"
    )
    for overload in sorted(set(in_scope.overloads) & set(unreachable) - gaps):
        if calls[overload] == 0:
            print(f"coverage: {overload} has a kernel but no program reaches it: {unreachable[overload]}")
    for problem in problems:
        print(f"coverage: FAIL {problem}")
    return exit_status(problems, cases, minimum, "coverage: ", "cases")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Selective build: generate the kernel registry (C) holding only the kernels programs use.

Kernels are found by scanning C sources for their definition lines,

    TP_KERNEL(aten, addmm, out, addmm_state) {   ->  "aten::addmm" overload "out",
                                                     entry tp_kernel_aten_addmm_out

(or `TP_KERNEL_WITH(aten, relu, out, relu_state, TP_KERNEL_CLAMP)`, with kernel flags, or a
family engine's `TP_UNARY_KERNEL(aten, sin, out, sin_fns)`, `TP_BINARY_SCALAR_KERNEL(...)`),

so the registry cannot disagree with the sources. The portable kernels (runtime/kernels)
are always scanned; `--user-sources` adds kernels of the user's own (kernel_library's and
model_firmware's `srcs`), for operators the portable set does not have. Operators come
from the models' ops.json (written by `tinypte inspect_pte`). An operator without a
kernel is an error that names the operator, the model that uses it, and the two ways to
provide one.

Backends (runtime/backends, `TP_BACKEND(id, ...)` lines, tinypte/backend.h) are selected the same
way, from the delegates each ops.json lists; a delegate with no backend is an error naming it.

usage: tinypte kernels --sources K.c ... [--user-sources U.c ...] [--backend-sources B.c ...]
           (--ops-json M.ops.json ... | --all)
           --out-c registry.c [--out-json kernels.json]
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path

from tinypte.errors import TinypteError

KERNEL_LINE = re.compile(
    r"^TP_(?:[A-Z]+_)*KERNEL(?:_WITH)?\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*\w+\s*(?:,([^)]*))?\)", re.MULTILINE
)
FLAG = re.compile(r"\bTP_KERNEL_[A-Z_]+\b")
BACKEND_LINE = re.compile(r"^TP_BACKEND\(\s*(\w+)\s*,", re.MULTILINE)
BACKENDS_HOME = "runtime/backends/"
KERNELS_HOME = "runtime/kernels/"


@dataclass(frozen=True)
class Kernel:
    name: str  # "aten::addmm"
    overload: str  # "out"
    symbol: str  # "tp_kernel_aten_addmm_out", its `const tp_kernel` registry entry
    source: str  # file defining it (its path for a user's kernel, its path under runtime/kernels/ for ours)
    flags: frozenset[str] = frozenset()  # TP_KERNEL_WITH's flags: "TP_KERNEL_CLAMP", ...

    @property
    def key(self) -> str:
        return f"{self.name}.{self.overload}"


def scan(sources: list[Path], user_sources: list[Path] | None = None) -> dict[str, Kernel]:
    """Every TP_KERNEL definition in `sources` and `user_sources`, by "name.overload"."""
    kernels: dict[str, Kernel] = {}
    ours = [(s, str(s).split(KERNELS_HOME, 1)[-1]) for s in sources]
    for source, where in ours + [(s, str(s)) for s in user_sources or []]:
        for namespace, name, overload, flags in KERNEL_LINE.findall(source.read_text()):
            symbol = f"tp_kernel_{namespace}_{name}_{overload}"
            kernel = Kernel(f"{namespace}::{name}", overload, symbol, where, frozenset(FLAG.findall(flags)))
            if kernel.key in kernels:
                raise TinypteError(
                    f"kernel {kernel.key} is defined twice: {kernels[kernel.key].source} and {where}. A kernel in "
                    "`srcs` must be for an operator the portable kernels lack; to change a portable kernel, "
                    f"edit it in {KERNELS_HOME}."
                )
            kernels[kernel.key] = kernel
    return kernels


def scan_backends(sources: list[Path]) -> dict[str, str]:
    """Every TP_BACKEND definition in `sources`: backend id -> file defining it."""
    found: dict[str, str] = {}
    for source in sources:
        for backend in BACKEND_LINE.findall(source.read_text()):
            found[backend] = str(source).split(BACKENDS_HOME, 1)[-1]
    return found


def used_backends(ops_files: list[Path]) -> dict[str, list[str]]:
    """Backend id -> the models (ops.json "model" fields) whose programs delegate to it."""
    used: dict[str, list[str]] = {}
    for path in ops_files:
        try:
            data = json.loads(path.read_text())
            delegates = [str(d) for d in data.get("delegates", [])]
        except (OSError, ValueError, TypeError) as error:
            raise TinypteError(f"{path}: not an ops.json written by `tinypte inspect_pte`: {error}") from error
        for backend in delegates:
            used.setdefault(backend, []).append(str(data.get("model", path.name)))
    return used


def select_backends(backends: dict[str, str], used: dict[str, list[str]]) -> list[str]:
    missing = sorted(b for b in used if b not in backends)
    if missing:
        have = ", ".join(sorted(backends)) or "none"
        raise TinypteError(
            "; ".join(f"no backend for delegate {b!r}, used by {', '.join(used[b])}" for b in missing)
            + f". tinypte's backends ({BACKENDS_HOME}): {have}. Lower the model for one of them (executorch_model's "
            "`delegate`), or without a partitioner, so that its operators run on tinypte's kernels."
        )
    return sorted(used)


def used_operators(ops_files: list[Path]) -> dict[str, list[str]]:
    """Operator "name.overload" -> the models (ops.json "model" fields) that call it."""
    used: dict[str, list[str]] = {}
    for path in ops_files:
        try:
            data = json.loads(path.read_text())
            operators = [f"{op['name']}.{op['overload']}" for op in data["operators"]]
            # Kernel extensions (tinypte.inspect_pte.extensions) are selected like operators.
            operators += [str(key) for key in data.get("extensions", [])]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise TinypteError(f"{path}: not an ops.json written by `tinypte inspect_pte`: {error}") from error
        for key in operators:
            used.setdefault(key, []).append(str(data.get("model", path.name)))
    return used


# Namespaces of ExecuTorch's own operators (portable kernels, the Cortex-M backend's): any other
# namespace is a user's custom operator (torch.library), whose kernel only the user can provide.
KNOWN_NAMESPACES = ("aten", "dim_order_ops", "et_copy", "cortex_m", "quantized_decomposed", "tinypte")


def select(kernels: dict[str, Kernel], used: dict[str, list[str]]) -> list[Kernel]:
    missing = sorted(key for key in used if key not in kernels)
    if missing:
        custom = [key for key in missing if key.split("::", 1)[0] not in KNOWN_NAMESPACES]
        if custom:
            raise TinypteError(
                "; ".join(f"no kernel for custom operator {key}, used by {', '.join(used[key])}" for key in custom)
                + ". A custom operator's kernel is yours to write: a C file with `TP_KERNEL(namespace, name, "
                "overload)` (see runtime/kernels/kernel_util.h and models/custom_op/soft_threshold.c), passed in "
                "model_firmware's (or kernel_library's) `srcs` attribute."
            )
        lines = [f"no kernel for operator {key}, used by {', '.join(used[key])}" for key in missing]
        where = f"Portable kernels live in {KERNELS_HOME}portable/"
        if any(key.startswith("cortex_m::") for key in missing):
            where += f" and the int8 kernels of ExecuTorch's Cortex-M backend in {KERNELS_HOME}cortex_m/"
        raise TinypteError(
            "; ".join(lines) + f". {where}, one `TP_KERNEL(namespace, name, "
            "overload)` definition per operator (see kernel_util.h): add it there, or write it in a C file of "
            "your own and pass that file in model_firmware's (or kernel_library's) `srcs`; or change the model "
            "so it does not need that operator."
        )
    return [kernels[key] for key in sorted(used)]


def render(selected: list[Kernel], comment: str, backends: list[str] | None = None) -> str:
    backends = backends or []
    declarations = "".join(f"extern const tp_kernel {k.symbol};\n" for k in selected)
    declarations += "".join(f"extern const tp_backend tp_backend_{b};\n" for b in backends)
    entries = "".join(f"    &{k.symbol},\n" for k in selected)
    table = f"static const tp_kernel *const kKernels[] = {{\n{entries}}};\n" if selected else ""
    if backends:
        rows = "".join(f"    &tp_backend_{b},\n" for b in backends)
        table += f"static const tp_backend *const kBackends[] = {{\n{rows}}};\n"
    kernels = "kKernels, sizeof kKernels / sizeof kKernels[0]" if selected else "0, 0"
    delegates = "kBackends, sizeof kBackends / sizeof kBackends[0]" if backends else "0, 0"
    return (
        f"/* Generated by tinypte.kernels: do not edit. {comment} */\n"
        '#include "tinypte/backend.h"\n#include "tinypte/kernel.h"\n\n'
        f"{declarations}\n{table}\n"
        f"const tp_kernel_registry tp_selected_kernels = {{{kernels}, {delegates}}};\n"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, nargs="+", required=True, help="portable kernel C sources to scan")
    parser.add_argument("--user-sources", type=Path, nargs="*", default=[], help="the user's own kernel C sources")
    parser.add_argument("--backend-sources", type=Path, nargs="*", default=[], help="backend C sources to scan")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--ops-json", type=Path, nargs="+", help="ops.json of each model to serve")
    which.add_argument("--all", action="store_true", help="register every kernel found (host tools)")
    parser.add_argument("--out-c", type=Path, required=True)
    parser.add_argument("--out-json", type=Path, help="the selected kernels, for size reports and tests")


def run(args: argparse.Namespace) -> None:
    kernels = scan(args.sources, args.user_sources)
    backends = scan_backends(args.backend_sources)
    if args.all:
        selected = [kernels[key] for key in sorted(kernels)]
        chosen = sorted(backends)
        comment = f"All {len(selected)} kernels."
    else:
        used = used_operators(args.ops_json)
        selected = select(kernels, used)
        chosen = select_backends(backends, used_backends(args.ops_json))
        models = sorted({model for users in used.values() for model in users})
        comment = f"Kernels used by: {', '.join(models)}."
    args.out_c.write_text(render(selected, comment, chosen))
    if args.out_json:
        listing = [{"operator": k.key, "symbol": k.symbol, "source": k.source} for k in selected]
        args.out_json.write_text(json.dumps({"kernels": listing}, indent=2) + "\n")

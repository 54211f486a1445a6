"""Performance of every model on every emulated board, counted exactly; and its regression guard.

    bazel run //tests/bench:perf                          table, perf.json and perf.png
    bazel run //tests/bench:perf -- --out DIR             ... written to DIR
    bazel run //tests/bench:perf -- --update-baseline     rewrite tests/bench/perf_baseline.json and its README table
    bazel test //tests/bench:perf_guard_test              fail on growth over the baseline

One row per model x emulated board, for the model's first golden input:
- instructions: executed by one tp_method_execute, counted exactly from QEMU's execution
  trace (instruction_count.py), or for a board QEMU does not have (the Pico 2 W) by the
  instruction-level model of its chip (`--instruction-model`: the RP2350 model's
  //python/machines/rp2350:run --count-execute), so the same on every machine and every run; a two-core firmware's row
  counts the call's wall: core 0's instructions plus the cycles it waited for core 1;
- MACs: the model's multiply-accumulates per inference (`macs` in its ops.json, computed by
  the toolkit from the program's shapes); instructions per MAC;
- runtime overhead: instructions outside kernels per program instruction run (per kernel call);
- flash and RAM of the whole firmware (from its size report);
- stack: the stack's high-water mark of a whole run (the firmware's summary line,
  `stack=USED/SIZE`: the start-up code paints the stack, the app finds the deepest word
  overwritten), measured by a plain QEMU run or by the chip model's run;
- memory (a second table): the planned arena, its lower bound while tensors live whole (the
  largest kernel call's planned bytes, `call_bound` in the plan.json), the runtime's state pool
  and its bytes per planned tensor and per kernel call, the stack, and the regions the firmware
  uses (the board's RAM region, and others the build placed buffers or the program in).

A two-core table (`--cores-row`): a model on a two-core board's instruction model built for one
core and for two: the one-core count, each core's instructions, core 0's waits, the wall and its
ratio to one core, against issue 27's goals (resnet8_int8 0.55, kws_int8 and vww_int8 0.6, every
other model no slower than one core; the guard fails above them), and whether both firmwares'
runs computed the same output bits (the summary line's outputs= digest; the guard fails if not).
The guard also holds each two-core row's one-core instructions and wall to the baseline (keys
`cores:<model>/<board>`, 2 %), fails below `--min-cores-rows` of them, and fails when the one-core
build is not one core (core 1 launched, or its summary line says `cores=2`).

NPU rows (`--npu-row`, the zoo bench): each MLPerf Tiny model lowered to an Ethos-U55, Vela's
estimated NPU cycles beside the int8 program's measured instructions (npu_table.py); labelled as
estimates, never guarded.

And one host row per model: nanoseconds per inference of tinypte (`pte_run --time`, built
-c opt) and of ExecuTorch's own C++ runtime on the same .pte (`executorch_peer`, the wheel's
libexecutorch + optimized kernels, -c opt), run in turns (tinypte, ExecuTorch, tinypte, ...)
in one process tree so both see the same machine state; the medians and their ratio.
Timings are only reported, never guarded: they are not deterministic.

The guard compares each row with the checked-in baseline: it fails when instructions grow
more than 2 % or flash, RAM, stack, arena or pool more than 1 %, and when a row is missing from the baseline or
the baseline names a row that is not measured (a model or board added or removed: update
the baseline). Numbers that shrink pass, with a note to update the baseline.

Sharded (Bazel's shard_count: TEST_TOTAL_SHARDS and TEST_SHARD_INDEX), a run measures every
N-th row, cores row and host row from its index on (`Shard`), checks only the baseline keys its
shard owns (a measured row's key belongs to the shard that measures it, any other key to one
shard by its CRC-32, so a row missing from the measurement is still caught), and fails when
it measured fewer rows than its share of --min-rows. A run of one firmware (a Pico 2 W
firmware is both a row and a two-core row) is measured once per process.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import zlib
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar

import baseline_table
import mlperf_goals
from instruction_count import measure
from npu_table import npu_row, npu_table

from machines.execute_count import ExecuteCount
from machines.qemu import qemu_command
from tinypte.firmware.requirements import Requirements
from tinypte.golden.format import Golden
from tinypte.report import plotting

HOST_ROUNDS = 7  # turns of each runtime; the medians are reported
HOST_SECONDS_PER_TURN = 0.05  # each turn runs this long, about (the repeat count is calibrated)

INSTRUCTION_GROWTH = 0.02  # allowed growth of instructions per inference over the baseline
MEMORY_GROWTH = 0.01  # allowed growth of flash and RAM
BASELINE = Path("tests/bench/perf_baseline.json")  # in the source tree
README = Path("tests/bench/README.md")  # quotes the baseline (baseline_table.py)

T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    model: str
    board: str
    instructions: int
    runtime_instructions: int
    kernel_calls: int
    macs: int
    flash: int
    ram: int
    stack: int  # the stack's measured high-water mark (the firmware's summary line, `stack=USED/SIZE`)
    arena: int  # planned buffers, all memory ids
    call_bound: int  # the largest kernel call's planned bytes: the arena's bound while tensors live whole
    pool: int  # the runtime's state pool
    planned_tensors: int
    program_calls: int  # kernel calls in the program
    regions: str  # "RAM" or e.g. "RAM+AXI_SRAM": the writable regions the firmware uses

    @property
    def key(self) -> str:
        return f"{self.model}/{self.board}"

    @property
    def per_mac(self) -> float | None:
        return self.instructions / self.macs if self.macs else None

    @property
    def overhead_per_call(self) -> float:
        return self.runtime_instructions / max(self.kernel_calls, 1)

    @property
    def pool_per_tensor_and_call(self) -> str:
        """The pool against the goal's shape (12 B per planned tensor + 24 B per call): the pool's
        bytes per planned tensor, had the calls their 24 B each."""
        calls = 24 * self.program_calls
        return f"{(self.pool - calls) / max(self.planned_tensors, 1):.0f}"


EXECUTE_LINE = re.compile(
    r"^instruction_model_test: execute instructions=(\d+) kernel_instructions=(\d+) kernel_calls=(\d+)$", re.M
)
# A two-core firmware's split of that call (run.py): each core's instructions, core 0's waits and
# the wall (core 0's instructions plus its waits: the call's time, both cores at one clock).
CORES_LINE = re.compile(
    r"^instruction_model_test: execute cores=2 core0=(\d+) core1=(\d+) wait0=(\d+) wall=(\d+)$", re.M
)


@dataclass(frozen=True)
class CoreSplit:
    """One call of tp_method_execute on two cores (instructions; wall = core0 + wait0)."""

    core0: int
    core1: int
    wait0: int
    wall: int


STACK_FIELD = re.compile(r"^tinypte: model=.* stack=(\d+)/(\d+)\b", re.M)
# A two-core firmware's summary line says so (inference_app.c).
SUMMARY_CORES = re.compile(r"^tinypte: model=.* cores=2 core1_stack=", re.M)
# The digest of every output byte of the run (the inference app's summary line).
OUTPUTS_FIELD = re.compile(r"^tinypte: model=.* outputs=(0x[0-9a-f]{8}) ", re.M)


def stack_of(output: str, what: str) -> int:
    """The stack high-water mark a firmware's summary line reports."""
    found = STACK_FIELD.search(output)
    if not found:
        tail = output.strip().splitlines()[-3:]
        raise SystemExit(f"perf: {what} printed no summary line with stack=USED/SIZE: {' / '.join(tail)}")
    return int(found.group(1))


def qemu_stack(elf: Path, emulator: dict[str, object]) -> int:
    """The stack high-water mark of a whole run of `elf` under its board's QEMU."""
    run = subprocess.run(qemu_command(emulator, elf), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=900, check=False)  # fmt: skip
    return stack_of(run.stdout + run.stderr, str(elf))  # semihosting writes to stderr when it is not a terminal


@dataclass(frozen=True)
class InstructionModel:
    """A chip model that runs a board's firmware (`executable ELF --count-execute`: a
    machines_py_binary, which brings its venv and its package)."""

    executable: Path

    def measure(self, elf: Path) -> tuple[ExecuteCount, int]:
        """The first inference's exact count, and the run's stack high-water mark."""
        count, stack, _ = self.measure_cores(elf)
        return count, stack

    def measure_cores(self, elf: Path) -> tuple[ExecuteCount, int, CoreSplit | None]:
        """measure(), and for a two-core firmware the call's split over the cores (else None)."""
        count, stack, split, _ = self.measure_run(elf)
        return count, stack, split

    def measure_run(self, elf: Path) -> tuple[ExecuteCount, int, CoreSplit | None, str]:
        """measure_cores(), and the digest of the run's outputs (each ELF's run once: the counts
        are exact, so a second run would repeat them)."""
        return _measured_run(self, elf)[:4]

    def summary_cores(self, elf: Path) -> int:
        """The cores the firmware's summary line says it ran on (2 with `cores=2`, else 1)."""
        return _measured_run(self, elf)[4]

    def run(self, elf: Path) -> tuple[ExecuteCount, int, CoreSplit | None, str, int]:
        """One run of `elf` with --count-execute: what measure_run() returns, and summary_cores()."""
        run = subprocess.run([str(self.executable), str(elf), "--count-execute"],
                             capture_output=True, text=True, check=False)  # fmt: skip
        found = EXECUTE_LINE.search(run.stdout)
        if run.returncode != 0 or not found:
            tail = (run.stdout + run.stderr).strip().splitlines()[-3:]
            raise SystemExit(f"perf: {self.executable} {elf} --count-execute failed: {' / '.join(tail)}")
        instructions, kernel_instructions, kernel_calls = (int(g) for g in found.groups())
        cores = CORES_LINE.search(run.stdout)
        split = CoreSplit(*(int(g) for g in cores.groups())) if cores else None
        count = ExecuteCount(instructions, kernel_instructions, kernel_calls)
        outputs = OUTPUTS_FIELD.search(run.stdout)
        if not outputs:
            raise SystemExit(f"perf: {elf} printed no summary line with outputs=0x...")
        summary_cores = 2 if SUMMARY_CORES.search(run.stdout) else 1
        return count, stack_of(run.stdout, str(elf)), split, outputs.group(1), summary_cores


@cache
def _measured_run(model: InstructionModel, elf: Path) -> tuple[ExecuteCount, int, CoreSplit | None, str, int]:
    return model.run(elf)


@dataclass(frozen=True)
class Shard:
    """This run's part of the bench: every `total`-th item from `index` on."""

    index: int = 0
    total: int = 1

    @staticmethod
    def from_environment() -> Shard:
        """Bazel's test sharding (TEST_TOTAL_SHARDS, TEST_SHARD_INDEX); one shard outside it. Touches
        TEST_SHARD_STATUS_FILE, telling Bazel the test shards."""
        if "TEST_SHARD_STATUS_FILE" in os.environ:
            Path(os.environ["TEST_SHARD_STATUS_FILE"]).touch()
        total = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
        return Shard(int(os.environ.get("TEST_SHARD_INDEX", "0")), total) if total > 1 else Shard()

    def share(self, count: int) -> int:
        """How many of `count` items are this shard's."""
        return len(range(self.index, count, self.total))

    def mine(self, items: list[T]) -> list[T]:
        return items[self.index :: self.total]

    def owns(self, key: str, *tables: list[str]) -> bool:
        """Whether the baseline `key` is checked here: a row's key (in one of `tables`, the keys of
        each table in the order mine() shares them) by the shard that measures the row, any other
        key by one shard (its CRC-32)."""
        for keys in tables:
            if key in keys:
                return keys.index(key) % self.total == self.index
        return zlib.crc32(key.encode()) % self.total == self.index


def measure_row(models: dict[str, InstructionModel], model: str, board: str, elf: Path, board_json: Path,
                size_json: Path, ops_json: Path, requirements_json: Path, plan_json: Path) -> Row:  # fmt: skip
    description = json.loads(board_json.read_text())
    if board in models:
        count, stack, split = models[board].measure_cores(elf)
        if split is not None:  # two cores: the row's instructions are the call's wall
            count = ExecuteCount(split.wall, split.wall - count.runtime_instructions, count.kernel_calls)
    elif description.get("emulator"):
        (count,) = measure(elf, description["emulator"], inferences=1)
        stack = qemu_stack(elf, description["emulator"])
    else:
        raise SystemExit(f"perf: board {board} has no emulator to count instructions on")
    size = json.loads(size_json.read_text())
    macs = int(json.loads(ops_json.read_text())["macs"])
    needs = Requirements.from_json(requirements_json.read_text())
    call_bound = int(json.loads(plan_json.read_text())["call_bound"]["bytes"])
    regions = "+".join([description["ram_region"], *sorted(size.get("regions", {}))])
    return Row(model, board, count.instructions, count.runtime_instructions, count.kernel_calls, macs,
               int(size["flash"]["used"]), int(size["ram"]["used"]), stack, sum(needs.buffer_bytes), call_bound,
               needs.firmware_pool_bytes, needs.planned_tensors, needs.kernel_calls, regions)  # fmt: skip


@dataclass(frozen=True)
class HostRow:
    model: str
    tinypte_ns: float
    executorch_ns: float

    @property
    def ratio(self) -> float:
        return self.tinypte_ns / self.executorch_ns


def ns_per_inference(command: list[str]) -> float:
    """Run `pte_run --time` or `executorch_peer` and read its `ns_per_inference=` line."""
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"perf: {' '.join(command)} failed: {run.stderr.strip()}")
    return float(run.stdout.split("ns_per_inference=", 1)[1].split()[0])


def time_host(model: str, pte: Path, golden: Path, pte_run: Path, peer: Path) -> HostRow:
    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        for index, array in enumerate(Golden.from_bytes(golden.read_bytes()).inputs[0]):
            path = Path(tmp) / f"in{index}.bin"
            array.tofile(path)
            inputs.append(str(path))
        probe = ns_per_inference([str(pte_run), str(pte), *inputs, "--time", "--repeat", "10"])
        repeat = str(max(10, int(HOST_SECONDS_PER_TURN * 1e9 / probe)))
        ours, theirs = [], []
        for _ in range(HOST_ROUNDS):
            ours.append(ns_per_inference([str(pte_run), str(pte), *inputs, "--time", "--repeat", repeat]))
            theirs.append(ns_per_inference([str(peer), str(pte), *inputs, "--repeat", repeat]))
    return HostRow(model, statistics.median(ours), statistics.median(theirs))


# Issue 44's goal for the host runner: tinypte at most this share of ExecuTorch's time on every
# program, and the geometric mean of the ratios at most HOST_GEOMEAN_GOAL. Reported, not guarded
# (timings are not deterministic).
HOST_RATIO_GOAL = 0.5
HOST_GEOMEAN_GOAL = 0.3


def host_table(rows: list[HostRow]) -> str:
    head = f"{'model':10} {'host':12} {'tinypte ns':>12} {'ExecuTorch ns':>14} {'ratio':>6}"
    lines = [head, "-" * len(head)]
    lines += [
        f"{r.model:10} {'x86-64 -O2':12} {r.tinypte_ns:12.0f} {r.executorch_ns:14.0f} {r.ratio:6.2f}"
        f"  {'met' if r.ratio <= HOST_RATIO_GOAL else 'NOT MET'} (goal <= {HOST_RATIO_GOAL})"
        for r in rows
    ]
    if rows:
        geomean = statistics.geometric_mean([r.ratio for r in rows])
        met = "met" if geomean <= HOST_GEOMEAN_GOAL else "NOT MET"
        lines.append(f"{'geometric mean of the ratios':40} {geomean:6.2f}  {met} (goal <= {HOST_GEOMEAN_GOAL})")
    return "\n".join(lines)


def table(rows: list[Row]) -> str:
    head = f"{'model':10} {'board':12} {'instructions':>12} {'MACs':>8} {'instr/MAC':>9} {'overhead/op':>11} {'flash B':>8} {'RAM B':>7} {'stack B':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        per_mac = f"{r.per_mac:9.2f}" if r.per_mac is not None else f"{'-':>9}"
        lines.append(f"{r.model:10} {r.board:12} {r.instructions:12d} {r.macs:8d} {per_mac} "
                     f"{r.overhead_per_call:11.1f} {r.flash:8d} {r.ram:7d} {r.stack:7d}")  # fmt: skip
    return "\n".join(lines)


def memory_table(rows: list[Row]) -> str:
    """Where each firmware's RAM goes: arena against its per-call bound, pool, stack, regions."""
    head = (f"{'model':14} {'board':12} {'arena B':>8} {'bound B':>8} {'pool B':>7} {'tensors':>7} {'calls':>5} "
            f"{'pool B/tensor*':>14} {'stack B':>7} {'flash B':>8}  regions")  # fmt: skip
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.model:14} {r.board:12} {r.arena:8d} {r.call_bound:8d} {r.pool:7d} {r.planned_tensors:7d} "
                     f"{r.program_calls:5d} {r.pool_per_tensor_and_call:>14} {r.stack:7d} {r.flash:8d}  {r.regions}")  # fmt: skip
    lines.append("* (pool - 24 B per call) / planned tensors: issue 26's goal is 12 or less")
    return "\n".join(lines)


# Issue 27's goals: the wall of two cores against one core's instructions, per model (at most).
CORE_GOALS = {"resnet8_int8": 0.55, "vww_int8": 0.6, "kws_int8": 0.6}
NO_SLOWER = 1.0  # every other model: two cores never slower than one


@dataclass(frozen=True)
class CoresRow:
    """One model on a two-core board built with one core and with two."""

    model: str
    board: str
    one_core: int  # instructions of the one-core firmware's call
    split: CoreSplit
    same_outputs: bool  # both firmwares' runs gave the same output bits (their outputs= digests)
    one_core_cores: int  # what the one-core firmware's run says: the cores its summary names and core 1's launch

    @property
    def key(self) -> str:
        """Its baseline key (beside the rows' "model/board")."""
        return f"cores:{self.model}/{self.board}"

    @property
    def ratio(self) -> float:
        return self.split.wall / self.one_core

    @property
    def goal(self) -> float:
        return CORE_GOALS.get(self.model, NO_SLOWER)


def measure_cores_row(models: dict[str, InstructionModel], model: str, board: str, one: Path, two: Path) -> CoresRow:
    if board not in models:
        raise SystemExit(f"perf: --cores-row {model} {board}: the board has no instruction model to count cores on")
    count, _, one_split, one_outputs = models[board].measure_run(one)
    _, _, split, two_outputs = models[board].measure_run(two)
    if split is None or models[board].summary_cores(two) != 2:
        raise SystemExit(f"perf: {two} ran on one core: it is not a two-core firmware")
    # The one-core build must be one core: no core 1 launched, and its summary line says no cores=2.
    one_cores = 2 if one_split is not None or models[board].summary_cores(one) != 1 else 1
    return CoresRow(model, board, count.instructions, split, one_outputs == two_outputs, one_cores)


def cores_table(rows: list[CoresRow]) -> str:
    """One core against two: each core's instructions, core 0's waits, the wall and its ratio."""
    head = (f"{'model':18} {'board':8} {'1 core':>11} {'core 0':>11} {'core 1':>11} {'wait 0':>10} {'wall':>11} "
            f"{'wall/1':>6} {'goal':>5}  outputs")  # fmt: skip
    lines = [
        "two cores: instructions of one inference (wall = core 0's instructions + its waits)",
        head,
        "-" * len(head),
    ]
    for r in rows:
        lines.append(f"{r.model:18} {r.board:8} {r.one_core:11d} {r.split.core0:11d} {r.split.core1:11d} "
                     f"{r.split.wait0:10d} {r.split.wall:11d} {r.ratio:6.3f} {r.goal:5.2f}  "
                     f"{'same' if r.same_outputs else 'DIFFER'}")  # fmt: skip
    return "\n".join(lines)


def cores_problems(rows: list[CoresRow]) -> list[str]:
    slow = [f"{r.model}/{r.board}: two cores take {r.ratio:.3f} of one core's instructions, over the goal {r.goal}"
            for r in rows if r.ratio > r.goal]  # fmt: skip
    differ = [f"{r.model}/{r.board}: the two-core firmware's outputs differ from the one-core firmware's (outputs= digests)"
              for r in rows if not r.same_outputs]  # fmt: skip
    not_one = [f"{r.model}/{r.board}: the one-core firmware ran on two cores (core 1 launched, or its summary says cores=2)"
               for r in rows if r.one_core_cores != 1]  # fmt: skip
    return slow + differ + not_one


def cores_regressions(rows: list[CoresRow], baseline: dict[str, dict[str, int]]) -> tuple[list[str], list[str]]:
    """(problems, notes) of the two-core rows against their baseline entries (one_core, wall)."""
    problems: list[str] = []
    notes: list[str] = []
    for row in rows:
        then_row = baseline.get(row.key)
        if then_row is None:
            problems.append(f"{row.key} has no baseline")
            continue
        for field, now in (("one_core", row.one_core), ("wall", row.split.wall)):
            compare(f"{row.key}: {field}", now, int(then_row[field]), INSTRUCTION_GROWTH, problems, notes)
    return problems, notes


def compare(what: str, now: int, then: int, limit: float, problems: list[str], notes: list[str]) -> None:
    """A problem when `now` grew more than `limit` over `then`; a note when it shrank."""
    if now > then * (1 + limit):
        problems.append(f"{what} {now}, up {100 * (now - then) / then:.1f} % from {then} (allowed {100 * limit:.0f} %)")
    elif now < then:
        notes.append(f"{what} {now}, down from {then}")


def parameters_of(ops_json: Path) -> int:
    """The model's parameter count, from the summary beside its ops.json ("parameters: N (...)")."""
    summary = ops_json.with_name(ops_json.name.removesuffix(".ops.json") + ".summary.txt")
    for line in summary.read_text().splitlines():
        if line.strip().startswith("parameters:"):
            return int(line.split(":", 1)[1].split()[0])
    raise SystemExit(f"perf: {summary} has no parameters line")


def zoo_table(rows: list[Row], parameters: dict[str, int]) -> str:
    """The README's zoo table (Markdown): one line per model and board."""
    lines = [
        "| Model | Board | Parameters | MACs | Flash | RAM | Stack used | Instructions per inference | Instructions per MAC |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        per_mac = f"{r.per_mac:.2f}" if r.per_mac is not None else "-"
        lines.append(f"| `{r.model}` | {r.board} | {parameters[r.model]:,} | {r.macs:,} | {r.flash:,} B | "
                     f"{r.ram:,} B | {r.stack:,} B | {r.instructions:,} | {per_mac} |")  # fmt: skip
    return "\n".join(lines)


def chart(rows: list[Row], path: Path) -> None:
    plt = plotting.pyplot()
    models = sorted({r.model for r in rows}, key=[r.model for r in rows].index)
    boards = sorted({r.board for r in rows}, key=[r.board for r in rows].index)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(boards)
    for b, board in enumerate(boards):
        values = [next((r.per_mac or 0.0 for r in rows if r.model == m and r.board == board), 0.0) for m in models]
        ax.bar([m + b * width for m in range(len(models))], values, width, label=board)
    ax.set_xticks([m + 0.4 - width / 2 for m in range(len(models))], models)
    ax.set_yscale("log")
    ax.set_ylabel("instructions per MAC (exact, QEMU trace; log scale)")
    ax.set_title("tinypte: instructions per multiply-accumulate, one inference")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def regressions(rows: list[Row], baseline: dict[str, dict[str, int]]) -> tuple[list[str], list[str]]:
    """(problems, notes) of `rows` against `baseline` (key -> instructions, flash, ram, stack)."""
    problems: list[str] = []
    notes: list[str] = []
    measured = {r.key: r for r in rows}
    for key in sorted(set(baseline) - set(measured) - {k for k in baseline if k.startswith("cores:")}):
        problems.append(f"{key} is in the baseline but was not measured")
    for key, row in measured.items():
        if key not in baseline:
            problems.append(f"{key} has no baseline")
            continue
        fields = (("instructions", INSTRUCTION_GROWTH), ("flash", MEMORY_GROWTH), ("ram", MEMORY_GROWTH),
                  ("stack", MEMORY_GROWTH), ("arena", MEMORY_GROWTH), ("pool", MEMORY_GROWTH))  # fmt: skip
        for field, limit in fields:
            if field not in baseline[key]:
                problems.append(f"{key}: the baseline has no {field}")
                continue
            compare(f"{key}: {field}", getattr(row, field), int(baseline[key][field]), limit, problems, notes)
    return problems, notes


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--row", nargs=8, action="append", default=[], required=True,
                        metavar=("MODEL", "BOARD", "ELF", "BOARD_JSON", "SIZE_JSON", "OPS_JSON", "REQUIREMENTS_JSON",
                                 "PLAN_JSON"))  # fmt: skip
    parser.add_argument("--instruction-model", nargs=2, action="append", default=[], metavar=("BOARD", "MODEL"),
                        help="count BOARD's rows with `MODEL ELF --count-execute` instead of QEMU")  # fmt: skip
    parser.add_argument("--min-rows", type=int, required=True, help="fail when fewer rows were measured")
    parser.add_argument("--min-cores-rows", type=int, default=0, help="fail when fewer two-core rows were measured")
    parser.add_argument("--cores-row", nargs=4, action="append", default=[], metavar=("MODEL", "BOARD", "ONE", "TWO"),
                        help="MODEL on BOARD's instruction model built for one core (ONE) and two (TWO)")  # fmt: skip
    parser.add_argument("--host", nargs=3, action="append", default=[], metavar=("MODEL", "PTE", "GOLDEN"),
                        help="time MODEL on the host with tinypte and ExecuTorch")  # fmt: skip
    parser.add_argument("--pte-run", type=Path, help="pte_run built -c opt (with --host)")
    parser.add_argument("--executorch-peer", type=Path, help="executorch_peer built -c opt (with --host)")
    parser.add_argument("--out", type=Path, help="directory for perf.json and perf.png")
    parser.add_argument("--check", type=Path, metavar="BASELINE", help="compare with a baseline; exit 1 on growth")
    parser.add_argument("--update-baseline", action="store_true", help=f"write {BASELINE} in the workspace")
    parser.add_argument("--zoo", action="store_true", help="print the rows as the README's zoo table too")
    parser.add_argument("--npu-row", nargs=2, action="append", default=[], metavar=("MODEL", "QUANT_JSON"),
                        help="MODEL's Ethos-U55 program: Vela's estimate from its quantize report")  # fmt: skip
    args = parser.parse_args(argv)

    shard = Shard.from_environment()
    if shard.total > 1 and args.update_baseline:
        raise SystemExit("perf: --update-baseline needs every row: run it unsharded (`bazel run`)")
    models = {board: InstructionModel(Path(model)) for board, model in args.instruction_model}
    row_keys = [f"{m}/{b}" for m, b, *_ in args.row]
    cores_keys = [f"cores:{m}/{b}" for m, b, *_ in args.cores_row]
    if shard.total > 1:
        first, step = shard.index + 1, shard.total
        print(f"perf: shard {first} of {step}: rows {first}, {first + step}, ... of each table")
    rows = [measure_row(models, m, b, *(Path(p) for p in paths)) for m, b, *paths in shard.mine(args.row)]
    print(table(rows))
    print()
    print(memory_table(rows))
    if args.zoo:
        print()
        print(zoo_table(rows, {m: parameters_of(Path(paths[3])) for m, _, *paths in args.row}))
    goal_lines = mlperf_goals.goals_table(list(rows))
    if goal_lines and shard.total == 1:
        print()
        print(goal_lines)
    npu_rows = [npu_row(m, Path(report)) for m, report in args.npu_row]
    if npu_rows:
        print()
        npu_boards = {r.board for r in rows if r.model.endswith("_npu")}
        print(npu_table(npu_rows, {(r.model, r.board): r.instructions for r in rows}, npu_boards))
    cores_rows = [
        measure_cores_row(models, m, b, Path(one), Path(two)) for m, b, one, two in shard.mine(args.cores_row)
    ]
    if cores_rows:
        print()
        print(cores_table(cores_rows))
    host_rows = []
    if args.host:
        if not (args.pte_run and args.executorch_peer):
            raise SystemExit("perf: --host needs --pte-run and --executorch-peer")
        host_rows = [
            time_host(m, Path(p), Path(g), args.pte_run, args.executorch_peer) for m, p, g in shard.mine(args.host)
        ]
        print()
        print(host_table(host_rows))
    if len(cores_rows) < shard.share(args.min_cores_rows):
        print(f"perf: FAIL only {len(cores_rows)} two-core rows measured, at least "
              f"{shard.share(args.min_cores_rows)} required")  # fmt: skip
        return 1
    if len(rows) < shard.share(args.min_rows):
        print(f"perf: FAIL only {len(rows)} rows measured, at least {shard.share(args.min_rows)} required"
              + (f" (shard {shard.index + 1}'s share of {args.min_rows})" if shard.total > 1 else ""))  # fmt: skip
        return 1
    report = {"rows": [asdict(r) | {"instructions_per_mac": r.per_mac, "overhead_per_op": r.overhead_per_call}
                       for r in rows],
              "cores_rows": [asdict(r) | {"ratio": r.ratio, "goal": r.goal} for r in cores_rows],
              "host_rows": [asdict(r) | {"ratio": r.ratio} for r in host_rows],
              "npu_rows": [asdict(r) for r in npu_rows]}  # fmt: skip
    baseline = {
        r.key: {"instructions": r.instructions, "flash": r.flash, "ram": r.ram, "stack": r.stack, "arena": r.arena,
                "pool": r.pool}
        for r in rows
    } | {r.key: {"one_core": r.one_core, "wall": r.split.wall} for r in cores_rows}  # fmt: skip
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if args.update_baseline:
        if not workspace:
            raise SystemExit("perf: --update-baseline needs `bazel run` (it writes into the workspace)")
        (Path(workspace) / BASELINE).write_text(json.dumps(baseline, indent=2, sort_keys=True) + "\n")
        readme = Path(workspace) / README
        readme.write_text(baseline_table.splice(readme.read_text(), baseline_table.render(baseline)))
        print(f"perf: wrote {BASELINE} ({len(baseline)} rows) and its table in {README}")
    out = args.out or (
        Path(os.environ["BUILD_WORKING_DIRECTORY"]) / "perf" if "BUILD_WORKING_DIRECTORY" in os.environ else None
    )
    if out:
        out.mkdir(parents=True, exist_ok=True)
        (out / "perf.json").write_text(json.dumps(report, indent=2) + "\n")
        chart(rows, out / "perf.png")
        print(f"perf: wrote {out / 'perf.json'} and {out / 'perf.png'}")
    if args.check:
        baseline_rows = json.loads(args.check.read_text())
        mine = {key: value for key, value in baseline_rows.items() if shard.owns(key, row_keys, cores_keys)}
        problems, notes = regressions(rows, mine)
        cores_problems_found, cores_notes = cores_regressions(cores_rows, mine)
        measured_cores = {r.key for r in cores_rows}
        problems += cores_problems(cores_rows) + cores_problems_found + [
            f"{key} is in the baseline but was not measured"
            for key in sorted(mine) if key.startswith("cores:") and key not in measured_cores
        ]  # fmt: skip
        notes += cores_notes
        for note in notes:
            print(f"perf: note {note}; `bazel run //tests/bench:perf -- --update-baseline` records it")
        for problem in problems:
            print(f"perf: FAIL {problem}")
        if problems:
            print("perf: if the change is intended, `bazel run //tests/bench:perf -- --update-baseline`")
            return 1
        print(f"perf: {len(rows)} rows within {100 * INSTRUCTION_GROWTH:.0f} % (instructions) and "
              f"{100 * MEMORY_GROWTH:.0f} % (flash, RAM, stack) of the baseline")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

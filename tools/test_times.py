#!/usr/bin/env python3
"""The slowest tests of a `bazel test` run against their timeouts, from its build event file.

A test sized close to its timeout on one machine times out on a slower or busier one: tinypte
keeps every test within half of its size's timeout (small 60 s, medium 300 s, large 900 s,
enormous 3600 s) while the whole suite runs. This reads the JSON build event file that
`bazel test --build_event_json_file=FILE` writes, prints the slowest test runs (each shard and
attempt its own line) as seconds and share of the timeout, and fails when a run took more than
`--max-share` of it, naming the fix. Results Bazel took from a cache did not run: they are
counted, not checked. `.ci/run` runs it after the README's `bazel test //...`.

usage: test_times.py BEP.json [--top N] [--max-share FRACTION] [--min-runs N]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

# Bazel's default timeout of each test size, in seconds (tinypte sets no `timeout` attribute).
TIMEOUTS = {"SMALL": 60, "MEDIUM": 300, "LARGE": 900, "ENORMOUS": 3600}


@dataclass(frozen=True)
class Run:
    """One executed attempt of one shard of a test."""

    label: str
    shard: int
    shards: int
    size: str
    seconds: float
    status: str

    @property
    def timeout(self) -> int:
        return TIMEOUTS[self.size]

    @property
    def share(self) -> float:
        return self.seconds / self.timeout

    @property
    def name(self) -> str:
        return self.label if self.shards <= 1 else f"{self.label} (shard {self.shard}/{self.shards})"


@dataclass(frozen=True)
class Runs:
    executed: list[Run]
    cached: int


def read(events: list[dict[str, object]]) -> Runs:
    """The executed test runs of a build event stream, and how many results came from a cache."""
    sizes: dict[str, str] = {}
    shards: dict[str, int] = {}
    results: list[tuple[str, int, dict[str, object]]] = []
    for event in events:
        ids = event.get("id")
        if not isinstance(ids, dict):
            continue
        if "targetConfigured" in ids:
            configured = event.get("configured")
            if isinstance(configured, dict) and "testSize" in configured:
                sizes[ids["targetConfigured"]["label"]] = str(configured["testSize"])
        elif "testResult" in ids and isinstance(event.get("testResult"), dict):
            label, shard = ids["testResult"]["label"], int(ids["testResult"].get("shard", 1))
            shards[label] = max(shards.get(label, 1), shard)
            results.append((label, shard, event["testResult"]))  # type: ignore[arg-type]
    executed, cached = [], 0
    for label, shard, result in results:
        execution = result.get("executionInfo")
        if result.get("cachedLocally") or (isinstance(execution, dict) and execution.get("cachedRemotely")):
            cached += 1
            continue
        if label not in sizes:
            raise SystemExit(f"test_times: {label} has a result but no size in the build event file")
        seconds = int(str(result.get("testAttemptDurationMillis", "0"))) / 1000
        executed.append(Run(label, shard, shards[label], sizes[label], seconds, str(result.get("status", "?"))))
    return Runs(executed, cached)


def table(runs: list[Run], top: int) -> str:
    slowest = sorted(runs, key=lambda r: r.share, reverse=True)[:top]
    width = max([len(r.name) for r in slowest] + [4])
    lines = [f"{'test':<{width}}  {'size':<8} {'seconds':>8} {'timeout':>8} {'share':>6}  status"]
    lines.append("-" * len(lines[0]))
    lines += [f"{r.name:<{width}}  {r.size.lower():<8} {r.seconds:8.1f} {r.timeout:8d} {100 * r.share:5.0f}%  {r.status}"
              for r in slowest]  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("bep", type=Path, help="the file of --build_event_json_file")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest runs to print")
    parser.add_argument("--max-share", type=float, default=0.5, help="fail above this share of a timeout")
    parser.add_argument("--min-runs", type=int, default=0, help="fail when fewer test runs were executed")
    args = parser.parse_args(argv)
    lines = args.bep.read_text().splitlines()
    runs = read([json.loads(line) for line in lines if line.strip()])
    print(f"test_times: {len(runs.executed)} test runs executed, {runs.cached} results from a cache; "
          f"the slowest against their timeouts:")  # fmt: skip
    if runs.executed:
        print(table(runs.executed, args.top))
    problems = [f"{r.name} took {r.seconds:.0f} s, {100 * r.share:.0f} % of its {r.size.lower()} test's "
                f"{r.timeout} s timeout (at most {100 * args.max_share:.0f} %): shard it (shard_count) or "
                f"give it a larger size" for r in runs.executed if r.share > args.max_share]  # fmt: skip
    if len(runs.executed) < args.min_runs:
        problems.append(f"only {len(runs.executed)} test runs executed, at least {args.min_runs} expected")
    for problem in problems:
        print(f"test_times: FAIL {problem}")
    if not problems:
        print(f"test_times: every executed test run within {100 * args.max_share:.0f} % of its timeout")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

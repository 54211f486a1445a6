#!/usr/bin/env python3
"""Where a build's time went, from the JSON profile `bazel ... --profile=FILE` writes.

Prints the sum of action time (what a build costs whatever the core count: the number the
README's and the issues' "total action time" is), the elapsed time, the ten longest actions and
the time per kind of action (the first words of Bazel's progress message, without parenthesized
parts: "Testing", "Compiling", "Exporting conformance cases", ...). Bazel 4.2.3 writes a slim profile: actions
shorter than a few milliseconds are merged into "merged N events" records on the same thread;
their time is counted in the total (as "merged short events"), not in the kinds.
`bazel analyze-profile FILE` gives the critical path beside it.

usage: profile_summary.py PROFILE [--top N] [--kinds N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ACTION = "action processing"
MERGED = "Unknown event"  # the slim profile's "merged N events" records
PHASE = "build phase marker"


@dataclass(frozen=True)
class Action:
    name: str
    seconds: float

    @property
    def kind(self) -> str:
        """The action's kind: its message's leading words before the first label or path."""
        if self.name.startswith("Testing "):
            return "Testing"
        words = []
        for word in self.name.split():
            if "/" in word or word.startswith(("//", "@")):
                break
            words.append(word)
        return " ".join(words[:4]) or self.name


@dataclass(frozen=True)
class Profile:
    actions: list[Action]
    merged_seconds: float
    elapsed_seconds: float

    @property
    def total_seconds(self) -> float:
        return sum(a.seconds for a in self.actions) + self.merged_seconds


def read(path: Path) -> Profile:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    document = json.loads(data)
    events = document["traceEvents"] if isinstance(document, dict) else document
    action_threads = {e["tid"] for e in events if e.get("cat") == ACTION}
    actions = [Action(str(e["name"]), e.get("dur", 0) / 1e6) for e in events if e.get("cat") == ACTION]
    merged = sum(e.get("dur", 0) for e in events if e.get("cat") == MERGED and e.get("tid") in action_threads) / 1e6
    times = [e["ts"] + e.get("dur", 0) for e in events if "ts" in e]
    starts = [e["ts"] for e in events if "ts" in e and e.get("ph") != "M"]
    elapsed = (max(times) - min(starts)) / 1e6 if times and starts else 0.0
    return Profile(actions, merged, elapsed)


def kinds(actions: list[Action]) -> list[tuple[str, int, float]]:
    totals: dict[str, list[float]] = defaultdict(list)
    for action in actions:
        totals[re.sub(r"\s*\([^)]*\)", "", action.kind)].append(action.seconds)
    return sorted(((k, len(v), sum(v)) for k, v in totals.items()), key=lambda t: -t[2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=10, help="longest actions to list")
    parser.add_argument("--kinds", type=int, default=15, help="kinds of action to list")
    args = parser.parse_args(argv)
    profile = read(args.profile)
    if not profile.actions:
        raise SystemExit(f"profile_summary: {args.profile} holds no actions")
    print(f"total action time {profile.total_seconds:,.0f} s ({len(profile.actions)} actions "
          f"{sum(a.seconds for a in profile.actions):,.0f} s + merged short events "
          f"{profile.merged_seconds:,.0f} s); elapsed {profile.elapsed_seconds:,.0f} s")  # fmt: skip
    print(f"\nthe {args.top} longest actions:")
    for action in sorted(profile.actions, key=lambda a: -a.seconds)[: args.top]:
        print(f"  {action.seconds:8.1f} s  {action.name}")
    print("\nby kind (count, seconds):")
    for kind, count, seconds in kinds(profile.actions)[: args.kinds]:
        print(f"  {seconds:8.1f} s  {count:5d}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

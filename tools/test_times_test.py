"""test_times reads a build event file as Bazel 4.2.3 writes it: sizes, shards, cached results, and
fails exactly on the runs over their share of the timeout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import test_times


def configured(label: str, size: str) -> dict[str, object]:
    return {
        "id": {"targetConfigured": {"label": label}},
        "configured": {"targetKind": "py_test rule", "testSize": size},
    }


def result(label: str, millis: int, shard: int = 1, cached: bool = False, remote: bool = False) -> dict[str, object]:
    body: dict[str, object] = {"testAttemptDurationMillis": str(millis), "status": "PASSED",
                               "executionInfo": {"cachedRemotely": True} if remote else {"strategy": "linux-sandbox"}}  # fmt: skip
    if cached:
        body["cachedLocally"] = True
    return {"id": {"testResult": {"label": label, "run": 1, "shard": shard, "attempt": 1}}, "testResult": body}


EVENTS = [
    configured("//a:quick_test", "SMALL"),
    configured("//a:guard_test", "MEDIUM"),
    configured("//a:old_test", "SMALL"),
    configured("//a:lib", "SMALL") | {"configured": {"targetKind": "py_library rule"}},
    result("//a:quick_test", 3_000),
    result("//a:guard_test", 90_000, shard=1),
    result("//a:guard_test", 160_000, shard=2),
    result("//a:old_test", 59_000, cached=True),
    result("//a:old_test", 59_000, remote=True),
]


def write(tmp_path: Path, events: list[dict[str, object]]) -> Path:
    path = tmp_path / "bep.json"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def test_reads_runs_shards_and_cached_results() -> None:
    runs = test_times.read(EVENTS)
    assert runs.cached == 2
    by_name = {r.name: r for r in runs.executed}
    assert sorted(by_name) == ["//a:guard_test (shard 1/2)", "//a:guard_test (shard 2/2)", "//a:quick_test"]
    assert by_name["//a:quick_test"].share == pytest.approx(3 / 60)
    assert by_name["//a:guard_test (shard 2/2)"].share == pytest.approx(160 / 300)


def test_fails_on_a_run_over_half_its_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert test_times.main([str(write(tmp_path, EVENTS))]) == 1
    out = capsys.readouterr().out
    assert "FAIL //a:guard_test (shard 2/2) took 160 s, 53 % of its medium test's 300 s timeout" in out
    assert "shard 1/2) took" not in out
    assert test_times.main([str(write(tmp_path, EVENTS)), "--max-share", "0.6"]) == 0


def test_fails_when_too_few_runs_executed(tmp_path: Path) -> None:
    assert test_times.main([str(write(tmp_path, EVENTS[:4])), "--min-runs", "1"]) == 1


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))

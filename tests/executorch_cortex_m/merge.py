"""Merge the parts of a lowering (lower.py --part I/N) into one conformance directory.

usage: merge.py --out DIR PART_DIR...

Copies every part's files into DIR and writes DIR/manifest.json: the cases and the cases
ExecuTorch could not lower of every part, sorted by name (so the firmware shards, every N-th
case, do not depend on how the lowering was split), and the test modules that could not be
imported (the same in every part).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any


def merge(parts: list[Path], out: Path) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    cases: list[dict[str, Any]] = []
    unsupported: list[dict[str, str]] = []
    not_imported: list[dict[str, str]] = []
    for part in parts:
        manifest = json.loads((part / "manifest.json").read_text())
        cases += manifest["cases"]
        unsupported += manifest["unsupported"]
        not_imported = manifest["not_imported"]
        for file in sorted(part.iterdir()):
            if file.name != "manifest.json":
                shutil.copyfile(file, out / file.name)
    names = [case["name"] for case in cases]
    if len(set(names)) != len(names):
        raise SystemExit("merge: a case appears in two parts")
    return {
        "cases": sorted(cases, key=lambda case: case["name"]),
        "unsupported": sorted(unsupported, key=lambda entry: entry["name"]),
        "not_imported": not_imported,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("parts", type=Path, nargs="+")
    args = parser.parse_args(argv)
    manifest = merge(args.parts, args.out)
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"merge: {len(manifest['cases'])} cases, {len(manifest['unsupported'])} not lowerable, "
          f"from {len(args.parts)} parts")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

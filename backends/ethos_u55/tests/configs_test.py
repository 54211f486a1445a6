"""The Ethos-U55 configurations have one source, include/tinypte/ethos_u55_configs.h: the Starlark
copy (configs.bzl, given as arguments by the BUILD file) and the driver's message listing them
must say the same.

usage: configs_test.py --bzl-targets T1,T2,... --bzl-default T --driver ethos_u55.c
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ethos_u55 import configs


def problems(bzl_targets: list[str], bzl_default: str, driver_c: str) -> list[str]:
    found = []
    if tuple(bzl_targets) != configs.TARGETS:
        found.append(f"configs.bzl ETHOS_U55_TARGETS {bzl_targets}, the header's {list(configs.TARGETS)}")
    if bzl_default != configs.DEFAULT_TARGET:
        found.append(f"configs.bzl ETHOS_U55_DEFAULT {bzl_default!r}, the header's {configs.DEFAULT_TARGET!r}")
    if configs.DEFAULT_TARGET not in configs.TARGETS:
        found.append(f"the default {configs.DEFAULT_TARGET!r} is none of the configurations")
    macs = [str(c.macs) for c in configs.CONFIGS]
    listed = f"({', '.join(macs[:-1])} or {macs[-1]})"
    if f"is not an Ethos-U55 configuration {listed}" not in driver_c:
        found.append(f"the driver's message does not list the configurations as {listed}")
    for config in configs.CONFIGS:
        if 1 << config.log2_macs != config.macs:
            found.append(f"{config}: log2_macs is not the log2 of macs")
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--bzl-targets", required=True)
    parser.add_argument("--bzl-default", required=True)
    parser.add_argument("--driver", type=Path, required=True)
    args = parser.parse_args(argv)
    found = problems(args.bzl_targets.split(","), args.bzl_default, args.driver.read_text())
    # The check can fail: a copy that differs is found.
    assert problems([*args.bzl_targets.split(",")[:-1]], args.bzl_default, args.driver.read_text())
    assert problems(args.bzl_targets.split(","), "ethos-u55-512", re.sub(r"\b256\b", "512", args.driver.read_text()))
    for problem in found:
        print(f"configs_test: FAIL {problem}")
    if found:
        return 1
    print(f"configs_test: {len(configs.CONFIGS)} configurations ({', '.join(configs.TARGETS)}), "
          f"default {configs.DEFAULT_TARGET}: configs.bzl and the driver agree with the header")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

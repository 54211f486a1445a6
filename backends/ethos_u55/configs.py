"""The Ethos-U55 configurations, read from their single source, include/tinypte/ethos_u55_configs.h.

Standard library and tinypte.headers' X-macro reader only (no torch): the NPU's functional model
reads it on the machine models' venv too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tinypte.headers.c_constants import x_macro_body

# Beside this file in the repository and in Bazel runfiles (//backends/ethos_u55:configs_py
# carries it as data); not resolved through symlinks, so an action reads the declared copy.
CONFIGS_H = Path(__file__).absolute().parent / "include" / "tinypte" / "ethos_u55_configs.h"
TARGET_PREFIX = "ethos-u55-"


@dataclass(frozen=True)
class Config:
    """One Ethos-U55 configuration."""

    macs: int  # MACs per cycle
    log2_macs: int  # CONFIG's macs_per_cc
    shram_kb: int  # CONFIG's shram_size

    @property
    def target(self) -> str:
        """Vela's name of it, executorch_model's `delegate`: "ethos-u55-128"."""
        return f"{TARGET_PREFIX}{self.macs}"


def read_configs(header: Path = CONFIGS_H) -> tuple[Config, ...]:
    entries = re.findall(r"X\((\d+),\s*(\d+),\s*(\d+)\)", x_macro_body(header.read_text(), "TP_ETHOS_U55_CONFIG_LIST"))
    if not entries:
        raise ValueError(f"{header}: TP_ETHOS_U55_CONFIG_LIST has no X(macs, log2_macs, shram_kb) entry")
    return tuple(Config(int(m), int(log2), int(kb)) for m, log2, kb in entries)


def read_default_macs(header: Path = CONFIGS_H) -> int:
    match = re.search(r"#define TP_ETHOS_U55_DEFAULT_MACS (\d+)", header.read_text())
    if not match:
        raise ValueError(f"{header}: no #define TP_ETHOS_U55_DEFAULT_MACS")
    return int(match.group(1))


CONFIGS = read_configs()
TARGETS = tuple(c.target for c in CONFIGS)
DEFAULT_TARGET = f"{TARGET_PREFIX}{read_default_macs()}"

"""Unit tests of tinypte.plotter.command: line parsing, series, and the PNG it renders."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from tinypte.cli import main
from tinypte.errors import TinypteError
from tinypte.plotter import command as plotter


def test_parse_line_takes_numeric_fields_only() -> None:
    assert plotter.parse_line("x=1.5 y=-0.25 ref=1e-3 board=pico2w") == {"x": 1.5, "y": -0.25, "ref": 0.001}
    assert plotter.parse_line("smoke: PASS") == {}


def test_series_sorts_by_x_and_fills_gaps() -> None:
    xs, values, label = plotter.series([{"x": 2.0, "y": 4.0}, {"x": 1.0, "y": 1.0, "ref": 1.0}])
    assert (xs, label) == ([1.0, 2.0], "x")
    assert values["y"] == [1.0, 4.0]
    assert values["ref"][0] == 1.0 and math.isnan(values["ref"][1])


def test_no_records_is_a_user_error() -> None:
    with pytest.raises(TinypteError, match="no `key=value` lines"):
        plotter.series([])


def test_input_log_to_png(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_text("".join(f"x={i / 10:.3f} y={math.sin(i / 10):.4f} ref={math.sin(i / 10):.4f}\n" for i in range(63)))
    png = tmp_path / "plot.png"
    assert main(["plotter", "--input", str(log), "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["plotter", "--input", str(log)]) == 1  # --png missing: one-line error, status 1


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))

"""Selective builds of backends (tinypte.kernels.registry): the registry lists exactly the
backends the programs' ops.json name, and a delegate no backend serves is an error naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tinypte.errors import TinypteError
from tinypte.kernels import registry

BACKEND_SOURCE = """/* a backend */
#include "tinypte/backend.h"
TP_BACKEND(EthosUBackend, size_fn, init_fn, reason_fn);
"""


def _ops(path: Path, model: str, delegates: list[str]) -> Path:
    path.write_text(json.dumps({"model": model, "operators": [], "extensions": [], "delegates": delegates}))
    return path


def test_backends_are_found_and_selected(tmp_path: Path) -> None:
    source = tmp_path / "runtime/backends/ethos_u/ethos_u_backend.c"
    source.parent.mkdir(parents=True)
    source.write_text(BACKEND_SOURCE)
    found = registry.scan_backends([source])
    assert found == {"EthosUBackend": "ethos_u/ethos_u_backend.c"}
    used = registry.used_backends([_ops(tmp_path / "a.json", "//m:kws_npu", ["EthosUBackend"]),
                                   _ops(tmp_path / "b.json", "//m:sine", [])])  # fmt: skip
    assert used == {"EthosUBackend": ["//m:kws_npu"]}
    assert registry.select_backends(found, used) == ["EthosUBackend"]
    assert registry.select_backends(found, {}) == []


def test_a_delegate_without_backend_names_it_and_the_model(tmp_path: Path) -> None:
    used = registry.used_backends([_ops(tmp_path / "a.json", "//m:net", ["XnnpackBackend"])])
    with pytest.raises(TinypteError, match=r"no backend for delegate 'XnnpackBackend', used by //m:net\. "
                       r"tinypte's backends \(runtime/backends/\): EthosUBackend"):  # fmt: skip
        registry.select_backends({"EthosUBackend": "ethos_u/ethos_u_backend.c"}, used)


def test_the_registry_references_each_selected_backend() -> None:
    with_backend = registry.render([], "test", ["EthosUBackend"])
    assert "extern const tp_backend tp_backend_EthosUBackend;" in with_backend
    assert "tp_selected_kernels = {0, 0, kBackends, sizeof kBackends / sizeof kBackends[0]};" in with_backend
    assert "tp_selected_kernels = {0, 0, 0, 0};" in registry.render([], "test")

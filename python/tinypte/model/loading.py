"""Load a model file and run its hooks, turning model-file errors into one clear line.

The model-file contract (a plain Python file, e.g. models/sine/model.py):

    def build() -> torch.nn.Module                       # the untrained architecture
    def train(model, *, seed: int, log) -> None           # seeded, deterministic, CPU
    def example_inputs() -> tuple[torch.Tensor, ...]      # shapes/dtypes for export
    def golden_inputs() -> list[tuple[torch.Tensor, ...]] # inputs covering the domain
    def evaluate(model) -> dict[str, float]               # metrics on held-out data
    ACCEPTANCE: dict[str, tuple[str, float]]              # e.g. {"test_mse": ("<=", 2e-4)}
    TOLERANCE: float                                      # |device - PyTorch| allowed

Optional, for int8 export (`quantize = "int8"`, see tinypte/quantize/flow.py):

    def calibration_inputs() -> list[tuple[torch.Tensor, ...]]  # default: train_set()'s inputs
    INT8_ACCEPTANCE: dict[str, tuple[str, float]]               # default: ACCEPTANCE
    # evaluate() is also called with the int8 program: any callable returning forward()'s outputs

Before `train`, the tools seed torch, turn on deterministic algorithms and use one thread.

A model file for weights trained elsewhere (executorch_model's `weights = "model.pt"`, a
state_dict) needs only `build`, `example_inputs` and `golden_inputs`: without `train` the
others are optional (`evaluate` and `ACCEPTANCE` are used when present; `TOLERANCE` defaults to
DEFAULT_TOLERANCE; int8 calibration defaults to the golden inputs).
"""

from __future__ import annotations

import importlib.util
import re
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from tinypte.errors import TinypteError

REQUIRED = ("build", "train", "example_inputs", "golden_inputs", "evaluate", "ACCEPTANCE", "TOLERANCE")
# What a model file for given weights (no `train`) must define, and the defaults of the rest.
REQUIRED_FOR_WEIGHTS = ("build", "example_inputs", "golden_inputs")
DEFAULT_TOLERANCE = 1e-5
T = TypeVar("T")


class ModelFileError(TinypteError):
    """An exception raised inside the user's model file, located at its file and line."""


def where(error: BaseException, path: Path) -> str:
    """'model.py:42': the innermost place in the model file the error comes from.

    Looks at the traceback's frames, then at the message (torch.export reports the user's
    source lines as 'File ".../model.py", line 42' in its text); the bare path otherwise.
    """
    frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename).resolve() == path.resolve()]
    if frames:
        return f"{path}:{frames[-1].lineno}"
    lines = re.findall(rf'File "[^"]*{re.escape(path.name)}", line (\d+)', str(error))
    return f"{path}:{lines[-1]}" if lines else str(path)


def call(path: Path, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call a hook of the model file; its exceptions become ModelFileError with file:line."""
    try:
        return fn(*args, **kwargs)
    except TinypteError:
        raise
    except Exception as error:  # any user exception is reported, not hidden
        raise ModelFileError(f"{where(error, path)}: {what} failed: {type(error).__name__}: {error}") from error


def load(path: Path) -> ModuleType:
    """Import a model file and check it has the whole contract."""
    if not path.is_file():
        raise TinypteError(f"model file {path} does not exist")
    spec = importlib.util.spec_from_file_location(f"tinypte_model_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise TinypteError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    call(path, "importing the model file", spec.loader.exec_module, module)
    if not hasattr(module, "train"):  # a model file for weights trained elsewhere
        missing = [name for name in REQUIRED_FOR_WEIGHTS if not hasattr(module, name)]
        if missing:
            raise TinypteError(
                f"{path}: missing {', '.join(missing)}; a model file for given weights defines "
                f"{', '.join(REQUIRED_FOR_WEIGHTS)} (see python/tinypte/model/loading.py)"
            )
        defaults: dict[str, Any] = {"TOLERANCE": DEFAULT_TOLERANCE, "ACCEPTANCE": {}, "evaluate": lambda model: {}}
        if not hasattr(module, "train_set"):
            defaults["calibration_inputs"] = module.golden_inputs
        for name, value in defaults.items():
            if not hasattr(module, name):
                setattr(module, name, value)
        return module
    missing = [name for name in REQUIRED if not hasattr(module, name)]
    if missing:
        raise TinypteError(
            f"{path}: missing {', '.join(missing)}; a model file defines {', '.join(REQUIRED)} "
            "(see python/tinypte/model/loading.py)"
        )
    return module


def deterministic(seed: int) -> None:
    """Seeded, single-threaded, deterministic torch."""
    import torch

    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)


def trained(path: Path, module: ModuleType, weights: Path) -> Any:
    """The model file's `build()` with the trained `weights` (a state_dict file) loaded, in eval
    mode: what every stage after training starts from."""
    import torch

    model = call(path, "build()", module.build)
    try:
        state = torch.load(weights, weights_only=True)
    except Exception as error:  # an unreadable weights file is the user's input
        raise TinypteError(f"{weights}: not a state_dict saved with torch.save: {error}") from error
    load_weights(path, model, state, weights)
    model.eval()
    return model


def load_weights(path: Path, model: Any, state: Any, weights: Path) -> None:
    """Load a state_dict into `model`, or fail naming the first parameter that does not fit."""
    if not isinstance(state, dict):
        raise TinypteError(f"{weights}: holds a {type(state).__name__}, not a state_dict (save model.state_dict())")
    expected = model.state_dict()
    for name, tensor in expected.items():
        if name not in state:
            raise TinypteError(f"{weights} does not fit the model {path} builds: it has no {name!r} "
                               f"({list(tensor.shape)}); save the state_dict of the module build() returns")  # fmt: skip
        if tuple(state[name].shape) != tuple(tensor.shape):
            raise TinypteError(f"{weights} does not fit the model {path} builds: {name!r} is "
                               f"{list(state[name].shape)} there, build() makes it {list(tensor.shape)}")  # fmt: skip
    for name in state:
        if name not in expected:
            raise TinypteError(f"{weights} does not fit the model {path} builds: it has {name!r}, which "
                               "build()'s module does not")  # fmt: skip
    try:
        model.load_state_dict(state)
    except RuntimeError as error:
        first = str(error).splitlines()[0]
        raise TinypteError(f"{weights} does not fit the model {path} builds ({first})") from error


def check_acceptance(
    path: Path, metrics: dict[str, float], acceptance: dict[str, tuple[str, float]], what: str = "ACCEPTANCE"
) -> None:
    """Fail when a metric misses its threshold (the model did not train well enough)."""
    for name, (op, threshold) in acceptance.items():
        if name not in metrics:
            raise TinypteError(f"{path}: evaluate() returned no {name!r}, which {what} needs")
        value = metrics[name]
        ok = value <= threshold if op == "<=" else value >= threshold if op == ">=" else None
        if ok is None:
            raise TinypteError(f"{path}: {what}[{name!r}] uses {op!r}; use '<=' or '>='")
        if not ok:
            raise TinypteError(f"{path}: {name} = {value:.6g}, but {what} needs {op} {threshold:g}")

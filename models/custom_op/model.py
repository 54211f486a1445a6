"""A model with an operator of the user's own: `mylib::soft_threshold` (sparse denoising).

The example for "Writing a kernel for your own operator" (README): the operator is defined
here with torch.library (its functional form for PyTorch, autograd for training, a fake
implementation for export, and the `.out` variant ExecuTorch's programs call), and its C
kernel is `soft_threshold.c`, passed to model_firmware's `srcs` in BUILD.bazel.

    soft_threshold(x, t) = sign(x) * max(|x| - t, 0)      (elementwise; t >= 0)

Task (seeded synthetic data, nothing downloaded): recover a sparse 16-d signal s (3 non-zero
entries of magnitude 0.5..1.5 and random sign) from x = A s + noise, where A is a fixed random
16x16 mixing matrix. The model is one unrolled step of iterative soft thresholding:
linear(16->32) -> soft_threshold(., 0.1) -> linear(32->16). Metric: test MSE against s.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

from tinypte.model.evaluation import single_cases
from tinypte.model.training import full_batch_steps

ACCEPTANCE = {"test_mse": ("<=", 0.05)}
TOLERANCE = 1e-5  # float32 outputs
THRESHOLD = 0.1
DIM, HIDDEN, NONZEROS, NOISE = 16, 32, 3, 0.05
TRAIN, TEST, STEPS = 4096, 512, 1500
DATA_SEED = 16  # the mixing matrix and the test set, whatever the training seed


def _reference(x: torch.Tensor, threshold: float) -> torch.Tensor:
    return torch.sign(x) * torch.clamp(x.abs() - threshold, min=0.0)


def _define_operator() -> None:
    """mylib::soft_threshold and mylib::soft_threshold.out (once per process)."""
    if hasattr(torch.ops.mylib, "soft_threshold"):
        return

    @torch.library.custom_op("mylib::soft_threshold", mutates_args=())
    def soft_threshold(x: torch.Tensor, threshold: float) -> torch.Tensor:
        return _reference(x, threshold)

    @soft_threshold.register_fake
    def _(x: torch.Tensor, threshold: float) -> torch.Tensor:
        return torch.empty_like(x)

    def backward(ctx: torch.autograd.function.FunctionCtx, grad: torch.Tensor) -> tuple[torch.Tensor, None]:
        (x,) = ctx.saved_tensors  # type: ignore[attr-defined]
        return grad * (x.abs() > ctx.threshold), None  # type: ignore[attr-defined]

    def setup_context(
        ctx: torch.autograd.function.FunctionCtx, inputs: tuple[torch.Tensor, float], output: torch.Tensor
    ) -> None:
        ctx.save_for_backward(inputs[0])
        ctx.threshold = inputs[1]  # type: ignore[attr-defined]

    soft_threshold.register_autograd(backward, setup_context=setup_context)

    # The out variant ExecuTorch's programs call: mylib::soft_threshold.out.
    fragment = torch.library.Library("mylib", "FRAGMENT")  # kept alive in _LIBRARIES
    fragment.define("soft_threshold.out(Tensor x, float threshold, *, Tensor(a!) out) -> Tensor(a!)")

    def soft_threshold_out(x: torch.Tensor, threshold: float, *, out: torch.Tensor) -> torch.Tensor:
        out.copy_(_reference(x, threshold))
        return out

    fragment.impl("soft_threshold.out", soft_threshold_out, "CompositeExplicitAutograd")
    _LIBRARIES.append(fragment)


_LIBRARIES: list[torch.library.Library] = []
_define_operator()


class SparseDenoiser(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.analysis = nn.Linear(DIM, HIDDEN)
        self.synthesis = nn.Linear(HIDDEN, DIM)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        code = torch.ops.mylib.soft_threshold(self.analysis(x), THRESHOLD)
        return self.synthesis(code)


def _data(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    mixing = torch.randn(DIM, DIM, generator=torch.Generator().manual_seed(DATA_SEED)) / DIM**0.5
    support = torch.rand(count, DIM, generator=generator).argsort(dim=1)[:, :NONZEROS]
    magnitude = torch.rand(count, NONZEROS, generator=generator) + 0.5
    sign = torch.randint(0, 2, (count, NONZEROS), generator=generator) * 2.0 - 1.0
    signal = torch.zeros(count, DIM).scatter_(1, support, magnitude * sign)
    noisy = signal @ mixing.T + NOISE * torch.randn(count, DIM, generator=generator)
    return noisy, signal


def test_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _data(TEST, torch.Generator().manual_seed(DATA_SEED + 1))


def build() -> nn.Module:
    return SparseDenoiser()


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    x, y = _data(TRAIN, torch.Generator().manual_seed(seed))
    full_batch_steps(
        model, x, y, nn.functional.mse_loss, steps=STEPS, lr=0.01, log=log, name="custom_op", log_every=500
    )


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    x, y = test_set()
    with torch.no_grad():
        return {"test_mse": nn.functional.mse_loss(model(x), y).item()}


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, DIM),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return single_cases(test_set()[0], range(0, 64, 4))

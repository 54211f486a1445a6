"""Training loops model files share: import them in a model file's `train()`.

    from tinypte.model.training import minibatch_epochs

    def train(model, *, seed, log):
        x, y = train_set()
        minibatch_epochs(model, x, y, nn.functional.cross_entropy, seed=seed, epochs=8,
                         batch=64, lr=3e-3, log=log, name="kws")

Each loop is Adam on the CPU, single-threaded (the train stage has already seeded torch and
made it deterministic), so the same model file and seed give the same weights bit for bit.
A model file that needs something else (another optimizer, a schedule, a custom loss over
several outputs) writes its own loop, as models/sine and models/digits do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Loss = Callable[[Any, Any], Any]


def minibatch_epochs(
    model: Any,
    inputs: Any,
    targets: Any,
    loss: Loss,
    *,
    seed: int,
    epochs: int,
    batch: int,
    lr: float,
    log: Callable[[str], None],
    name: str,
    log_every: int = 1,
) -> None:
    """`epochs` passes over (inputs, targets) in shuffled minibatches of `batch` (the last may be
    smaller), Adam at learning rate `lr`; the order comes from a generator seeded with `seed`.
    Logs "<name>: epoch E/EPOCHS train loss L" every `log_every` epochs. Leaves the model in
    eval mode."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    count = len(inputs)
    model.train()
    for epoch in range(1, epochs + 1):
        order = torch.randperm(count, generator=generator)
        for start in range(0, count, batch):
            index = order[start : start + batch]
            optimizer.zero_grad()
            value = loss(model(inputs[index]), targets[index])
            value.backward()
            optimizer.step()
        if epoch % log_every == 0:
            log(f"{name}: epoch {epoch}/{epochs} train loss {value.item():.3g}")
    model.eval()


def full_batch_steps(
    model: Any,
    inputs: Any,
    targets: Any,
    loss: Loss,
    *,
    steps: int,
    lr: float,
    log: Callable[[str], None],
    name: str,
    log_every: int,
) -> None:
    """`steps` Adam steps at learning rate `lr` on the whole of (inputs, targets) each time.
    Logs "<name>: step S/STEPS train loss L" every `log_every` steps."""
    import torch

    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(1, steps + 1):
        optimizer.zero_grad()
        value = loss(model(inputs), targets)
        value.backward()
        optimizer.step()
        if step % log_every == 0:
            log(f"{name}: step {step}/{steps} train loss {value.item():.3g}")

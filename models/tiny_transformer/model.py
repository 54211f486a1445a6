"""A tiny transformer encoder classifying token sequences: embedding, one attention block, layer
norm, GELU feed-forward, mean pooling, linear head.

A model file for tinypte's executorch_model rule (python/tinypte/model/loading.py). Sizes:
vocabulary 64, sequence 16, model width 32, 2 heads of 16, feed-forward 64, 4 classes. The
attention is written out (linear q/k/v, scaled dot products, softmax, weighted sum, output
projection) so the program uses the portable operators (embedding, layer norm, bmm, softmax,
gelu) rather than a fused attention operator. Input: [1, 16] int64 token ids.

Data (seeded, synthetic): each class has a "signal" token; a sequence is random filler tokens
(from the ids no class uses) with its class's signal token planted at three random positions,
and one other class's signal token planted once as a distractor. Metric: test accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

from tinypte.model.evaluation import accuracy, single_cases
from tinypte.model.training import minibatch_epochs

ACCEPTANCE = {"test_accuracy": (">=", 0.9)}
TOLERANCE = 1e-4
VOCAB, SEQ, WIDTH, HEADS, FFN, CLASSES = 64, 16, 32, 2, 64, 4
SIGNALS = (60, 61, 62, 63)  # each class's signal token; filler ids are below 60
TRAIN, TEST, EPOCHS, BATCH = 1024, 256, 12, 64
DATA_SEED = 1616


class TinyTransformer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.position = nn.Parameter(torch.zeros(SEQ, WIDTH))
        self.norm1 = nn.LayerNorm(WIDTH)
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.project = nn.Linear(WIDTH, WIDTH)
        self.norm2 = nn.LayerNorm(WIDTH)
        self.ffn = nn.Sequential(nn.Linear(WIDTH, FFN), nn.GELU(), nn.Linear(FFN, WIDTH))
        self.head = nn.Linear(WIDTH, CLASSES)

    def attention(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, _ = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        head = WIDTH // HEADS

        def split(t: torch.Tensor) -> torch.Tensor:  # [B, S, W] -> [B * H, S, W / H]
            return t.reshape(batch, seq, HEADS, head).permute(0, 2, 1, 3).reshape(batch * HEADS, seq, head)

        scores = torch.bmm(split(q), split(k).transpose(1, 2)) * (1.0 / math.sqrt(head))
        mixed = torch.bmm(torch.softmax(scores, dim=-1), split(v))
        merged = mixed.reshape(batch, HEADS, seq, head).permute(0, 2, 1, 3).reshape(batch, seq, WIDTH)
        out: torch.Tensor = self.project(merged)
        return out

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) + self.position
        x = x + self.attention(self.norm1(x))
        x = x + self.ffn(self.norm2(x))
        logits: torch.Tensor = self.head(x.mean(dim=1))
        return logits


def build() -> nn.Module:
    return TinyTransformer()


def _sequences(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    tokens = torch.randint(0, SIGNALS[0], (count, SEQ), generator=generator)
    for i in range(count):
        positions = torch.randperm(SEQ, generator=generator)[:4]
        label = int(labels[i])
        other = (label + 1 + int(torch.randint(0, CLASSES - 1, (1,), generator=generator))) % CLASSES
        tokens[i, positions[:3]] = SIGNALS[label]
        tokens[i, positions[3]] = SIGNALS[other]
    return tokens, labels


def train_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _sequences(TRAIN, torch.Generator().manual_seed(DATA_SEED + 1))


def test_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _sequences(TEST, torch.Generator().manual_seed(DATA_SEED + 2))


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    x, y = train_set()
    minibatch_epochs(model, x, y, nn.functional.cross_entropy, seed=seed, epochs=EPOCHS, batch=BATCH, lr=3e-3, log=log,
                     name="tiny_transformer")  # fmt: skip


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    return accuracy(model, *test_set())


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, SEQ, dtype=torch.int64),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return single_cases(test_set()[0], range(8))

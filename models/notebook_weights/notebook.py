"""What the notebook did: fit model.py's build() to sin(x) and save its state_dict.

Run by hand (not by the build), to make weights.pt and the deliberately wrong
wrong_weights.pt (a 1-8-16-1 network, for the build's mismatch test):
    python models/notebook_weights/notebook.py models/notebook_weights
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
import model


def main() -> int:
    out = Path(sys.argv[1])
    torch.manual_seed(0)
    net = model.build()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    x = torch.linspace(-math.pi, math.pi, 512).unsqueeze(1)
    for _ in range(3000):
        optimizer.zero_grad()
        loss = torch.mean((net(x) - torch.sin(x)) ** 2)
        loss.backward()
        optimizer.step()
    torch.save(net.state_dict(), out / "weights.pt")
    wrong = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.ReLU(), torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                torch.nn.Linear(16, 1))  # fmt: skip
    torch.save(wrong.state_dict(), out / "wrong_weights.pt")
    print(f"notebook: mse {float(loss.detach()):.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""matplotlib for tinypte's PNG pictures: the Agg backend, with scratch config and cache directories.

Bazel actions run with no writable home. matplotlib then needs a config directory, and
fontconfig (which matplotlib runs, as `fc-list`, to list the system fonts) a cache
directory, or it prints `Fontconfig error: No writable cache directories` into the build
output. Both go to a new temporary directory unless the user has set them.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (files only, no window)."""
    scratch = tempfile.mkdtemp(prefix="tinypte-mpl-")
    os.environ.setdefault("MPLCONFIGDIR", scratch)
    os.environ.setdefault("XDG_CACHE_HOME", scratch)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt

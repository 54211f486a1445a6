"""Entry point of //python:tinypte, the AOT toolkit binary that Bazel actions run.

usage: tinypte SUBCOMMAND [ARGS...]   (the same as `python -m tinypte.SUBCOMMAND ARGS...`)
"""

from __future__ import annotations

import importlib
import sys

SUBCOMMANDS = ("app_data", "export", "inspect_pte", "golden", "header", "kernels", "report", "size", "uf2")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in SUBCOMMANDS:
        print(f"usage: tinypte {{{','.join(SUBCOMMANDS)}}} [ARGS...]", file=sys.stderr)
        return 2
    module = importlib.import_module(f"tinypte.{argv[0]}")
    result: int = module.main(argv[1:])
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The ``bufferlog`` command line: ``bufferlog <command> [FILE|-] [-o OUT]``.

Each command lives in a module of ``bufferlog/commands/`` exposing ``register(sub)``,
which adds an argparse sub-parser whose ``func(args) -> int`` runs it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys

from bufferlog import __version__, commands
from bufferlog.core import UserError


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="bufferlog",
        description="MLIR bufferization as declarative rules (Datalog + Z3).",
    )
    ap.add_argument("--version", action="version", version=f"bufferlog {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for m in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{m.name}").register(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as e:
        print(str(e), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bufferlog bug: say so plainly; BUFFERLOG_DEBUG=1 shows where
        if os.environ.get("BUFFERLOG_DEBUG"):
            raise
        where = getattr(args, "file", None)
        print(f"{where + ': ' if isinstance(where, str) else ''}internal error: "
              f"{type(e).__name__}: {e} (rerun with BUFFERLOG_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

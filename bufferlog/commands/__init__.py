"""CLI commands, one module each; every module defines ``register(subparsers)``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bufferlog.core import UserError


def add_io(p: argparse.ArgumentParser, out_help: str = "output file (default: stdout)") -> None:
    """The common ``FILE|-`` input and ``-o OUT`` output arguments."""
    p.add_argument("file", metavar="FILE", help="input .mlir file, or - for stdin")
    p.add_argument("-o", "--output", metavar="OUT", default="-", help=out_help)


def read_input(path: str) -> tuple[str, str]:
    """Return (display name, text) of FILE or stdin."""
    if path == "-":
        return "-", sys.stdin.read()
    p = Path(path)
    try:
        return path, p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UserError(f"is a directory: {path}") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None


def write_output(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(path).write_text(text, encoding="utf-8")

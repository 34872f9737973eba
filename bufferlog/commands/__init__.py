"""CLI commands, one module each; every module defines ``register(subparsers)``.

Shared here: the ``FILE|-`` / ``-o OUT`` arguments, reading input (``<stdin>`` for ``-``,
encoding errors at their line:col), writing output (an unwritable ``-o`` is a user
error), and ``--split-input-file`` (each ``// -----`` chunk processed on its own; a bad
chunk reports its error and the others still run, as in mlir-opt)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from bufferlog.core import UserError
from bufferlog.core.source import STDIN, decode, join_outputs, render, split_input

#: The commands, as ``bufferlog --help`` lists them: each is the module of that name here,
#: and its one-line help. ``bufferlog.cli`` builds only the sub-parser of the command being
#: run.
COMMANDS: dict[str, str] = {
    "analyze": "in-place analysis (annotated tensor IR, mlir-opt style)",
    "batch": "analyse many files in parallel and write a JSON/CSV/HTML report",
    "bufferize": "tensor IR -> memref IR (in-place analysis + dealloc)",
    "datalog": "run or explain a Datalog program on facts",
    "dealloc": "insert deallocations into memref IR (ownership-based)",
    "explain": "explain the in-place decision of an op's operands",
    "facts": "export input facts (one <rel>.facts TSV per schema relation)",
    "print": "parse an MLIR file and print it back",
    "rules": "check or list Datalog rules (shipped + --rules DIR)",
    "serve": "keep bufferlog loaded: later commands are answered by this server",
}

#: Texts read by this process, by display name: diagnostics show their lines.
SOURCES: dict[str, str] = {}


def add_common(p: argparse.ArgumentParser) -> None:
    """Options every command that reads one file takes."""
    p.add_argument("--timing", action="store_true",
                   help="print a phase breakdown (parse, analysis, bufferize, dealloc) on stderr")


def add_io(p: argparse.ArgumentParser, out_help: str = "output file (default: stdout)",
           split: bool = True) -> None:
    """The common ``FILE|-`` input and ``-o OUT`` output arguments."""
    p.add_argument("file", metavar="FILE", help="input .mlir file, or - for stdin")
    p.add_argument("-o", "--output", metavar="OUT", default="-", help=out_help)
    if split:
        p.add_argument("--split-input-file", action="store_true",
                       help="process each '// -----' chunk on its own (as mlir-opt)")
    p.add_argument("--mlir-print-debuginfo", action="store_true",
                   help="end every printed op with its location: the input op it came from, "
                        "named by its cause for the allocs, copies and frees bufferlog adds")
    add_common(p)


def add_engine(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("auto", "souffle", "embedded"), default="auto",
                   help="Datalog engine (auto: souffle when installed)")


def add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="DIR",
                   help="rule files adding to or replacing the shipped ones (e.g. your ops)")


def read_input(path: str) -> tuple[str, str]:
    """Return (display name, text) of FILE or stdin (``<stdin>``)."""
    if path == "-":
        name, data = STDIN, sys.stdin.buffer.read()
    else:
        name = path
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise UserError(f"no such file: {path}") from None
        except IsADirectoryError:
            raise UserError(f"is a directory: {path}") from None
        except OSError as e:
            raise UserError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = decode(data, name)
    except UserError:
        SOURCES[name] = data.decode("utf-8", "replace")  # the caret line of the bad byte
        raise
    SOURCES[name] = text
    return name, text


def write_output(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"cannot write output file {path}: {e.strerror or e}") from None


def report(err: UserError) -> None:
    """Print a user error as mlir-opt does: location, message, source line, caret."""
    sys.stderr.write(render(err, SOURCES) + "\n")  # (``print`` here is the print command)


def run_on_input(args: argparse.Namespace, work: Callable[[str, str], str]) -> int:
    """Read FILE, run ``work(text, name) -> output text`` on it (on each chunk with
    ``--split-input-file``), write the output. Returns the exit code."""
    name, text = read_input(args.file)
    if not getattr(args, "split_input_file", False):
        write_output(args.output, work(text, name))
        return 0
    import gc

    outputs: list[str | None] = []
    for chunk in split_input(text):
        try:
            outputs.append(work(chunk.text, name))
        except UserError as e:
            report(e)
            outputs.append(None)
        gc.collect()  # the chunk's IR is cyclic garbage now (bufferlog.cli.main: collector off)
    write_output(args.output, join_outputs(outputs))
    return 1 if None in outputs else 0


def add_check_output(p) -> None:
    """``--no-check-output``: skip the certificate of the output."""
    p.add_argument("--no-check-output", dest="check_output", action="store_false",
                   help="do not run the certificate of the output (the rules that check the memref program written: docs/analysis.md)")

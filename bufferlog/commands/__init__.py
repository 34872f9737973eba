"""CLI commands, one module each; every module defines ``register(subparsers)``.

Shared here: the ``[FILE|-]`` / ``-o OUT`` arguments (stdin when no file is given, as
mlir-opt), reading input (``<stdin>`` for ``-``, encoding errors at their line:col, MLIR
bytecode refused), writing output (parent folders made; an unwritable ``-o`` is a user
error), ``--split-input-file[=MARKER]`` (each chunk processed on its own; a bad chunk
reports its error and the others still run, as in mlir-opt) and ``--verify-diagnostics``
(bufferlog/verify_diagnostics.py)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from bufferlog.core import UserError
from bufferlog.core.source import (
    SPLIT_MARKER,
    STDIN,
    Chunk,
    decode,
    join_outputs,
    render,
    split_input,
)

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
    "opt": "run mlir-opt's bufferization passes, given in its syntax (also: bufferlog-opt)",
    "print": "parse an MLIR file and print it back",
    "rules": "check or list Datalog rules (shipped + --rules DIR)",
    "serve": "keep bufferlog loaded: later commands are answered by this server",
}

#: Texts read by this process, by display name: diagnostics show their lines.
SOURCES: dict[str, str] = {}


def add_common(p: argparse.ArgumentParser) -> None:
    """Options every command that reads one file takes."""
    p.add_argument("--timing", "--mlir-timing", dest="timing", action="store_true",
                   help="print a phase breakdown (parse, analysis, bufferize, dealloc) on stderr")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accepted for mlir-opt's command lines: bufferlog always parses ops "
                        "of dialects it does not know (in the generic form)")


def add_file(p: argparse.ArgumentParser) -> None:
    """The ``[FILE|-]`` input (stdin when absent, as mlir-opt) and the options of reading
    it: ``--split-input-file[=MARKER]``, ``--verify-diagnostics[=all|only-expected]``."""
    p.add_argument("file", metavar="FILE", nargs="?", default="-",
                   help="input .mlir file, or - for stdin (the default)")
    add_split(p)
    p.add_argument("--verify-diagnostics", nargs="?", const="all", default=None,
                   choices=("all", "only-expected"), metavar="=all|only-expected",
                   help="check the errors against the input's expected-error comments "
                        "(expected-error@below {{...}}, as mlir-opt); exit 1 on a mismatch")
    add_common(p)


def add_split(p: argparse.ArgumentParser) -> None:
    p.add_argument("--split-input-file", nargs="?", const=SPLIT_MARKER, default=None,
                   metavar="=MARKER",
                   help="process each chunk between '// -----' lines (or =MARKER) on its "
                        "own, as mlir-opt")


def add_io(p: argparse.ArgumentParser, out_help: str = "output file (default: stdout)",
           printer: bool = True) -> None:
    """The common ``[FILE|-]`` input and ``-o OUT`` output arguments; ``printer``: the
    command prints IR (``--mlir-print-debuginfo``, ``--mlir-print-op-generic``)."""
    add_file(p)
    p.add_argument("-o", "--output", metavar="OUT", default="-", help=out_help)
    if printer:
        p.add_argument("--mlir-print-debuginfo", action="store_true",
                       help="end every printed op with its location: the input op it came "
                            "from, named by its cause for the allocs, copies and frees "
                            "bufferlog adds")
        p.add_argument("--mlir-print-op-generic", dest="generic", action="store_true",
                       help="print every op in the generic form")


def add_engine(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("auto", "souffle", "embedded"), default="auto",
                   help="Datalog engine (auto: souffle when installed)")


def add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="DIR",
                   help="rule files adding to or replacing the shipped ones (e.g. your ops)")


def read_input(path: str) -> tuple[str, str]:
    """Return (display name, text) of FILE or stdin (``<stdin>``)."""
    if path == "-":
        name = STDIN
        try:
            data = sys.stdin.buffer.read()
        except (OSError, ValueError) as e:
            raise UserError(f"cannot read the input from stdin: {e}") from None
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
    """``text`` to stdout (``-``) or to the file ``path``, its folders made as needed."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"cannot write output file {path}: {e.strerror or e}") from None


def report(err: UserError) -> None:
    """Print a user error as mlir-opt does: location, message, source line, caret."""
    sys.stderr.write(render(err, SOURCES) + "\n")  # (``print`` here is the print command)


def chunks(args: argparse.Namespace, text: str) -> list[Chunk]:
    """The pieces of ``text`` the command runs on: the ``--split-input-file`` chunks, or
    the whole text."""
    marker = getattr(args, "split_input_file", None)
    return split_input(text, marker) if marker else [Chunk(text, 1)]


def run_chunks(args: argparse.Namespace, name: str, text: str,
               work: Callable[[str, str], str],
               select: Callable[[Chunk], bool] | None = None) -> tuple[list[str | None], int]:
    """``work(chunk text, name) -> output`` on each chunk of ``text`` (``select``: only
    those), each in its own try: a chunk's error is reported (or, with
    ``--verify-diagnostics``, checked against its ``expected-*`` comments) and the others
    still run. Returns the outputs (None for a failed chunk) and the exit code."""
    import gc

    level = getattr(args, "verify_diagnostics", None)
    pieces = chunks(args, text)
    if select is not None and len(pieces) > 1:
        pieces = [c for c in pieces if select(c)] or pieces
    outputs: list[str | None] = []
    code = 0
    missing: list[UserError] = []  # expected diagnostics not produced, reported last
    for chunk in pieces:
        verifier = None
        if level:
            from bufferlog.verify_diagnostics import Verifier

            verifier = Verifier(chunk.text, name, level)
        try:
            outputs.append(work(chunk.text, name))
        except UserError as e:
            outputs.append(None)
            if verifier is None:
                if len(pieces) == 1:
                    raise
                report(e)
                code = 1
            else:
                verifier.error(e)
        if verifier is not None:
            problems = verifier.unexpected()
            missing += verifier.not_produced()
            for e in problems:
                report(e)
            code = max(code, 1 if problems else 0)
        if len(pieces) > 1:
            gc.collect()  # the chunk's IR is cyclic garbage now (bufferlog.cli.main: collector off)
    for e in missing:
        report(e)
    return outputs, 1 if missing else code


def run_on_input(args: argparse.Namespace, work: Callable[[str, str], str]) -> int:
    """Read FILE, run ``work(text, name) -> output text`` on it (on each chunk with
    ``--split-input-file``), write the output. Returns the exit code."""
    name, text = read_input(args.file)
    outputs, code = run_chunks(args, name, text, work)
    if len(outputs) == 1 and not getattr(args, "split_input_file", None):
        if outputs[0] is not None:
            write_output(args.output, outputs[0])
        return code
    write_output(args.output, join_outputs(outputs))
    return code


def add_check_output(p) -> None:
    """``--no-check-output``: skip the certificate of the output."""
    p.add_argument("--no-check-output", dest="check_output", action="store_false",
                   help="do not run the certificate of the output (the rules that check the memref program written: docs/analysis.md)")

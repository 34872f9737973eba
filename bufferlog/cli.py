"""The ``bufferlog`` command line: ``bufferlog <command> [FILE|-] [-o OUT]``.

Each command lives in a module of ``bufferlog/commands/`` exposing ``register(sub)``,
which adds an argparse sub-parser whose ``func(args) -> int`` runs it.

Exit codes: 0 success, 1 any user error (bad input, bad usage, unwritable output), 2 a
bufferlog bug (one ``internal error:`` line; ``BUFFERLOG_DEBUG=1`` shows the traceback),
130 interrupted.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import sys

from bufferlog import __version__, commands
from bufferlog.core import InternalError, UserError, timing
from bufferlog.frontend.gcpause import paused as gc_paused


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, sized without ``shutil``: argparse makes a formatter for every
    option added and imports shutil (~3.5 ms) to size it; the width only matters to help."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None):
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it ($COLUMNS, the
    terminal of stdout, else 80)."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class ArgumentParser(argparse.ArgumentParser):
    """Usage errors exit 1 (exit 2 means a bufferlog bug); help sized without shutil; no
    abbreviated options (mlir-opt takes none: ``--split`` is not ``--split-input-file``)."""

    def __init__(self, *args, formatter_class=HelpFormatter, allow_abbrev=False, **kw):
        super().__init__(*args, formatter_class=formatter_class, allow_abbrev=allow_abbrev,
                         **kw)

    def error(self, message: str):
        import re

        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:  # a misspelt command or value: the closest choice
            from difflib import get_close_matches

            near = get_close_matches(m[1], re.findall(r"'([^']*)'", m[2]), n=1)
            if near:
                message += f"; did you mean '{near[0]}'?"
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. When ``argv`` names a command, only that command's
    sub-parser is built (its module imported, its options added): the others would only
    serve ``bufferlog --help`` and an unknown command's error. Otherwise (no command, an
    unknown one, ``argv`` None) every sub-parser is built."""
    ap = ArgumentParser(
        prog="bufferlog",
        description="MLIR bufferization as declarative rules (Datalog + Z3).",
    )
    ap.add_argument("--version", action="version", version=f"bufferlog {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    chosen = next((a for a in argv or () if not a.startswith("-")), None)
    full = chosen not in commands.COMMANDS
    for name in commands.COMMANDS:
        if full or name == chosen:
            importlib.import_module(f"{commands.__name__}.{name}").register(sub)
    return ap


class Spinner:
    """Progress on a terminal for a single-file run: after ``delay`` seconds, the running
    phase and the elapsed time on one stderr line, updated until :meth:`stop` clears it."""

    FRAMES = "|/-\\"

    def __init__(self, timer: timing.Timer, stream, delay: float = 1.0, every: float = 0.1):
        import threading  # only on a terminal

        self.timer, self.stream, self.delay, self.every = timer, stream, delay, every
        self.done = threading.Event()
        self.shown = False
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def start(self) -> Spinner:
        self.thread.start()
        return self

    def _loop(self) -> None:
        if self.done.wait(self.delay):
            return
        n = 0
        while not self.done.is_set():
            what = self.timer.current or "working"
            self.stream.write(f"\r{self.FRAMES[n % 4]} bufferlog: {what} "
                              f"{self.timer.total():.1f} s\x1b[K")
            self.stream.flush()
            self.shown = True
            n += 1
            self.done.wait(self.every)

    def stop(self) -> None:
        self.done.set()
        self.thread.join()
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def main(argv: list[str] | None = None) -> int:
    """Run one command. Python's cyclic garbage collector is off while it runs: a command's
    objects (the IR, facts, relation sets) live until it ends or die by reference counting,
    so the collector's scans find next to nothing, and they cost 15% of a small file's run
    and a third of the 10,000-op chain's. (Peak memory stays the same; ``--split-input-file``
    collects after each chunk, batch workers after each file.)"""
    with gc_paused():
        return _main(sys.argv[1:] if argv is None else argv)


def entry() -> None:
    """The ``bufferlog`` executable (and ``python -m bufferlog``): :func:`main`, then a quick
    exit, as mypy's: output flushed and ``atexit`` handlers run, but the heap not torn
    down object by object (a last collection and the freeing of every object cost ~20 ms
    of a small file's run). Exits through ``SystemExit`` (``--help``, usage errors) are the
    normal ones. The collector stays off to the end: turned on again, it would scan the
    whole heap once at the next allocation (0.3 s after the 5,000-op chain's analysis)
    only for the process to exit."""
    _run_and_exit(None)


def opt_entry() -> None:
    """The ``bufferlog-opt`` executable: ``bufferlog opt`` under mlir-opt's name, for command
    lines written for mlir-opt (``bufferlog-opt f.mlir -one-shot-bufferize=...``)."""
    _run_and_exit(["opt", *sys.argv[1:]])


def _run_and_exit(argv: list[str] | None) -> None:
    """:func:`main`, then leave as :func:`entry` describes."""
    import gc

    gc.disable()
    code = main(argv)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away, as a normal exit would find too
        pass
    atexit._run_exitfuncs()
    os._exit(code)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The parsed command line, mlir-opt's spellings accepted (bufferlog/argv.py). A usage
    error prints the usage of the (sub-)command it concerns, with the closest option to a
    misspelt one, and exits 1."""
    from bufferlog.argv import UsageError, command_parser, normalize, unknown_option

    ap = build_parser(argv)
    try:
        argv = normalize(ap, argv)
    except UsageError as e:
        e.parser.error(e.message)
    args, extra = ap.parse_known_args(argv)
    if extra:
        p, _ = command_parser(ap, argv)
        word = next((w for w in extra if w.startswith("-") and w != "-"), None)
        p.error(unknown_option(p, word).message if word
                else f"unrecognized arguments: {' '.join(extra)}")
    return args


def _main(argv: list[str]) -> int:
    args = parse_args(argv)
    with timing.timed() as timer:
        single_file = isinstance(getattr(args, "file", None), str)
        spinner = Spinner(timer, sys.stderr).start() if single_file and sys.stderr.isatty() else None
        try:
            code = _run(args)
        finally:
            if spinner is not None:
                spinner.stop()
        if getattr(args, "timing", False):
            sys.stderr.write(timer.report())
    return code


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args) or 0)
    except UserError as e:
        commands.report(e)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bufferlog bug: say so plainly; BUFFERLOG_DEBUG=1 shows where
        if os.environ.get("BUFFERLOG_DEBUG"):
            raise
        cause = e.__cause__ if isinstance(e, InternalError) and e.__cause__ else e
        where = getattr(args, "file", None)
        print(f"{where + ': ' if isinstance(where, str) else ''}internal error: "
              f"{type(cause).__name__}: {cause} (rerun with BUFFERLOG_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    entry()

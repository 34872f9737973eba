"""Start-up stays lean: the frontend commands import none of the heavy packages (each
costs tens of milliseconds per process), and a fresh process parses from the cached
tables without building a lark parser."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import CORPUS_FILES

HEAVY = ("z3", "clingo", "dask", "rich", "lark")

PROBE = """
import sys
from bufferlog.cli import main
rc = main(sys.argv[1:])
print("imported:", *(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
sys.exit(rc)
"""


@pytest.mark.parametrize("args", [["print"], ["print", "--generic"], ["facts", "-o", "{tmp}"]],
                         ids=["print", "print-generic", "facts"])
def test_frontend_commands_import_no_heavy_package(args: list[str], tmp_path) -> None:
    f = next(p for p in CORPUS_FILES if p.name == "attention_block.mlir")
    argv = [a.replace("{tmp}", str(tmp_path / "facts")) for a in args]
    r = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), argv[0], str(f),
                        *argv[1:]], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "imported:\n" in r.stderr, r.stderr  # none of HEAVY was imported


#: what a run of the analysis and the backend must not load: the heavy packages, and the
#: standard modules a small file's run paid ~4 ms each for (typing, for annotations only;
#: pickle's Python half, for the rules cache)
NOT_FOR_A_RUN = (*HEAVY, "typing", "pickle")


@pytest.mark.parametrize("command", ["analyze", "bufferize"])
def test_a_run_imports_neither_typing_nor_pickle(command: str) -> None:
    f = next(p for p in CORPUS_FILES if p.name == "mlp.mlir")
    r = subprocess.run([sys.executable, "-c", PROBE.format(heavy=NOT_FOR_A_RUN), command,
                        str(f), "-o", os.devnull], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.endswith("imported:\n"), r.stderr  # none of NOT_FOR_A_RUN was imported


def test_only_the_command_run_is_imported(tmp_path) -> None:
    """The CLI builds the full sub-parser (and imports the module) of the command it runs
    only; the others cost nothing at start-up."""
    f = next(p for p in CORPUS_FILES if p.name == "mlp.mlir")
    probe = ("import sys\nfrom bufferlog.cli import main\nrc = main(sys.argv[1:])\n"
             "print('commands:', *sorted(m for m in sys.modules if m.startswith("
             "'bufferlog.commands.')), file=sys.stderr)\nsys.exit(rc)\n")
    r = subprocess.run([sys.executable, "-c", probe, "print", str(f)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().endswith("commands: bufferlog.commands.print"), r.stderr


def test_command_table_lists_every_command_module() -> None:
    import pkgutil

    from bufferlog import commands

    modules = {m.name for m in pkgutil.iter_modules(commands.__path__)}
    assert modules == set(commands.COMMANDS)


def test_help_shows_every_command_and_a_command_its_options() -> None:
    from bufferlog import commands

    r = subprocess.run([sys.executable, "-m", "bufferlog", "--help"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0
    for name, help_ in commands.COMMANDS.items():
        assert name in r.stdout and help_.split()[0] in r.stdout
    r = subprocess.run([sys.executable, "-m", "bufferlog", "analyze", "--help"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "--strategy" in r.stdout and "--one-shot-bufferize" in r.stdout
    r = subprocess.run([sys.executable, "-m", "bufferlog", "bogus", "x.mlir"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "invalid choice: 'bogus'" in r.stderr and "rules" in r.stderr


def test_souffle_lookup_agrees_with_shutil_which(tmp_path, monkeypatch) -> None:
    import shutil

    from bufferlog.engine.souffle import _which

    exe = tmp_path / "bin" / "tool"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\n")
    (tmp_path / "bin" / "plain").write_text("not executable\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'missing'}:{exe.parent}:/bin:/usr/bin")
    for name in ("tool", "plain", "sh", "no-such-tool-here", str(exe), str(tmp_path / "bin")):
        assert _which(name) == shutil.which(name), name


def test_a_command_runs_without_collector_scans_and_restores_it(tmp_path, monkeypatch) -> None:
    """bufferlog.cli.main turns the cyclic collector off for the command (its scans found
    nothing to free and cost a sixth of a small file's run), and back on after it."""
    import gc

    from bufferlog import cli

    f = next(p for p in CORPUS_FILES if p.name == "mlp.mlir")
    running, seen = [False], []
    real = cli._main

    def command(argv):
        running[0] = True
        try:
            return real(argv)
        finally:
            running[0] = False

    def count(phase: str, info: dict) -> None:
        if phase == "start" and running[0]:
            seen.append(info["generation"])

    monkeypatch.setattr(cli, "_main", command)
    assert gc.isenabled()
    gc.callbacks.append(count)
    try:
        assert cli.main(["bufferize", str(f), "-o", str(tmp_path / "out.mlir")]) == 0
    finally:
        gc.callbacks.remove(count)
    assert seen == []
    assert gc.isenabled()


def test_the_executable_exits_quickly_with_its_output_and_exit_handlers(tmp_path) -> None:
    """``bufferlog`` ends with os._exit after flushing and running the atexit handlers: the
    whole output arrives, the exit code is the command's, and the handlers ran (the regex
    cache is written by one)."""
    f = next(p for p in CORPUS_FILES if p.name == "mlp.mlir")
    env = {"BUFFERLOG_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "bufferlog", "bufferize", str(f)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    from bufferlog import cli

    assert cli.main(["bufferize", str(f), "-o", str(tmp_path / "in_process.mlir")]) == 0
    assert r.stdout == (tmp_path / "in_process.mlir").read_text()  # nothing lost at exit
    assert list((tmp_path / "cache" / "regex").glob("*.marshal"))
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    r = subprocess.run([sys.executable, "-m", "bufferlog", "print", str(bad)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 1 and f"{bad}:1:" in r.stderr


def test_the_executable_never_turns_the_collector_back_on(tmp_path) -> None:
    """``bufferlog`` exits right after its command: a collector turned back on would scan
    the whole heap once more for nothing (0.3 s after the 5,000-op chain's analysis)."""
    f = next(p for p in CORPUS_FILES if p.name == "mlp.mlir")
    code = ("import gc, sys\n"
            "from bufferlog import cli\n"
            "gc.callbacks.append(lambda phase, info: phase == 'start' and "
            "sys.stderr.write(f'collection {info[\"generation\"]}\\n'))\n"
            "sys.argv = ['bufferlog', 'bufferize', sys.argv[1], '-o', sys.argv[2]]\n"
            "cli.entry()\n")
    r = subprocess.run([sys.executable, "-c", code, str(f), str(tmp_path / "out.mlir")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "collection" not in r.stderr
    assert "memref.alloc" in (tmp_path / "out.mlir").read_text()

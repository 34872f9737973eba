"""The Soufflé engine: a subprocess on a program rendered from our AST.

The loaded program (includes and ``--rules`` overlay already resolved) is printed back as
one Soufflé file, so both engines see exactly the same clauses in the same order and
Soufflé's preprocessor is not involved.  Facts go in as ``<rel>.facts`` TSV files
(``-F``), results come back from ``<rel>.csv`` (``-D``).

Modes: interpreted (``souffle -F -D prog.dl``) or compiled (``souffle -o bin prog.dl``,
the binary cached under ``$XDG_CACHE_HOME/bufferlog/souffle/<hash>`` where the hash covers
the rendered program, the flags and ``souffle --version``).  ``-j N`` sets threads.
Provenance uses ``-t explain`` driven through stdin (DESIGN.md §4).

The executable is ``$BUFFERLOG_SOUFFLE`` if set, else ``souffle`` on ``PATH``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from .dl_parse import format_tuple
from .embedded import EngineError
from .facts_io import Facts, Tuple, read_table, write_facts_dir
from .program import Program


def find() -> str | None:
    """Path of the souffle executable, or None."""
    env = os.environ.get("BUFFERLOG_SOUFFLE")
    if env:
        return env if Path(env).is_file() else _which(env)
    return _which("souffle")


def _which(name: str) -> str | None:
    """The executable ``name`` on PATH, as ``shutil.which`` finds it (every engine="auto"
    run asks; importing shutil would cost each process ~2.5 ms)."""
    if os.sep in name:
        return name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(d or os.curdir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _exe() -> str:
    exe = find()
    if exe is None:
        raise EngineError("souffle engine: no `souffle` on PATH and BUFFERLOG_SOUFFLE unset "
                          "(use --engine embedded)")
    return exe


# subprocess, tempfile, hashlib, json and signal are imported where used: every start-up
# resolves the engine through find(), and only Soufflé runs need them (~5 ms of imports)


def version(exe: str) -> str:
    import subprocess

    try:
        p = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise EngineError(f"souffle engine: cannot run {exe} --version: {e}") from None
    return (p.stdout or p.stderr).strip()


def render(prog: Program, outputs: Iterable[str]) -> tuple[str, dict[int, str]]:
    """Soufflé text of ``prog`` with ``.output`` for ``outputs``; and line -> rule origin."""
    lines: list[str] = []
    origin: dict[int, str] = {}
    for td in prog.types.values():
        lines.append(f".type {td.name} <: {td.base}" if td.base == "symbol"
                     else f".type {td.name} = {td.base}")
    for d in prog.decls.values():
        lines.append(f".decl {d.name}({', '.join(f'{a}: {t}' for a, t in d.attrs)})")
    for rel in prog.inputs:
        lines.append(f".input {rel}")
    for rel in outputs:
        lines.append(f".output {rel}")
    for r in prog.rules:
        body = ", ".join(map(str, r.body))
        lines.append(f"{r.head} :- {body}." if body else f"{r.head}.")
        origin[len(lines)] = f"{r.loc} ({r.text})"
    return "\n".join(lines) + "\n", origin


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bufferlog" / "souffle"


def _compiled(exe: str, text: str, flags: list[str], timeout: float | None) -> Path:
    import hashlib

    key = hashlib.sha256("\0".join([text, *flags, version(exe)]).encode()).hexdigest()[:24]
    d = _cache_dir() / key
    binary = d / "prog"
    if binary.is_file():
        return binary
    d.mkdir(parents=True, exist_ok=True)
    src = d / "prog.dl"
    src.write_text(text, encoding="utf-8")
    tmp = d / f"prog.{os.getpid()}.tmp"
    _call([exe, *flags, "-o", str(tmp), str(src)], "compiling", None, max(timeout or 0, 600))
    tmp.replace(binary)
    return binary


def _call(cmd: list[str], what: str, origin: dict[int, str] | None, timeout: float | None,
          stdin: str | None = None) -> str:
    import signal
    import subprocess

    try:
        # a new session, so a timeout kills souffle's children (compilers) too
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as e:
        raise EngineError(f"souffle engine: cannot run {cmd[0]}: {e}") from None
    try:
        stdout, stderr = p.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise EngineError(f"souffle engine timed out after {timeout:g} s {what}") from None
    if p.returncode != 0:
        err = stderr.strip()[-2000:]
        where = ""
        m = re.search(r"line (\d+)", err)
        if origin and m and int(m.group(1)) in origin:
            where = f" in the rule at {origin[int(m.group(1))]}"
        raise EngineError(f"souffle engine failed {what} (exit {p.returncode}){where}: {err}")
    return stdout


def run(prog: Program, facts: Facts, relations: Iterable[str], timeout: float | None = None,
        jobs: int = 1, compiled: bool = False, name: str = "program") -> dict[str, set[Tuple]]:
    """Evaluate with Soufflé; return the tuples of ``relations``."""
    import tempfile

    exe = _exe()
    relations = list(relations)
    text, origin = render(prog, relations)
    with tempfile.TemporaryDirectory(prefix="bufferlog-souffle-") as tmp:
        t = Path(tmp)
        fdir, odir = t / "facts", t / "out"
        odir.mkdir()
        write_facts_dir(facts, fdir)
        src = t / "prog.dl"
        src.write_text(text, encoding="utf-8")
        io = ["-F", str(fdir), "-D", str(odir), "-j", str(jobs)]
        if compiled:
            binary = _compiled(exe, text, [], timeout)
            _call([str(binary), *io], f"running {name} (compiled)", origin, timeout)
        else:
            _call([exe, *io, str(src)], f"evaluating {name}", origin, timeout)
        out: dict[str, set[Tuple]] = {}
        for rel in relations:
            f = odir / f"{rel}.csv"
            if not f.is_file():
                raise EngineError(f"souffle engine wrote no output for relation '{rel}'")
            out[rel] = set(read_table(f, rel, prog.column_types(rel)))
        return out


def explain_json(prog: Program, facts: Facts, rel: str, values: Tuple, depth: int,
                 timeout: float | None = None) -> dict | None:
    """Soufflé's own JSON proof of a tuple (``-t explain``), or None if not derived."""
    exe = _exe()
    # in provenance mode Soufflé keeps only the relations a program outputs: without
    # `.output` every query answers "Relation not found"
    import json
    import tempfile

    text, origin = render(prog, list(prog.decls))
    query = format_tuple(rel, values)
    script = f"format json\nsetdepth {depth}\nexplain {query}\nexit\n"
    with tempfile.TemporaryDirectory(prefix="bufferlog-souffle-") as tmp:
        t = Path(tmp)
        write_facts_dir(facts, t / "facts")
        (t / "out").mkdir()
        src = t / "prog.dl"
        src.write_text(text, encoding="utf-8")
        stdout = _call([exe, "-t", "explain", "-F", str(t / "facts"), "-D", str(t / "out"),
                        str(src)], f"explaining {query}", origin, timeout, stdin=script)
    if "Tuple not found" in stdout:
        return None
    if "Relation not found" in stdout:
        raise EngineError(f"souffle engine: no relation {rel} in the explained program")
    start = stdout.find("{")
    if start < 0:
        raise EngineError(f"souffle engine: no proof in the explain output for {query}: "
                          f"{stdout.strip()[:500]}")
    try:
        obj, _ = json.JSONDecoder().raw_decode(stdout[start:])
    except json.JSONDecodeError as e:
        raise EngineError(f"souffle engine: unreadable explain output for {query}: {e}") from None
    return obj

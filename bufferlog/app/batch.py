"""``bufferlog batch``: run the analysis over a corpus of ``.mlir`` files.

Pieces (each usable on its own):

* :func:`discover` — files, directories (recursive ``*.mlir``) and glob patterns to a
  de-duplicated, ordered list of files.
* :func:`analyze_file` — THE per-file work: ``analyze_file(path, options) -> row``. It
  calls the product APIs (parser, analysis, then bufferize + dealloc, whose output
  ``backend/quality.py count_figures`` counts) and never raises: a bad file becomes a row
  with ``status`` and ``error`` / ``error_loc``; a file the backend cannot bufferize keeps
  its analysis figures with status ``partial`` and ``bufferize_error``.
* :data:`COLUMNS` — the row schema, one :class:`Column` per key with its meaning. A
  figure the current build cannot compute is ``None`` (null in JSON, empty in CSV);
  figures are never estimated.
* :class:`ResultCache` — rows keyed by file hash + rules hash + options + version.
* Executors — :class:`LocalExecutor` (a pool of worker processes; a file over its
  ``timeout`` kills only its own worker, which is replaced) and :class:`DaskExecutor`
  (``distributed.Client``; the file's bytes travel with the task).
* :func:`run_batch` — discovery results + options -> :class:`BatchResult`, with progress
  and a partial result on Ctrl-C.
"""

from __future__ import annotations

import fnmatch
import gc
import glob
import hashlib
import json
import multiprocessing as mp
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait as mp_wait
from pathlib import Path
from typing import Any

from bufferlog import __version__
from bufferlog.api import OutputFigures
from bufferlog.core import InternalError, UserError, rules_dir
from bufferlog.core.errors import BufferizeError, DeallocError
from bufferlog.core.records import asdict, field, record, replace, value_class
from bufferlog.core.source import decode
from bufferlog.frontend.gcpause import paused

# ---------------------------------------------------------------------------------
# Row schema
# ---------------------------------------------------------------------------------


@value_class
class Column:
    name: str
    type: str  # "str" | "int" | "float" | "bool" | "dict" | "list"
    doc: str


STATUSES = {
    "ok": "analysed and bufferized (tensor inputs) or deallocated (memref inputs)",
    "partial": "analysed, but the backend (bufferize + dealloc) failed: analysis figures "
               "only, see bufferize_error/bufferize_error_loc",
    "empty": "no operations (empty or whitespace/comment-only file); figures are 0 or null",
    "error": "the input was rejected (syntax, unknown op, not UTF-8, ...): see error/error_loc",
    "internal_error": "bufferlog itself failed on this file (a bug): see error",
    "timeout": "the file exceeded --timeout; its worker was killed",
    "crash": "the worker process died (signal or exit) while on this file",
    "out-of-memory": "the file's worker went over --max-memory and was killed (or Python "
                     "ran out of memory)",
    "not_run": "the batch was interrupted before this file was done",
}

COLUMNS: list[Column] = [
    Column("file", "str", "path of the input file as discovered"),
    Column("status", "str", "one of: " + ", ".join(STATUSES)),
    Column("error", "str", "error message (status != ok)"),
    Column("error_loc", "str", "file:line:col of the error; the file itself when the error has no line (unreadable, timeout, crash, internal error)"),
    Column("ops", "int", "operations as written in the file (not the top-level builtin.module, nor the implicit payload bodies of named linalg ops)"),
    Column("tensor_operands", "int", "operand uses whose value has a tensor type"),
    Column("written_operands", "int", "tensor operands the op writes (rules/ops.dl `writes`)"),
    Column("inplace_operands", "int", "tensor operands the analysis bufferizes in place"),
    Column("inplace_pct", "float", "100 * in-place / decided tensor operands"),
    Column("out_of_place_operands", "int", "tensor operands the analysis puts out of place: each gets a new buffer, plus a copy only if its op reads the old contents (so copies can be fewer); null for memref inputs"),
    Column("out_of_place_bytes", "int", "static bytes of those new buffers (null if any has a dynamic shape)"),
    Column("copies", "int", "memref.copy + linalg.copy in the output of bufferize + dealloc (tensor inputs) or dealloc (memref inputs); null if that failed"),
    Column("bytes_copied", "int", "static bytes of those copies (null if any has a dynamic shape)"),
    Column("allocs", "int", "memref.alloc / memref.realloc of data buffers in that output"),
    Column("deallocs", "int", "memref.dealloc (data buffers) + bufferization.dealloc ops in that output"),
    Column("dealloc_checks", "int", "runtime dealloc checks: guarded_deallocs + dealloc_helper_calls + bufferization.dealloc ops"),
    Column("clones", "int", "bufferization.clone ops in that output"),
    Column("guarded_deallocs", "int", "memref.dealloc directly inside an scf.if (freed on a runtime condition)"),
    Column("dealloc_helper_calls", "int", "calls to @dealloc_helper* (runtime alias checks of lowered bufferization.dealloc)"),
    Column("copies_by_cause", "list", "the copies grouped by cause: kind (raw, not_writable, parallel, strategy; without an out-of-place operand: loop = a value passed to a loop's next iteration outside the iteration's own buffer, layout = a change of memref layout, op = the op's own rewrite), writer and reader op, count and static bytes"),
    Column("bufferize_error", "str", "why the backend failed on this file (status partial)"),
    Column("bufferize_error_loc", "str", "file:line:col of the backend error, when known"),
    Column("conflicts", "int", "conflicts behind out-of-place decisions (one per such operand)"),
    Column("conflicts_by_kind", "dict", "conflicts per kind, e.g. {\"raw\": 2, \"not_writable\": 1}"),
    Column("analysis_s", "float", "wall seconds spent in analyze_file for this file"),
    Column("engine", "str", "Datalog engine that ran (souffle / embedded); null if none ran"),
    Column("cached", "bool", "the row came from the result cache"),
]

COMPARE_COLUMNS: list[Column] = [
    Column("mlir_opt_status", "str", "ok / error / timeout / missing for the mlir-opt runs"),
    Column("mlir_opt_error", "str", "first line of mlir-opt's error output"),
    Column("mlir_opt_inplace_pct", "float", "in-place % from mlir-opt's __inplace_operands_attr__"),
    Column("mlir_opt_conflicts", "int", "conflict definitions (C_n[DEF]) mlir-opt printed"),
    Column("mlir_opt_copies", "int", "copies in mlir-opt's bufferize + --buffer-deallocation-pipeline output (counted like copies)"),
    Column("mlir_opt_bytes_copied", "int", "static bytes of those copies (null if any is dynamic)"),
    Column("mlir_opt_allocs", "int", "allocs of data buffers in mlir-opt's output"),
    Column("mlir_opt_deallocs", "int", "deallocs in mlir-opt's output"),
    Column("mlir_opt_dealloc_checks", "int", "runtime dealloc checks in mlir-opt's output"),
    Column("mlir_opt_clones", "int", "bufferization.clone ops in mlir-opt's output"),
    Column("mlir_opt_guarded_deallocs", "int", "memref.dealloc directly inside an scf.if in mlir-opt's output"),
    Column("mlir_opt_dealloc_helper_calls", "int", "calls to @dealloc_helper* in mlir-opt's output"),
    Column("mlir_opt_s", "float", "wall seconds of the mlir-opt runs"),
]

COLUMN_NAMES = [c.name for c in COLUMNS]

# The backend figures of a row (bufferlog.api.OutputFigures); with --compare each has an
# mlir_opt_<name> twin counted the same way on mlir-opt's output.
BACKEND_FIGURES = list(OutputFigures._fields)

# Bumped whenever the meaning of a row changes, so cached rows of an older schema miss.
ROW_SCHEMA = 4


def empty_row(path: str, compare: bool = False) -> dict[str, Any]:
    row: dict[str, Any] = {c.name: None for c in COLUMNS}
    if compare:
        row.update({c.name: None for c in COMPARE_COLUMNS})
    row["file"] = path
    row["cached"] = False
    return row


def columns_for(rows: Iterable[dict]) -> list[Column]:
    rows = list(rows)
    if any("mlir_opt_status" in r for r in rows):
        return COLUMNS + COMPARE_COLUMNS
    return list(COLUMNS)


# ---------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------


@record
class BatchOptions:
    """What changes a row's figures (all part of the cache key, except ``timeout``)."""

    engine: str = "auto"
    rules_dir: str | None = None
    strategy: str = "oneshot"
    compare: str | None = None  # "mlir-opt"
    mlir_opt: str = "mlir-opt-22"
    timeout: float | None = None
    max_memory: int | None = None  # bytes of resident memory per worker (local executor)
    explain: bool = True
    check_output: bool = True  # the certificate of the output
    # One-Shot options in mlir-opt's syntax (bufferlog's analysis and the mlir-opt runs of
    # --compare both take them), the memory planning stages (backend.plan.PlanOptions
    # fields; None: the default stages), the layout of function boundaries
    oneshot: str = ""
    # whether ``oneshot`` holds a --one-shot-bufferize string (read from mlir-opt's
    # defaults, as the other commands read it) or only flags (on bufferlog's defaults)
    oneshot_mlir_opt: bool = False
    plan: dict | None = None
    layout: str | None = None
    # keep the texts a file's report page shows: bufferlog's output (and mlir-opt's)
    pages: bool = False
    # --split-input-file: the marker; each chunk of a file is a row of its own, named
    # FILE:LINE (the line where the chunk starts; see split_chunks)
    split_input_file: str | None = None
    # Test-only fault injection: {"pattern": glob on the file name, "seconds": s, "mark":
    # a file created when the sleep starts, or None} /
    # {"pattern": ..., "mib": n} (hold n MiB of memory for 3 s).
    debug_sleep: dict | None = None
    debug_alloc: dict | None = None

    def key_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d.pop("timeout")
        d.pop("max_memory")
        d.pop("debug_sleep")
        d.pop("debug_alloc")
        d["rules_dir"] = str(Path(self.rules_dir).resolve()) if self.rules_dir else None
        return d

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BatchOptions:
        return cls(**d)


# ---------------------------------------------------------------------------------
# Discovery
# ---------------------------------------------------------------------------------

_GLOB_CHARS = re.compile(r"[*?\[]")


def discover(paths: Iterable[str]) -> list[str]:
    """Expand files, directories (recursively, ``*.mlir``) and glob patterns (``**``
    recursive). Order: as given, directory contents sorted; duplicates dropped."""
    out: list[str] = []
    seen: set[str] = set()

    def add(p: Path) -> None:
        key = str(p.resolve())
        if key not in seen:
            seen.add(key)
            out.append(str(p))

    def add_dir(d: Path) -> None:
        for f in sorted(d.rglob("*.mlir")):
            if f.is_file():
                add(f)

    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            add_dir(p)
        elif p.is_file():
            add(p)
        elif _GLOB_CHARS.search(arg):
            hits = sorted(glob.glob(arg, recursive=True))
            if not hits:
                raise UserError(f"no files match: {arg}")
            for h in hits:
                hp = Path(h)
                if hp.is_dir():
                    add_dir(hp)
                elif hp.is_file():
                    add(hp)
        else:
            raise UserError(f"no such file or directory: {arg}")
    return out


def split_chunks(files: list[str], marker: str) -> list[str]:
    """``--split-input-file``: each file with more than one chunk becomes one entry per
    chunk, ``FILE:LINE`` (the line where the chunk starts, as mlir-opt's "within split at
    FILE:LINE"); a file with one chunk, or unreadable, stays as it is."""
    from bufferlog.core.source import split_input

    out = []
    for f in files:
        try:
            text = Path(f).read_bytes().decode("utf-8", "replace")
        except OSError:
            out.append(f)
            continue
        pieces = split_input(text, marker)
        out += [f] if len(pieces) == 1 else [f"{f}:{c.first_line}" for c in pieces]
    return out


def _chunk_of(name: str, options: BatchOptions) -> tuple[str, int | None]:
    """(file, first line of the chunk) of an entry of :func:`split_chunks`."""
    if options.split_input_file:
        m = re.fullmatch(r"(.*):(\d+)", name)
        if m and not Path(name).exists() and Path(m[1]).is_file():
            return m[1], int(m[2])
    return name, None


# ---------------------------------------------------------------------------------
# Cache
# ---------------------------------------------------------------------------------


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bufferlog"


def rules_hash(overlay: str | None = None) -> str:
    """Hash of every shipped ``rules/*.dl`` plus the ``--rules`` overlay's ``*.dl``."""
    h = hashlib.sha256()
    for label, d in (("shipped", rules_dir()), ("overlay", overlay)):
        if not d or not Path(d).is_dir():
            continue
        for f in sorted(Path(d).rglob("*.dl")):
            h.update(f"{label}/{f.relative_to(d)}\0".encode())
            h.update(f.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def cache_key(data: bytes, rules_h: str, options: BatchOptions) -> str:
    h = hashlib.sha256()
    h.update(hashlib.sha256(data).digest())
    h.update(rules_h.encode())
    h.update(json.dumps(options.key_dict(), sort_keys=True).encode())
    h.update(f"{__version__}/rows{ROW_SCHEMA}".encode())
    return h.hexdigest()


FILE_MARK = "\x00file\x00"  # a cached row's own file name (rows are keyed by content)


def _name_out(obj: Any, name: str) -> Any:
    """``obj`` (a row) with every mention of ``name`` replaced by :data:`FILE_MARK`: the
    cache keys a row by the file's content, so a byte-identical file elsewhere reuses it
    and must not inherit this file's name in its locations and explanations."""
    if not name:
        return obj
    pat = re.compile(r"(?<![\w./-])" + re.escape(name) + r"(?![\w./-])")

    def out(x: Any) -> Any:
        if isinstance(x, str):
            return pat.sub(FILE_MARK, x) if name in x else x
        if isinstance(x, dict):
            return {k: out(v) for k, v in x.items()}
        if isinstance(x, list):
            return [out(v) for v in x]
        return x

    return out(obj)


def _name_in(obj: Any, name: str) -> Any:
    """A cached row rendered for the file ``name`` (the inverse of :func:`_name_out`)."""
    if isinstance(obj, str):
        return obj.replace(FILE_MARK, name)
    if isinstance(obj, dict):
        return {k: _name_in(v, name) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_name_in(v, name) for v in obj]
    return obj


class ResultCache:
    """One JSON file per row under ``<dir>/results/<k[:2]>/<k>.json`` (atomic writes). The
    key is the file's content (with the rules, options and version): a row is stored with
    its file's name taken out and rendered with the name of the file that hits it."""

    CACHEABLE = {"ok", "partial", "empty", "error"}  # deterministic outcomes only

    def __init__(self, directory: str | Path):
        self.dir = Path(directory) / "results"

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            return json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, row: dict) -> None:
        if row.get("status") not in self.CACHEABLE:
            return
        p = self._path(key)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tmp = p.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(row), encoding="utf-8")
            os.replace(tmp, p)
        except OSError:
            pass  # a cache that cannot be written is just a slower batch


# ---------------------------------------------------------------------------------
# The per-file work
# ---------------------------------------------------------------------------------


_COMMENT_ONLY = re.compile(r"\A(\s|//[^\n]*)*\Z")


def analyze_file(path: str, options: BatchOptions | dict | None = None,
                 data: bytes | None = None) -> dict[str, Any]:
    """Analyse one file and return its row (see :data:`COLUMNS`). Never raises for a
    bad input: the row's ``status`` says what happened. ``data`` (the file's bytes) may
    be given when the file is not readable where this runs (Dask workers)."""
    if isinstance(options, dict):
        options = BatchOptions.from_dict(options)
    options = options or BatchOptions()
    t0 = time.perf_counter()
    row = empty_row(path, compare=options.compare == "mlir-opt")
    path, chunk = _chunk_of(path, options)  # a chunk's row keeps its FILE:LINE name
    text = None
    try:
        if data is None:
            data = Path(path).read_bytes()
        if options.debug_sleep and fnmatch.fnmatch(Path(path).name, options.debug_sleep["pattern"]):
            if options.debug_sleep.get("mark"):
                Path(options.debug_sleep["mark"]).touch()
            time.sleep(float(options.debug_sleep["seconds"]))
        if options.debug_alloc and fnmatch.fnmatch(Path(path).name, options.debug_alloc["pattern"]):
            ballast = bytearray(int(options.debug_alloc["mib"]) << 20)
            ballast[::4096] = b"\1" * len(range(0, len(ballast), 4096))  # make it resident
            time.sleep(3)
            del ballast
        text = decode(data, path)
        if chunk is not None:
            from bufferlog.core.source import split_input

            text = next(c.text for c in split_input(text, options.split_input_file)
                        if c.first_line == chunk)
        if _COMMENT_ONLY.match(text):
            row.update(status="empty", ops=0, tensor_operands=0)
        else:
            _analyze_text(path, text, options, row)
            row["status"] = "partial" if row.get("bufferize_error") else "ok"
    except UserError as e:
        row.update(status="error", error=e.message, error_loc=str(e.loc) if e.loc else path)
    except OSError as e:
        row.update(status="error", error=f"cannot read: {e.strerror or e}", error_loc=path)
    except MemoryError:
        row.update(status="out-of-memory", error="out of memory", error_loc=path)
    except Exception as e:  # a bug in bufferlog (InternalError, RecursionError, ...): keep going
        cause = e.__cause__ if isinstance(e, InternalError) and e.__cause__ else e
        row.update(status="internal_error", error=f"{type(cause).__name__}: {cause}",
                   error_loc=path)
    row["analysis_s"] = round(time.perf_counter() - t0, 6)
    if options.compare == "mlir-opt" and text is not None:
        row.update(mlir_opt_figures(text, options.mlir_opt, oneshot=options.oneshot,
                                    pages=options.pages))
    return row


def _analyze_text(path: str, text: str, options: BatchOptions, row: dict) -> None:
    """Fill ``row`` through the Python API: the analysis figures, then the backend's
    (``bufferize`` + dealloc of a tensor input, reusing the analysis, or ``deallocate``
    of a memref input) and the explanation of every copy in its output. A backend that
    rejects the file leaves its figures null and sets ``bufferize_error`` (the row's
    status becomes ``partial``); a bug there is an internal error of the whole row."""
    from bufferlog import api
    from bufferlog.engine.run import resolve_engine
    from bufferlog.frontend import types as T

    if options.engine == "auto":  # once, not in every run of the file's programs
        options = replace(options, engine=resolve_engine(options.engine))
    oneshot, plan, layout = _backend_options(options)
    module = api.parse(text, path)
    has_tensors = any(T.is_tensor(v.type) for op in module.walk() for v in op.results) or \
        any(T.is_tensor(v.type) for op in module.walk() for r in op.regions
            for b in r.blocks for v in b.args)
    if has_tensors and api.split(module, api.SPLIT_OPS):
        return _by_parts(path, text, module, options, row)
    a = api.analyze(module, strategy=options.strategy, engine=options.engine,
                    rules=options.rules_dir, options=oneshot)
    row.update(asdict(a.figures), engine=a.engine)
    if not has_tensors:  # memref IR: the dealloc backend applies directly
        row.update(out_of_place_operands=None, out_of_place_bytes=None)
    try:
        if has_tensors:
            b = api.bufferize(module, analysis=a, engine=options.engine, rules=options.rules_dir,
                              plan=plan, layout=layout, check_output=options.check_output)
        else:
            b = api.deallocate(module, engine=options.engine, rules=options.rules_dir,
                               check_output=options.check_output)
    except UserError as e:
        row.update(bufferize_error=e.message, bufferize_error_loc=str(e.loc) if e.loc else path)
        return
    row.update(asdict(b.figures))
    copies = getattr(b, "copies", [])
    row["copies_by_cause"] = copies_by_cause(copies)
    if options.explain:
        row["_explain"] = explain_copies(path, a, copies)
    if options.pages:
        row["_output"] = _shown_output(b)


def _by_parts(path: str, text: str, module: Any, options: BatchOptions, row: dict) -> None:
    """:func:`_analyze_text` for a tensor module of more than ``api.SPLIT_OPS`` ops: the
    analysis and the backend run part by part, as the single-file commands do
    (bufferlog/parts.py), and give the same row. A backend error leaves the figures of an
    analysis by parts."""
    from bufferlog import api

    oneshot, plan, layout = _backend_options(options)
    try:
        b = api.bufferize(module, strategy=options.strategy, engine=options.engine,
                          rules=options.rules_dir, split_ops=api.SPLIT_OPS, options=oneshot,
                          plan=plan, layout=layout, check_output=options.check_output)
    except (BufferizeError, DeallocError) as e:
        a = api.analyze(api.parse(text, path), strategy=options.strategy, engine=options.engine,
                        rules=options.rules_dir, split_ops=api.SPLIT_OPS, options=oneshot)
        row.update(asdict(a.figures), engine=a.engine)
        row.update(bufferize_error=e.message, bufferize_error_loc=str(e.loc) if e.loc else path)
        return
    row.update(asdict(b.analysis.figures), engine=b.analysis.engine)
    row.update(asdict(b.figures))
    row["copies_by_cause"] = copies_by_cause(b.copies)
    if options.explain:
        row["_explain"] = explain_copies(path, b.analysis, b.copies)
    if options.pages:
        row["_output"] = _shown_output(b)


#: a report page shows a file's outputs up to this size (bytes of text)
PAGE_TEXT_MAX = 2_000_000


def _shown_output(b: Any) -> str | None:
    """bufferlog's output as a report page shows it: every op with its location (the
    input op it came from, the cause of each alloc, copy and free)."""
    text = b.print(True)
    return text if len(text) <= PAGE_TEXT_MAX else None


def _backend_options(options: BatchOptions) -> tuple[Any, Any, str]:
    """The One-Shot options, planning stages and function layout of a batch's rows."""
    from bufferlog.backend.plan import PlanOptions
    from bufferlog.engine.options import OneShotOptions, parse_pass_options

    base = OneShotOptions.mlir_opt() if options.oneshot_mlir_opt else OneShotOptions()
    oneshot = parse_pass_options(options.oneshot or "", base)
    plan = PlanOptions(**options.plan) if options.plan is not None else None
    layout = options.layout or getattr(oneshot, "function_boundary_type_conversion",
                                       "identity-layout-map")
    return oneshot, plan, layout


def copies_by_cause(copies: list) -> list[dict]:
    """The copies of a file grouped by (kind, writer, reader): count and static bytes."""
    groups: dict[tuple, dict] = {}
    for c in copies:
        key = (c.kind, *c.pattern)
        g = groups.setdefault(key, {"kind": key[0], "writer": key[1], "reader": key[2],
                                    "copies": 0, "bytes": 0, "dynamic": 0})
        g["copies"] += 1
        if c.bytes is None:
            g["dynamic"] += 1
        else:
            g["bytes"] += c.bytes
    return sorted(groups.values(), key=lambda g: (-g["bytes"], g["kind"], g["writer"]))


def explain_copies(path: str, a: Any, copies: list) -> str:
    """Every copy of the bufferized output with its cause (the text ``explain FILE``
    prints), then the out-of-place operands that needed a new buffer but no copy. The
    totals are the row's."""
    from bufferlog.api import CopyListing

    copied = {(c.loc, c.operand) for c in copies if c.operand is not None}
    rest = [d for d in a.decisions if not d.inplace and (d.loc, d.operand) not in copied]
    lines = tuple(getattr(a.module, "source_lines", None) or ())
    return CopyListing(path, list(copies), a.figures, rest, lines).text()


MLIR_OPT_ANALYSIS = "bufferize-function-boundaries test-analysis-only print-conflicts allow-return-allocs-from-loops"
MLIR_OPT_BUFFERIZE = "bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"


def mlir_opt_pipelines(oneshot: str = "") -> dict[str, list[str]]:
    """The mlir-opt command lines of ``--compare`` (after the input): its analysis, and
    its bufferization with deallocation (retried with ``allow-return-allocs-from-loops``
    when a loop returns a fresh buffer). ``oneshot``: the batch's One-Shot options,
    appended (the later option wins)."""
    extra = f" {oneshot}" if oneshot else ""
    return {"analysis": [f"--one-shot-bufferize={MLIR_OPT_ANALYSIS}{extra}"],
            "bufferize": [f"--one-shot-bufferize={MLIR_OPT_BUFFERIZE}{extra}",
                          "--buffer-deallocation-pipeline"],
            "bufferize_loops": [f"--one-shot-bufferize={MLIR_OPT_BUFFERIZE} "
                                f"allow-return-allocs-from-loops{extra}",
                                "--buffer-deallocation-pipeline"]}


def mlir_opt_info(mlir_opt: str = "mlir-opt-22", oneshot: str = "") -> dict[str, Any]:
    """Which mlir-opt ``--compare`` runs: its path, its version line, its command lines."""
    exe = shutil.which(mlir_opt)
    version = None
    if exe is not None:
        try:
            v = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
            version = next((ln.strip() for ln in v.stdout.splitlines() if "version" in ln.lower()),
                           v.stdout.strip().splitlines()[0] if v.stdout.strip() else None)
        except (OSError, subprocess.TimeoutExpired):
            version = None
    return {"binary": exe or mlir_opt, "found": exe is not None, "version": version,
            "pipelines": {k: " ".join(v) for k, v in mlir_opt_pipelines(oneshot).items()}}


def mlir_opt_figures(text: str, mlir_opt: str = "mlir-opt-22",
                     timeout: float = 120.0, oneshot: str = "",
                     pages: bool = False) -> dict[str, Any]:
    """The comparison columns from mlir-opt: its analysis annotations (in-place %,
    conflicts) and its bufferize + buffer-deallocation-pipeline output, printed in generic
    form and counted by the same :func:`~bufferlog.backend.quality.count_figures` as
    ours. ``mlir_opt_status`` is "missing" when the tool is not installed. ``pages``: also
    ``_mlir_opt_output``, that output in custom form with locations, for the file's page."""

    out: dict[str, Any] = {c.name: None for c in COMPARE_COLUMNS}
    exe = shutil.which(mlir_opt)
    if exe is None:
        out["mlir_opt_status"] = "missing"
        return out
    t0 = time.perf_counter()
    lines = mlir_opt_pipelines(oneshot)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([exe, *args], input=text, capture_output=True, text=True,
                              timeout=timeout)

    try:
        a = run(*lines["analysis"])
        if a.returncode != 0:
            raise _ToolError(a.stderr)
        decided = [d for attr in re.findall(r"__inplace_operands_attr__ = \[([^\]]*)\]", a.stdout)
                   for d in re.findall(r'"(true|false)"', attr)]
        if decided:
            out["mlir_opt_inplace_pct"] = round(100.0 * decided.count("true") / len(decided), 2)
        out["mlir_opt_conflicts"] = len(set(re.findall(r"C_(\d+)\[DEF", a.stdout)))
        used = lines["bufferize"]
        b = run(*used, "--mlir-print-op-generic")
        if b.returncode != 0:
            used = lines["bufferize_loops"]
            b = run(*used, "--mlir-print-op-generic")
        if b.returncode != 0:
            raise _ToolError(b.stderr)
        try:
            figs = asdict(OutputFigures.of(b.stdout))
        except UserError as e:
            raise _ToolError(f"error: cannot read mlir-opt's output: {e}") from None
        out.update({f"mlir_opt_{k}": v for k, v in figs.items()})
        out["mlir_opt_status"] = "ok"
        if pages:
            shown = run(*used, "--mlir-print-debuginfo", "--mlir-print-local-scope")
            if shown.returncode == 0 and len(shown.stdout) <= PAGE_TEXT_MAX:
                out["_mlir_opt_output"] = shown.stdout
    except _ToolError as e:
        msg = next((ln for ln in str(e).splitlines() if "error" in ln), str(e).strip()[:300])
        out.update(mlir_opt_status="error", mlir_opt_error=msg[:500])
    except subprocess.TimeoutExpired:
        out["mlir_opt_status"] = "timeout"
    out["mlir_opt_s"] = round(time.perf_counter() - t0, 6)
    return out


class _ToolError(Exception):
    pass


# ---------------------------------------------------------------------------------
# Executors
# ---------------------------------------------------------------------------------


@record
class Task:
    index: int
    path: str
    data: bytes | None = None


def _failure_row(path: str, options: BatchOptions, status: str, message: str) -> dict:
    row = empty_row(path, compare=options.compare == "mlir-opt")
    row.update(status=status, error=message, error_loc=path)
    return row


def resident_bytes(pid: int) -> int | None:
    """Resident memory of process ``pid`` (Linux ``/proc``), or None if unknown."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _worker_main(conn: Any, inherited: tuple[int, ...] = ()) -> None:
    """A local worker: rows for (index, path, options) requests until it gets None.
    ``inherited``: the parent's pipe ends (its own and the other workers') that a fork
    copied into this process, closed here: held open, a worker would not see its parent
    exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    for fd in inherited:
        try:
            os.close(fd)
        except OSError:
            pass
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        index, path, opts, data = msg
        with paused():  # no collector scans during a file (see bufferlog.cli.main) ...
            row = analyze_file(path, opts, data)
        gc.collect(0)  # ... one after it: the file's IR is cyclic garbage now
        conn.send((index, row))


def _mp_context() -> Any:
    """How a worker starts. Forked from this process once it has loaded what a file
    needs (``bufferlog.app.batch_worker``: imports, parser tables, rules), when this
    process runs no other thread: a fork copies only the calling thread, and a lock
    another thread held would stay held in the child. Else from a fork server that
    loaded the same (a progress bar's refresh thread is running), else spawned."""
    methods = mp.get_all_start_methods()
    if "fork" in methods and _single_threaded():
        import bufferlog.app.batch_worker  # noqa: F401  (warms this process once)

        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["bufferlog.app.batch_worker"])
        return ctx
    return mp.get_context("spawn")


def _single_threaded() -> bool:
    """No other thread in this process, Python's or native (Linux ``/proc``)."""
    import threading

    if threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


#: the parent's ends of the live workers' pipes (file descriptors)
_PARENT_ENDS: set[int] = set()


class _Worker:
    def __init__(self, ctx: Any):
        self.conn, child = ctx.Pipe()
        self.fd = self.conn.fileno()
        # a fork copies the parent's end of this pipe and of the other workers' pipes
        inherited = (*_PARENT_ENDS, self.fd) if ctx.get_start_method() == "fork" else ()
        self.proc = ctx.Process(target=_worker_main, args=(child, inherited), daemon=True)
        if inherited:  # forked: the child starts with Ctrl-C ignored, as the parent handles it
            handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                self.proc.start()
            finally:
                signal.signal(signal.SIGINT, handler)
        else:
            self.proc.start()
        child.close()
        _PARENT_ENDS.add(self.fd)
        self.task: Task | None = None
        self.started = 0.0

    def submit(self, task: Task, options: BatchOptions) -> None:
        self.task, self.started = task, time.monotonic()
        self.conn.send((task.index, task.path, options.to_dict(), task.data))

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        _PARENT_ENDS.discard(self.fd)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(2)
        _PARENT_ENDS.discard(self.fd)
        self.conn.close()


class LocalExecutor:
    """``jobs`` worker processes, given the largest files first; a file over
    ``options.timeout`` or whose worker's resident memory passes ``options.max_memory``
    kills its worker only (a new one takes its place)."""

    name = "local"

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, jobs)

    def run(self, tasks: list[Task], options: BatchOptions) -> Iterator[tuple[Task, dict]]:
        if not tasks:
            return
        pending = deque(sorted(tasks, key=_size, reverse=True))
        workers: list[_Worker] = []
        try:
            for _ in range(min(self.jobs, len(tasks))):
                workers.append(_Worker(_mp_context()))
            while pending or any(w.task for w in workers):
                for w in workers:
                    if w.task is None and pending:
                        w.submit(pending.popleft(), options)
                busy = [w for w in workers if w.task is not None]
                wait_s = 0.05 if options.max_memory else 0.5
                if options.timeout:
                    now = time.monotonic()
                    wait_s = max(0.0, min([w.started + options.timeout - now for w in busy]
                                          + [wait_s]))
                ready = mp_wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], wait_s)
                for i, w in enumerate(workers):
                    if w.task is None:
                        continue
                    task = w.task
                    eof = False
                    if w.conn in ready:
                        try:
                            _, row = w.conn.recv()
                        except (EOFError, OSError):
                            eof = True
                        else:
                            w.task = None
                            yield task, row
                            continue
                    if eof or w.proc.sentinel in ready or not w.proc.is_alive():
                        if not eof and w.conn.poll():  # the result came with the exit
                            continue
                        code = w.proc.exitcode
                        w.kill()
                        workers[i] = _Worker(_mp_context())
                        how = f"signal {-code}" if code and code < 0 else f"exit code {code}"
                        yield task, _failure_row(task.path, options, "crash",
                                                 f"worker died ({how}) while analysing this file")
                        continue
                    rss = resident_bytes(w.proc.pid) if options.max_memory else None
                    if rss is not None and rss > options.max_memory:
                        w.kill()
                        workers[i] = _Worker(_mp_context()) if pending else _Idle()
                        yield task, _failure_row(
                            task.path, options, "out-of-memory",
                            f"worker used {rss / 2**20:.0f} MiB, over --max-memory "
                            f"{options.max_memory / 2**20:.0f} MiB")
                        continue
                    if options.timeout and time.monotonic() - w.started > options.timeout:
                        w.kill()
                        workers[i] = _Worker(_mp_context()) if pending else _Idle()
                        yield task, _failure_row(task.path, options, "timeout",
                                                 f"timed out after {options.timeout:g} s")
                workers = [w for w in workers if not isinstance(w, _Idle)]
        finally:
            for w in workers:
                if w.task is not None:
                    w.kill()
                else:
                    w.stop()


def _size(task: Task) -> int:
    """A task's bytes: the largest files go first, so that none starts last and holds
    up the batch's end while the other workers idle (rows still come in input order)."""
    if task.data is not None:
        return len(task.data)
    try:
        return os.stat(task.path).st_size
    except OSError:
        return 0


class _Idle:
    task = None

    def stop(self) -> None:
        pass

    def kill(self) -> None:
        pass


def run_isolated(path: str, options: BatchOptions | dict, data: bytes | None = None) -> dict:
    """analyze_file in a child process, killed after ``options.timeout`` or over
    ``options.max_memory`` (Dask tasks)."""
    if isinstance(options, dict):
        options = BatchOptions.from_dict(options)
    if not options.timeout and not options.max_memory:
        return analyze_file(path, options, data)
    ex = LocalExecutor(1)
    for _, row in ex.run([Task(0, path, data)], options):
        return row
    raise AssertionError("unreachable")


class DaskExecutor:
    """Runs :func:`run_isolated` on a Dask distributed cluster. ``scheduler`` is an
    address (``tcp://host:8786``), a ``distributed.Client``, or None for a LocalCluster
    of ``jobs`` workers. The file's bytes are sent with each task."""

    name = "dask"

    def __init__(self, scheduler: Any = None, jobs: int = 1):
        self.scheduler = scheduler
        self.jobs = max(1, jobs)

    def run(self, tasks: list[Task], options: BatchOptions) -> Iterator[tuple[Task, dict]]:
        if not tasks:
            return
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise UserError("--executor dask needs the [dask] extra: "
                            "pip install 'bufferlog[dask]'") from None
        own_client = cluster = None
        if self.scheduler is None:
            cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1,
                                   dashboard_address=None)
            client = own_client = Client(cluster)
        elif isinstance(self.scheduler, str):
            try:
                client = own_client = Client(self.scheduler, timeout=30)
            except OSError as e:
                raise UserError(f"cannot reach Dask scheduler {self.scheduler}: {e}") from None
        else:
            client = self.scheduler
        opts = options.to_dict()
        try:
            futs = {}
            for t in tasks:
                data = t.data if t.data is not None else Path(t.path).read_bytes()
                f = client.submit(run_isolated, t.path, opts, data, pure=False,
                                  key=f"bufferlog-{t.index}-{os.getpid()}-{time.time_ns()}")
                futs[f] = t
            try:
                for f in as_completed(list(futs)):
                    t = futs[f]
                    try:
                        row = f.result()
                    except Exception as e:
                        row = _failure_row(t.path, options, "crash",
                                           f"dask task failed: {type(e).__name__}: {e}")
                    yield t, row
            finally:
                for f in futs:
                    f.cancel()
        finally:
            if own_client is not None:
                own_client.close()
            if cluster is not None:
                cluster.close()


# ---------------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------------


class Progress:
    """A rich progress bar on a terminal; plain lines otherwise; nothing when quiet."""

    def __init__(self, total: int, stream: Any = None, quiet: bool = False,
                 force_plain: bool = False):
        self.total, self.done, self.quiet = total, 0, quiet
        self.stream = stream or sys.stderr
        self.t0 = time.monotonic()
        self.last_line = 0.0
        self.counts: Counter[str] = Counter()
        self._rich = None
        if not quiet and not force_plain and getattr(self.stream, "isatty", lambda: False)():
            try:
                from rich.console import Console
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    SpinnerColumn,
                    TextColumn,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )
                from rich.progress import Progress as RP
            except ImportError:
                pass
            else:
                self._rich = RP(SpinnerColumn(), TextColumn("[bold]batch"), BarColumn(),
                                MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                TextColumn("{task.fields[status]}"),
                                console=Console(file=self.stream), transient=False)
                self._rich.start()
                self._task = self._rich.add_task("batch", total=total, rate="", status="")

    def rate(self) -> float:
        dt = time.monotonic() - self.t0
        return self.done / dt if dt > 0 else 0.0

    def advance(self, row: dict) -> None:
        self.done += 1
        self.counts[row["status"] + (" (cached)" if row.get("cached") else "")] += 1
        if self.quiet:
            return
        r = self.rate()
        if self._rich is not None:
            summary = " ".join(f"{k}:{v}" for k, v in sorted(self.counts.items()))
            self._rich.update(self._task, advance=1, rate=f"{r:.1f} files/s", status=summary)
            return
        # plain mode: one line per file (logs, CI)
        eta = (self.total - self.done) / r if r > 0 else float("nan")
        err = row.get("error") or row.get("bufferize_error")
        msg = f" ({err})" if err else ""
        print(f"[{self.done}/{self.total}] {r:.1f} files/s ETA {eta:.0f}s "
              f"{row['status']}: {row['file']}{msg}", file=self.stream, flush=True)

    def close(self) -> None:
        if self._rich is not None:
            self._rich.stop()


# ---------------------------------------------------------------------------------
# The batch
# ---------------------------------------------------------------------------------


@record
class BatchResult:
    rows: list[dict]
    options: BatchOptions
    total_files: int
    interrupted: bool = False
    elapsed_s: float = 0.0
    cache_hits: int = 0
    executor: str = "local"
    jobs: int = 1
    explains: dict[str, str] = field(factory=dict)
    # file -> the texts of its report page: "output" (bufferlog's, with locations) and
    # "mlir_opt_output" (mlir-opt's, with --compare); only with BatchOptions.pages
    texts: dict[str, dict[str, str]] = field(factory=dict)
    mlir_opt: dict | None = None  # mlir_opt_info() of a --compare batch

    def summary(self) -> dict[str, Any]:
        return summarize(self)


def summarize(res: BatchResult) -> dict[str, Any]:
    rows = res.rows
    status = Counter(r["status"] for r in rows)
    tot: dict[str, Any] = {}
    for c in columns_for(rows):
        if c.type in ("int", "float") and c.name not in ("inplace_pct", "mlir_opt_inplace_pct"):
            vals = [r.get(c.name) for r in rows if r.get(c.name) is not None]
            tot[c.name] = (round(sum(vals), 6) if c.type == "float" else sum(vals)) if vals else None
    kinds: Counter[str] = Counter()
    for r in rows:
        kinds.update(r.get("conflicts_by_kind") or {})
    tot["conflicts_by_kind"] = dict(kinds) if any(r.get("conflicts_by_kind") is not None
                                                  for r in rows) else None
    dec = [r for r in rows if r.get("inplace_pct") is not None and r.get("inplace_operands") is not None]
    if dec:
        n_in = sum(r["inplace_operands"] for r in dec)
        n_dec = sum(r["inplace_operands"] * 100.0 / r["inplace_pct"] if r["inplace_pct"] else 0
                    for r in dec)
        tot["inplace_pct"] = round(100.0 * n_in / n_dec, 2) if n_dec else None
    causes: dict[str, dict[tuple, dict]] = {"by_kind": {}, "by_pair": {}}
    for r in rows:
        for g in r.get("copies_by_cause") or []:
            for view, key in (("by_kind", (g["kind"],)), ("by_pair", (g["writer"], g["reader"]))):
                agg = causes[view].setdefault(key, dict(zip(
                    ("kind",) if view == "by_kind" else ("writer", "reader"), key, strict=True),
                    copies=0, bytes=0, dynamic=0))
                for k in ("copies", "bytes", "dynamic"):
                    agg[k] += g[k]
    return {
        "engines": dict(Counter(r["engine"] for r in rows if r.get("engine"))),
        "mlir_opt_status": dict(Counter(r["mlir_opt_status"] for r in rows
                                        if r.get("mlir_opt_status"))),
        "copy_causes": {view: sorted(d.values(), key=lambda g: (-g["bytes"], -g["copies"]))
                        for view, d in causes.items()},
        "files": res.total_files,
        "done": sum(r["status"] != "not_run" for r in rows),
        "interrupted": res.interrupted,
        "status": dict(status),
        "cache_hits": res.cache_hits,
        "elapsed_s": round(res.elapsed_s, 3),
        "files_per_s": (round(sum(r["status"] != "not_run" for r in rows) / res.elapsed_s, 3)
                        if res.elapsed_s > 0 else None),
        "executor": res.executor,
        "jobs": res.jobs,
        "bufferlog_version": __version__,
        "options": res.options.key_dict() | {"timeout": res.options.timeout},
        "totals": tot,
        "mlir_opt": res.mlir_opt,
        "root": common_root([r["file"] for r in rows]),
    }


#: the figures a row is compared on with mlir-opt (bufferlog's, mlir-opt's)
DIFF_FIGURES = (("inplace_pct", "mlir_opt_inplace_pct"), ("copies", "mlir_opt_copies"),
                ("bytes_copied", "mlir_opt_bytes_copied"), ("allocs", "mlir_opt_allocs"),
                ("deallocs", "mlir_opt_deallocs"), ("clones", "mlir_opt_clones"))


def differs_from_mlir_opt(row: dict) -> list[str]:
    """The figures of a ``--compare`` row that differ from mlir-opt's (a tool that fails
    where the other does not differs too); empty when they agree or there is no
    comparison."""
    theirs = row.get("mlir_opt_status")
    if theirs is None or theirs == "missing":
        return []
    ours_ok = row.get("status") in ("ok", "empty")
    if ours_ok != (theirs == "ok"):
        return ["status"]
    if row.get("status") != "ok":
        return []
    return [a for a, b in DIFF_FIGURES if row.get(a) != row.get(b)]


def common_root(files: list[str]) -> str:
    """The deepest directory holding every file (a report names files relative to it)."""
    dirs = [os.path.dirname(os.path.abspath(f)) for f in files]
    if not dirs:
        return ""
    try:
        return os.path.commonpath(dirs)
    except ValueError:  # different drives
        return ""


def display_name(file: str, root: str) -> str:
    """``file`` relative to ``root`` (as given when it lies elsewhere)."""
    if not root:
        return file
    rel = os.path.relpath(os.path.abspath(file), root)
    return file if rel.startswith("..") else rel


def run_batch(files: list[str], options: BatchOptions, executor: Any = None,
              cache: ResultCache | None = None, progress: Progress | None = None,
              on_row: Callable[[dict], None] | None = None) -> BatchResult:
    """Analyse ``files``; rows come back in the order of ``files``. Ctrl-C stops the
    workers and returns what was done with ``interrupted=True``."""
    executor = executor or LocalExecutor(1)
    t0 = time.monotonic()
    res = BatchResult([], options, len(files), executor=executor.name,
                      jobs=getattr(executor, "jobs", 1))
    results: dict[int, dict] = {}
    rules_h = rules_hash(options.rules_dir) if cache is not None else ""
    keys: dict[int, str] = {}
    todo: list[Task] = []

    if options.compare == "mlir-opt":
        res.mlir_opt = mlir_opt_info(options.mlir_opt, options.oneshot)

    def finish(i: int, row: dict) -> None:
        explain = row.pop("_explain", None)
        if explain is not None:
            res.explains[row["file"]] = explain
        texts = {k[1:]: row.pop(k) for k in ("_output", "_mlir_opt_output") if k in row}
        texts = {k: v for k, v in texts.items() if v is not None}
        if texts:
            res.texts[row["file"]] = texts
        results[i] = row
        if progress:
            progress.advance(row)
        if on_row:
            on_row(row)

    try:
        for i, f in enumerate(files):
            real, chunk = _chunk_of(f, options)
            if cache is None:
                todo.append(Task(i, f, None if chunk is None else Path(real).read_bytes()))
                continue
            try:
                data = Path(real).read_bytes()
            except OSError:
                todo.append(Task(i, f))
                continue
            keys[i] = k = cache_key(data if chunk is None else data + f"\0{chunk}".encode(),
                                    rules_h, options)
            hit = cache.get(k)
            if hit is not None:
                hit = _name_in(hit, f)
                hit.update(file=f, cached=True)
                res.cache_hits += 1
                finish(i, hit)
            else:
                todo.append(Task(i, f, data))
        rows = executor.run(todo, options)
        try:
            for task, row in rows:
                if cache is not None and task.index in keys:
                    cache.put(keys[task.index], _name_out(row, task.path))
                finish(task.index, row)
        finally:
            getattr(rows, "close", lambda: None)()  # stop the workers now, not at GC
    except KeyboardInterrupt:
        res.interrupted = True
    finally:
        if progress:
            progress.close()
    for i, f in enumerate(files):  # an interrupted batch still lists every input
        if i not in results:
            results[i] = _failure_row(f, options, "not_run", "not run: the batch was interrupted")
    res.rows = [results[i] for i in sorted(results)]
    res.elapsed_s = time.monotonic() - t0
    return res

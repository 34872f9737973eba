"""A loaded Datalog program: files resolved through ``#include`` and the ``--rules``
overlay, parsed into declarations, directives and rules.

Overlay semantics (``rules_dir``): a file of the overlay whose name equals a program file's
name replaces it, wherever it is reached (as a main file or through ``#include``); the
overlay's remaining ``*.dl`` files are added after the main files.  ``#include "x.dl"``
looks in the overlay first, then relative to the including file, then in the
``include_dirs`` (``-I``), then among the shipped rules (so a user's program can
``#include "schema.dl"``).  Each file is read once (an ``#include`` of a file already
loaded is a no-op), so overlay files may include each other freely.

Parse errors do not stop loading: they are collected in :attr:`Program.errors` and
reported by :func:`bufferlog.engine.check.check` together with semantic errors.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

try:  # the C pickler alone: the pickle module's Python half costs ~3 ms of every start-up
    from _pickle import dumps, loads
except ImportError:  # pragma: no cover - other Pythons
    from pickle import dumps, loads
try:  # CPython's own SHA-1: hashlib would load OpenSSL first (~3.5 ms of every start-up)
    from _sha1 import sha1
except ImportError:  # pragma: no cover - other Pythons
    from hashlib import sha1

from bufferlog.core import UserError, rules_dir
from bufferlog.core.records import field, record

from .dl_parse import (
    DatalogSyntaxError,
    Decl,
    Directive,
    Include,
    Loc,
    Rule,
    TypeDecl,
    parse_source,
)

#: The rules shipped with bufferlog (repository ``rules/``).
SHIPPED_RULES = rules_dir()

BASE_TYPES = ("symbol", "number")


@record
class Program:
    files: list[Path] = field(factory=list)
    decls: dict[str, Decl] = field(factory=dict)
    duplicate_decls: list[Decl] = field(factory=list)
    types: dict[str, TypeDecl] = field(factory=dict)
    directives: list[Directive] = field(factory=list)
    rules: list[Rule] = field(factory=list)
    errors: list[DatalogSyntaxError] = field(factory=list)
    _valid: bool = field(default=False, repr=False, compare=False)  # require_valid passed
    _key: tuple | None = field(default=None, repr=False, compare=False)  # Program.load's key
    _tr: object = field(default=None, repr=False, compare=False)  # the embedded engine's text

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(
        cls, sources: str | Path | Sequence[str | Path], rules_dir: str | Path | None = None,
        include_dirs: Sequence[str | Path] = (), lenient: bool = False,
        foreign: Sequence[str | Path] = (),
    ) -> Program:
        """Load a main file (or several files, in order) with an optional overlay dir.

        Overlay files: one named like a shipped rules file replaces it wherever it is
        included (and is never added otherwise); every other one is added. ``lenient``:
        an added file joins only if the program declares every relation it uses (one
        ``--rules`` directory serves several programs: `bufferize` runs the analysis, which
        reports a file's errors, then deallocation, which a must_copy rule does not
        concern). ``foreign``: main files of the other programs the directory serves; an
        added file that does not fit this program but fits one of them is theirs, and is
        left out (the analysis leaves out a file of `mem_*` facts that only deallocation
        reads); any other file joins, and its errors are reported.

        Loaded programs are memoised per process (a batch loads the same rules for every
        file): a cached program is reused while none of its files nor the overlay's file
        list changed (by their times, or content when just changed: ``_stamp``). Programs are
        treated as immutable once loaded."""
        mains = [Path(sources)] if isinstance(sources, str | Path) else [Path(s) for s in sources]
        overlay = Path(rules_dir) if rules_dir is not None else None
        if overlay is not None and not overlay.is_dir():
            raise UserError(f"--rules: not a directory: {overlay}")
        incs = [Path(i) for i in include_dirs]
        for i in incs:
            if not i.is_dir():
                raise UserError(f"-I: not a directory: {i}")
        key = (tuple(str(m.resolve()) for m in mains), str(overlay.resolve()) if overlay else None,
               tuple(str(i.resolve()) for i in incs), lenient, tuple(str(f) for f in foreign))
        hit = _LOADED.get(key) or _disk_load(key)
        if hit is not None and hit[0] == _stamp(hit[1].files, overlay):
            _LOADED[key] = hit
            return hit[1]
        prog = cls()
        loader = _Loader(prog, overlay, [*incs, SHIPPED_RULES])
        for m in mains:
            loader.load_file(loader.overlaid(m), None)
        if overlay is not None:
            shipped = {f.name for f in SHIPPED_RULES.rglob("*.dl")}
            for extra in sorted(overlay.glob("*.dl")):
                if extra.name in shipped or ((lenient or foreign) and not _fits(prog, extra) and (
                        lenient or any(_fits(cls.load(f), extra) for f in foreign))):
                    continue
                loader.load_file(extra, None)
        prog._number_rules()
        if not prog.errors:
            _LOADED[key] = (_stamp(prog.files, overlay), prog)
            prog._key = key
        return prog

    @classmethod
    def shipped(cls, rules_dir: str | Path | None = None) -> Program:
        """The shipped program: ``rules/main.dl`` if present, else every ``rules/*.dl``."""
        main = SHIPPED_RULES / "main.dl"
        files = [main] if main.exists() else sorted(SHIPPED_RULES.glob("*.dl"))
        return cls.load(files, rules_dir)

    @classmethod
    def from_text(cls, text: str, name: str = "<text>") -> Program:
        """A program from a string (no includes resolved relative to a directory)."""
        prog = cls()
        _Loader(prog, None).add_items(text, Path(name))
        prog._number_rules()
        return prog

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        """The rules travel as one nested pickle, unpickled on first use: a process that
        runs a cached program needs its declarations and engine text, not its ~500 rule
        trees (unpickling those is most of the cache's load time)."""
        state = dict(self.__dict__)
        if "rules" in state:
            state["rules"] = dumps(state["rules"], protocol=-1)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if isinstance(state.get("rules"), bytes):
            self.__dict__["_rules_blob"] = self.__dict__.pop("rules")

    def __getattr__(self, name: str):
        """``rules`` of a program from the disk cache, unpickled now."""
        blob = self.__dict__.get("_rules_blob")
        if name != "rules" or blob is None:
            raise AttributeError(name)
        self.rules = loads(blob)
        del self.__dict__["_rules_blob"]
        return self.rules

    def _number_rules(self) -> None:
        counts: dict[str, int] = {}
        for r in self.rules:
            if not r.is_fact:
                counts[r.head.rel] = counts.get(r.head.rel, 0) + 1
                r.rid = f"R{counts[r.head.rel]}"

    # ------------------------------------------------------------------ queries
    @property
    def inputs(self) -> list[str]:
        return _unique(d.rel for d in self.directives if d.kind == "input")

    @property
    def outputs(self) -> list[str]:
        return _unique(d.rel for d in self.directives if d.kind == "output")

    def root_type(self, type_name: str) -> str | None:
        """``symbol`` or ``number`` for a type name, following ``.type`` chains."""
        seen: set[str] = set()
        while type_name not in BASE_TYPES:
            td = self.types.get(type_name)
            if td is None or type_name in seen:
                return None
            seen.add(type_name)
            type_name = td.base
        return type_name

    def column_types(self, rel: str) -> list[str]:
        """Root types (``symbol``/``number``) of a declared relation's columns."""
        return [self.root_type(t) or "symbol" for _, t in self.decls[rel].attrs]

    def rules_for(self, rel: str) -> list[Rule]:
        return [r for r in self.rules if r.head.rel == rel and not r.is_fact]

    def require_valid(self) -> None:
        """Raise a :class:`UserError` listing every error ``rules check`` would report."""
        if self._valid:
            return
        from .check import check

        errs = [d for d in check(self) if d.severity == "error"]
        if errs:
            more = "\n".join(str(d) for d in errs[1:])
            raise UserError(errs[0].message + (f"\n{more}" if more else ""), errs[0].loc)
        self._valid = True
        self.persist()

    def persist(self) -> None:
        """Keep this checked program (with its engine translation, once made) for later
        processes; a program not loaded from files, or with errors, is not kept."""
        hit = _LOADED.get(self._key) if self._key is not None else None
        if hit is not None and hit[1] is self and self._valid:
            _disk_save(self._key, hit)


def _disk_file(key: tuple) -> Path:
    """Where a checked program loaded with ``key`` is cached across processes: named by
    the key and by the code that parses, checks and translates rules, through the
    :func:`_stamp` of its source files (a change to either misses; reading and hashing
    the sources cost ~0.8 ms a program)."""
    from bufferlog.core.resources import cache_dir

    here = Path(__file__).parent
    code = _stamp([here / n for n in ("program.py", "dl_parse.py", "check.py", "embedded.py")],
                  None)
    name = sha1(repr((key, code)).encode()).hexdigest()[:20]
    return cache_dir() / "rules" / f"{name}.pickle"


def _disk_load(key: tuple) -> tuple[tuple, Program] | None:
    """A checked program from an earlier process (parsing and checking the shipped rules
    costs ~0.5 s; unpickling ~10 ms). Its stamp is compared by the caller, so an edited
    rules file is reloaded."""
    try:
        return loads(_disk_file(key).read_bytes())
    except Exception:  # missing, unreadable or from another version: load normally
        return None


def _disk_save(key: tuple, hit: tuple[tuple, Program]) -> None:
    path = _disk_file(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(dumps(hit, protocol=-1))  # -1: the highest protocol
        os.replace(tmp, path)  # atomic: concurrent processes never read half a file
    except OSError:
        pass  # a read-only home: no cache, same results


#: Program.load memo: (main files, overlay) -> (stamp of the files read, program).
_LOADED: dict[tuple, tuple[tuple, Program]] = {}


#: a file changed this recently may be changed again without its times changing
RACY_SECONDS = 2.0


def _stamp(files: list[Path], overlay: Path | None) -> tuple:
    """What must be unchanged for a memoised program to be reused. Per file, its size,
    modification and change times and inode, as git's index keeps them: no read and no
    hash for the ~27 files of every program load. A file changed in the last
    ``RACY_SECONDS`` is "racy" (a second write could leave its times as they are) and is
    stamped by its content instead. The change time cannot be set back, so a file
    rewritten with its old size and modification time (``cp -p``) still differs."""
    out: list[tuple] = []
    now = time.time()
    for f in files:
        try:
            st = f.stat()
            if now - max(st.st_mtime, st.st_ctime) < RACY_SECONDS:
                out.append((str(f), sha1(f.read_bytes()).digest()))
            else:
                out.append((str(f), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
        except OSError:
            return ("missing", str(f))
    if overlay is not None:
        out.append(tuple(sorted(p.name for p in overlay.glob("*.dl"))))
    return tuple(out)


def _fits(prog: Program, path: Path) -> bool:
    """Every relation the rules file at ``path`` uses is declared by ``prog`` or by the
    file itself (a file that does not parse does not fit)."""
    from .dl_parse import Aggregate, Atom, Negation

    try:
        items = parse_source(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError, DatalogSyntaxError):
        return False
    own = {it.name for it in items if isinstance(it, Decl)}
    used: set[str] = set()

    def visit(lit) -> None:
        if isinstance(lit, Negation):
            lit = lit.atom
        if isinstance(lit, Atom):
            used.add(lit.rel)
            for t in lit.args:
                if isinstance(t, Aggregate):
                    for x in t.body:
                        visit(x)

    for it in items:
        if isinstance(it, Rule):
            visit(it.head)
            for lit in it.body:
                visit(lit)
    return used <= own | set(prog.decls)


def _unique(xs: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(xs))


class _Loader:
    def __init__(self, prog: Program, overlay: Path | None, include_dirs: Sequence[Path] = ()):
        self.prog = prog
        self.overlay = overlay
        self.include_dirs = list(include_dirs)
        self.seen: set[Path] = set()

    def overlaid(self, path: Path) -> Path:
        if self.overlay is not None and (self.overlay / path.name).is_file():
            return self.overlay / path.name
        return path

    def load_file(self, path: Path, loc: Loc | None) -> None:
        key = path.resolve()
        if key in self.seen:
            return
        self.seen.add(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.prog.errors.append(DatalogSyntaxError(f"no such rules file: {path}", loc))
            return
        except (UnicodeDecodeError, IsADirectoryError) as e:
            self.prog.errors.append(DatalogSyntaxError(f"cannot read {path}: {e}", loc))
            return
        self.prog.files.append(path)
        self.add_items(text, path)

    def add_items(self, text: str, path: Path) -> None:
        try:
            items = parse_source(text, str(path))
        except DatalogSyntaxError as e:
            self.prog.errors.append(e)
            return
        prog = self.prog
        for it in items:
            if isinstance(it, Include):
                target = Path(it.path)
                if not target.is_absolute():
                    dirs = [self.overlay] if self.overlay is not None else []
                    dirs += [path.parent, *self.include_dirs]
                    target = next((d / it.path for d in dirs if (d / it.path).is_file()),
                                  path.parent / it.path)
                self.load_file(target, it.loc)
            elif isinstance(it, Decl):
                if it.name in prog.decls:
                    prog.duplicate_decls.append(it)
                else:
                    prog.decls[it.name] = it
            elif isinstance(it, TypeDecl):
                prog.types.setdefault(it.name, it)
            elif isinstance(it, Directive):
                prog.directives.append(it)
            else:
                prog.rules.append(it)

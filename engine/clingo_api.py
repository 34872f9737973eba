"""The few clingo C API calls the embedded engine makes, through clingo's compiled cffi
module (``clingo._clingo``) loaded on its own.

``import clingo`` runs the package's whole Python wrapper (control, solving, backend,
propagator, application, ...): ~10 ms of every process that evaluates rules. The engine
needs a control object, ``add``, ``ground``, one solve yielding the program's (only) model
and that model's shown atoms as text, so it calls those functions of the same C library
directly: loading the compiled module alone costs ~1.5 ms. Errors are clingo's own
messages, raised as ``RuntimeError`` like the ``clingo`` package does; the messages clingo
logs (e.g. why a rule is unsafe) are collected in ``Control.messages``.

If the compiled module cannot be loaded on its own (another layout of the clingo
package), the ``clingo`` package is imported and its module used: the same calls."""

from __future__ import annotations

import _thread
import sys

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

_MODULE = "clingo._clingo"
_api: tuple[Any, Any] | None = None


def api() -> tuple[Any, Any]:
    """clingo's cffi ``(ffi, lib)``, loaded once."""
    global _api
    if _api is None:
        mod = sys.modules.get(_MODULE)
        if mod is None:
            try:
                mod = _load_alone()
            except Exception:  # another layout: the package's own import
                from clingo import _internal

                _api = (_internal._ffi, _internal._lib)
                return _api
        _api = (mod.ffi, mod.lib)
    return _api


def _load_alone() -> Any:
    """``clingo._clingo`` from its file, without running the ``clingo`` package: the
    module is registered under its own name, so a later ``import clingo`` (provenance,
    user code) reuses it rather than loading the library twice."""
    import os
    from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
    from importlib.util import find_spec, module_from_spec, spec_from_file_location

    pkg = find_spec("clingo")  # finds the package's directory; imports nothing of it
    if pkg is None or not pkg.submodule_search_locations:
        raise ImportError("clingo is not installed")
    for where in pkg.submodule_search_locations:
        for suffix in EXTENSION_SUFFIXES:
            path = os.path.join(where, "_clingo" + suffix)
            if os.path.isfile(path):
                loader = ExtensionFileLoader(_MODULE, path)
                spec = spec_from_file_location(_MODULE, path, loader=loader)
                if spec is None:
                    continue
                flags = sys.getdlopenflags()
                sys.setdlopenflags(os.RTLD_LAZY | os.RTLD_GLOBAL)  # as the package does
                try:
                    mod = module_from_spec(spec)
                    loader.exec_module(mod)
                finally:
                    sys.setdlopenflags(flags)
                sys.modules[_MODULE] = mod
                return mod
    raise ImportError("clingo's compiled module was not found")


def _check(ok: bool) -> None:
    if not ok:
        ffi, lib = api()
        msg = ffi.string(lib.clingo_error_message()).decode(errors="replace")
        if lib.clingo_error_code() == lib.clingo_error_bad_alloc:
            raise MemoryError(msg)
        raise RuntimeError(msg)


class Control:
    """A clingo control object: ``add`` program text to a part (``base`` unless named),
    ``ground`` a part, then ``shown_atoms`` of the model. Grounding parts one after the
    other is clingo's multi-shot solving: a part may use the atoms of the parts grounded
    before it (engine/multishot.py). Use as a context manager (the object is freed on
    exit)."""

    def __init__(self, arguments: list[str]):
        ffi, lib = api()
        self.messages: list[str] = []
        self._logger = ffi.callback("clingo_logger_t", self._log)  # kept alive with self
        c_args = [ffi.new("char[]", a.encode()) for a in arguments]
        ctl = ffi.new("clingo_control_t**")
        _check(lib.clingo_control_new(ffi.new("char*[]", c_args), len(c_args), self._logger,
                                      ffi.NULL, 20, ctl))
        self._ctl = ctl[0]

    def _log(self, _code: int, message: Any, _data: Any) -> None:
        self.messages.append(api()[0].string(message).decode(errors="replace"))

    def __enter__(self) -> Control:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._ctl is not None:
            api()[1].clingo_control_free(self._ctl)
            self._ctl = None

    def add(self, text: str, part: str = "base") -> None:
        ffi, lib = api()
        _check(lib.clingo_control_add(self._ctl, part.encode(), ffi.NULL, 0, text.encode()))

    def add_facts(self, relations: Iterable[tuple[str, Sequence[tuple]]]) -> None:
        """Add, for each ``(predicate, rows)``, every row as a fact (an ``int`` a number, a
        ``str`` a string): what adding their text gives (the atoms are facts, shown and
        seen by later grounding), through clingo's backend, which skips its parser (~40%
        less time than text). Number and string symbols are made once per process."""
        ffi, lib = api()
        backend = ffi.new("clingo_backend_t**")
        _check(lib.clingo_control_backend(self._ctl, backend))
        backend = backend[0]
        _check(lib.clingo_backend_begin(backend))
        sym, atom = ffi.new("clingo_symbol_t*"), ffi.new("clingo_atom_t*")
        function, add_atom, rule = (lib.clingo_symbol_create_function,
                                    lib.clingo_backend_add_atom, lib.clingo_backend_rule)
        numbers, strings = _NUMBERS, _STRINGS
        if len(numbers) + len(strings) > _SYMBOLS_MAX:
            numbers.clear()
            strings.clear()
        try:
            for name, rows in relations:
                if not rows:
                    continue
                c_name, n = name.encode(), len(rows[0])
                cols = []
                for col in zip(*rows, strict=True):  # a column holds ints or strs only
                    known = numbers if type(col[0]) is int else strings
                    got = list(map(known.get, col))
                    if None in got:
                        got = [_symbol(ffi, lib, v, sym) if s is None else s
                               for v, s in zip(col, got, strict=True)]
                    cols.append(got)
                args, null = ffi.new("clingo_symbol_t[]", max(n, 1)), ffi.NULL
                for row in zip(*cols, strict=True) if n else [()] * len(rows):
                    args[0:n] = row
                    if not (function(c_name, args, n, True, sym) and add_atom(backend, sym, atom)
                            and rule(backend, False, atom, 1, null, 0)):
                        _check(False)
        finally:
            _check(lib.clingo_backend_end(backend))

    def add_statements(self, lines: list[str], part: str = "base") -> None:
        """Add rules, one per line, to ``part``, as :meth:`add` of their text would.
        Clingo's parser is most of what adding rule text costs (~0.1 µs a character), and
        a process adds the same rules again and again (a batch worker for every file), so
        each line is parsed once per process and its syntax trees are handed to clingo's
        program builder. Errors carry no line numbers of the text: to name the rule at
        fault, add the text instead."""
        ffi, lib = api()
        builder = ffi.new("clingo_program_builder_t**")
        _check(lib.clingo_program_builder_init(self._ctl, builder))
        builder = builder[0]
        _check(lib.clingo_program_builder_begin(builder))
        add = lib.clingo_program_builder_add
        try:
            with _PARSED_LOCK:  # threads share the cache, and clingo runs without the GIL
                lines = ["#program " + part + ".", *lines]
                _parse_all([line for line in lines if line not in _PARSED])
                for line in lines:
                    asts = _PARSED.get(line)
                    if asts is None:  # the cache started anew meanwhile
                        asts = _parse(line)
                    for ast in asts:
                        _check(add(builder, ast))
        finally:
            _check(lib.clingo_program_builder_end(builder))

    def ground(self, part: str = "base") -> None:
        ffi, lib = api()
        name = ffi.new("char[]", part.encode())
        c_part = ffi.new("clingo_part_t*")
        c_part.name, c_part.params, c_part.size = name, ffi.NULL, 0
        _check(lib.clingo_control_ground(self._ctl, c_part, 1, ffi.NULL, ffi.NULL))

    def shown_atoms(self) -> list[str] | None:
        """The text of every shown atom of the first model; None if there is no model."""
        ffi, lib = api()
        handle = ffi.new("clingo_solve_handle_t**")
        _check(lib.clingo_control_solve(self._ctl, lib.clingo_solve_mode_yield, ffi.NULL, 0,
                                        ffi.NULL, ffi.NULL, handle))
        try:
            _check(lib.clingo_solve_handle_resume(handle[0]))
            model = ffi.new("clingo_model_t**")
            _check(lib.clingo_solve_handle_model(handle[0], model))
            return None if model[0] == ffi.NULL else _atoms(ffi, lib, model[0])
        finally:
            _check(lib.clingo_solve_handle_close(handle[0]))

    def has_atoms(self, name: str, arity: int) -> bool:
        """Whether the ground program holds an atom of predicate ``name``/``arity`` (a
        fact or not)."""
        ffi, lib = api()
        atoms, it, end = self._atoms_of(name, arity)
        flag = ffi.new("bool*")
        _check(lib.clingo_symbolic_atoms_iterator_is_equal_to(atoms, it[0], end[0], flag))
        return not flag[0]

    def _atoms_of(self, name: str, arity: int) -> tuple[Any, Any, Any]:
        """The ground program's symbolic atoms, and the begin and end iterators over those
        of predicate ``name``/``arity``."""
        ffi, lib = api()
        atoms = ffi.new("clingo_symbolic_atoms_t**")
        _check(lib.clingo_control_symbolic_atoms(self._ctl, atoms))
        atoms = atoms[0]
        sig = ffi.new("clingo_signature_t*")
        _check(lib.clingo_signature_create(name.encode(), arity, True, sig))
        it, end = ffi.new("clingo_symbolic_atom_iterator_t*"), ffi.new("clingo_symbolic_atom_iterator_t*")
        _check(lib.clingo_symbolic_atoms_begin(atoms, sig, it))
        _check(lib.clingo_symbolic_atoms_end(atoms, end))
        return atoms, it, end

    def facts_of(self, name: str, arity: int) -> list[str] | None:
        """The text of every atom of predicate ``name``/``arity`` in the ground program,
        without solving; None if one is not a fact (then only solving decides it). After
        grounding a stratified program every atom is a fact."""
        ffi, lib = api()
        atoms, it, end = self._atoms_of(name, arity)
        flag, sym = ffi.new("bool*"), ffi.new("clingo_symbol_t*")
        out: list[Any] = []
        while True:
            _check(lib.clingo_symbolic_atoms_iterator_is_equal_to(atoms, it[0], end[0], flag))
            if flag[0]:
                break
            _check(lib.clingo_symbolic_atoms_is_fact(atoms, it[0], flag))
            if not flag[0]:
                return None
            _check(lib.clingo_symbolic_atoms_symbol(atoms, it[0], sym))
            out.append(sym[0])
            _check(lib.clingo_symbolic_atoms_next(atoms, it[0], it))
        return _texts(ffi, lib, out)


_NUMBERS: dict[int, int] = {}  #: int -> its clingo symbol (symbols are process-wide)
_STRINGS: dict[str, int] = {}  #: str -> its clingo symbol
_SYMBOLS_MAX = 200_000  #: symbols remembered before both caches start anew (~100 bytes each)


def _symbol(ffi: Any, lib: Any, value: int | str, out: Any) -> int:
    """The clingo symbol of a number or string, remembered in _NUMBERS / _STRINGS."""
    if type(value) is int:
        lib.clingo_symbol_create_number(value, out)
        _NUMBERS[value] = out[0]
    else:
        _check(lib.clingo_symbol_create_string(value.encode(), out))
        _STRINGS[value] = out[0]
    return out[0]


#: rule line -> its parsed statements (references held for the process; see _parse).
#: Read and written only under _PARSED_LOCK.
_PARSED: dict[str, tuple[Any, ...]] = {}
_PARSED_MAX = 20_000  #: lines kept before the cache starts anew (a few KB each)
_PARSED_LOCK = _thread.allocate_lock()
_parsed_now: list[Any] = []


def _keep_ast(ast: Any, _data: Any) -> bool:
    api()[1].clingo_ast_acquire(ast)
    _parsed_now.append(ast)
    return True


_ast_callback: Any = None


def _parse_all(lines: list[str]) -> None:
    """Parse ``lines`` into :data:`_PARSED` with one call of clingo's parser (a call per
    line costs twice as much, which a process's first run would pay): when it yields one
    statement per line, as rule lines do, each line gets its own; else each line is
    parsed alone. The caller holds _PARSED_LOCK."""
    if not lines:
        return
    asts = _parse_text("\n".join(lines))
    if len(asts) != len(lines) or _first_lines(asts) != list(range(1, len(lines) + 1)):
        _release(asts)
        for line in lines:
            _parse(line)
        return
    for line, ast in zip(lines, asts, strict=True):
        _PARSED[line] = (ast,)


def _first_lines(asts: tuple[Any, ...]) -> list[int]:
    """The text line each statement of ``asts`` starts on."""
    ffi, lib = api()
    loc = ffi.new("clingo_location_t*")
    out = []
    for ast in asts:
        _check(lib.clingo_ast_attribute_get_location(ast, lib.clingo_ast_attribute_location, loc))
        out.append(loc.begin_line)
    return out


def _parse(line: str) -> tuple[Any, ...]:
    """The statements of ``line`` parsed by clingo, kept in :data:`_PARSED`. The caller
    holds _PARSED_LOCK."""
    asts = _PARSED[line] = _parse_text(line)
    return asts


def _parse_text(text: str) -> tuple[Any, ...]:
    """The statements of ``text`` parsed by clingo (its leading ``#program base.`` left
    out), each acquired: :data:`_PARSED` starts anew first if it is full."""
    global _ast_callback
    ffi, lib = api()
    if _ast_callback is None:
        _ast_callback = ffi.callback("clingo_ast_callback_t", _keep_ast)
    if len(_PARSED) >= _PARSED_MAX:
        for asts in _PARSED.values():
            _release(asts)
        _PARSED.clear()
    _parsed_now.clear()
    try:
        _check(lib.clingo_ast_parse_string(text.encode(), _ast_callback, ffi.NULL, ffi.NULL,
                                           ffi.NULL, ffi.NULL, 0))
        _release(_parsed_now[:1])  # the implicit "#program base." that comes first
        return tuple(_parsed_now[1:])
    except BaseException:
        _release(_parsed_now)
        raise
    finally:
        _parsed_now.clear()


def _release(asts: Any) -> None:
    release = api()[1].clingo_ast_release
    for ast in asts:
        release(ast)


def _atoms(ffi: Any, lib: Any, model: Any) -> list[str]:
    """The shown atoms of ``model`` as text: one C call per atom into a reused buffer
    (``str(symbol)`` through the package allocates two buffers and wraps three calls per
    atom); an atom longer than the buffer (clingo then refuses to write it) is sized
    first."""
    show = lib.clingo_show_type_shown
    size = ffi.new("size_t*")
    _check(lib.clingo_model_symbols_size(model, show, size))
    syms = ffi.new("clingo_symbol_t[]", size[0])
    _check(lib.clingo_model_symbols(model, show, syms, size[0]))
    return _texts(ffi, lib, syms)


def _texts(ffi: Any, lib: Any, syms: Any) -> list[str]:
    """The text of each symbol of ``syms``."""
    size = ffi.new("size_t*")
    to_str, string = lib.clingo_symbol_to_string, ffi.string
    cap = 4096
    buf = ffi.new("char[]", cap)
    parts: list[bytes] = []
    for sym in syms:
        if to_str(sym, buf, cap):
            parts.append(string(buf))
            continue
        _check(lib.clingo_symbol_to_string_size(sym, size))
        big = ffi.new("char[]", size[0])
        _check(to_str(sym, big, size[0]))
        parts.append(string(big))
    # one decode for all: clingo escapes newlines inside strings, so lines are atoms
    return b"\n".join(parts).decode().split("\n") if parts else []

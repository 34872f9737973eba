"""The rewrite's layout questions, answered by ``rules/layouts.dl``: may a buffer of one
memref type go where another is expected through a ``memref.cast``, does an op's
buffer have the identity layout, which groups of a ``collapse_shape`` are contiguous.
Where the answer is no, the rewrite copies the buffer into a fresh one; the rules
decide, this module only states the types as facts and reads the verdict.

A question names at most two types; each distinct question runs the rules once per
rewrite (they are rare: a type that differs from the one wanted).
"""

from __future__ import annotations

from bufferlog.frontend import types as T

from .layouts import BufferizeError, identity_map, space_of, strides_of

LAYOUTS_MAIN = "layouts.dl"
_MAX = 2**31 - 1


class LayoutQuestions:
    """The layout questions of one rewrite (``engine``, ``rules_dir``: as the analysis's)."""

    def __init__(self, engine: str = "auto", rules_dir=None) -> None:
        self.engine, self.rules_dir = engine, rules_dir
        self.memo: dict = {}

    def cast_blocked(self, have, want) -> str | None:
        """None when ``memref.cast`` turns type ``have`` into ``want``; else why not."""
        return self._ask(("cast", have, want), {"ask_cast": [(0, 1, 2)]}, (have, want))[0]

    def not_identity(self, t) -> bool:
        """Type ``t``'s layout is not the identity (memref.reshape cannot take it)."""
        return self._ask(("identity", t), {"ask_identity": [(0, 1)]}, (t,))[0] is not None

    def collapse(self, t, groups: list[list[int]]) -> tuple[str | None, list[int]]:
        """``collapse_shape`` of a buffer of type ``t`` with the reassociation ``groups``:
        (why a group is not provably contiguous, or None; per group, the dimension whose
        stride the collapsed dimension takes)."""
        rows = {"ask_collapse": [(0, 1, g, grp[0], grp[-1]) for g, grp in enumerate(groups)]}
        return self._ask(("collapse", t, tuple(map(tuple, groups))), rows, (t,))

    def _ask(self, key, rows: dict, types: tuple):
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._run(rows, types)
        return got

    def _run(self, rows: dict, types: tuple):
        from bufferlog.engine.interface import load, outputs
        from bufferlog.engine.outputs import LayoutsOutputs
        from bufferlog.engine.run import run

        for tid, t in enumerate(types, start=1):
            type_rows(rows, tid, t)
        prog = load(LAYOUTS_MAIN, self.rules_dir, lenient=True)
        out = LayoutsOutputs(run(prog, rows, engine=self.engine,
                                 relations=outputs(LAYOUTS_MAIN)).relations)
        why = sorted((r.dim, r.what) for r in out.layout_copy)
        refs = dict((r.g, r.r) for r in out.collapse_ref)
        text = None
        if why:
            dim, what = why[0]
            text = what if dim < 0 else f"{what} of dimension {dim}"
        return text, [refs[g] for g in sorted(refs)]


def type_rows(rows: dict, tid: int, t) -> None:
    """Add the facts of memref type ``t``, numbered ``tid``, to ``rows`` (schema.dl,
    "memref types")."""
    def put(rel, *row):
        rows.setdefault(rel, []).append(row)

    space = space_of(t)
    space = "" if space is None else str(space)
    if isinstance(t, T.UnrankedMemRefType):
        put("mtype", tid, str(t.elem), -1, space)
        put("mtype_identity", tid)
        return
    strides, offset = strides_of(t)
    if any(n is not None and not -_MAX <= n <= _MAX for n in (*t.shape, *strides, offset)):
        raise BufferizeError(f"bufferize: memref type {t} has a size, stride or offset "
                             "beyond 32 bits")
    put("mtype", tid, str(t.elem), len(t.shape), space)
    if identity_map(t):
        put("mtype_identity", tid)
    for i, (n, s) in enumerate(zip(t.shape, strides, strict=True)):
        put("mtype_dim", tid, i)
        if n is not None:
            put("mtype_size", tid, i, n)
        if s is not None:
            put("mtype_stride", tid, i, s)
    if offset is not None:
        put("mtype_offset", tid, offset)

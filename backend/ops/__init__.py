"""The registry of op models: everything bufferlog knows about an op, in one place.

One module per dialect family (``tensor.py``, ``linalg.py``, ``scf.py``, ...), in the spirit
of MLIR's external models of ``BufferizableOpInterface``: the op's *definition* (grammar,
builder from the parse tree, printer, verifier) stays in ``frontend/dialects/``; its
*bufferization model* is declared here, once:

* its analysis facts (``sem_*``, declared in ``rules/ops.dl``) and its memref facts
  (``mem_*``, declared in ``rules/ops_memref.dl``). The fact tables the rules read,
  ``rules/ops_generated.dl`` and ``rules/ops_memref_generated.dl``, and the frontend's
  table ``frontend/op_table.py`` are generated from these declarations
  (``python -m bufferlog.backend.ops.gen``; committed; a test fails when they are stale);
* its rewrite: ``rewrite(bz, op)``, called by :class:`backend.bufferize.Bufferizer` for
  an op with tensor operands or results (``bz`` is the rewriter: the buffers of tensor
  values, the decisions, the builders' insertion point). An op with regions returns a
  generator that yields each block to bufferize before it goes on;
* its traits, which the rest of the backend asks instead of naming ops (:data:`CAST`, ...);
* builders and queries of the ops the backend itself makes or looks through
  (``memref.alloc(...)``, ``memref.strip_casts(v)``, ...), as functions of the family
  module.

Declare a model with :func:`op`, facts with :data:`sem` and :data:`mem`::

    @op("tensor.insert", sem.known(), sem.read(1), sem.write(1),
        sem.alias(1, 0, "equivalent"), sem.element_access(1))
    def insert(bz, op):
        ...

``op(...)`` alone (no function under it) declares a model without a rewrite.

Nothing here is imported at start-up: the backend loads a family module the first time
it meets an op of that dialect (:func:`model`); the frontend and the rules read the
generated tables, never this package, so data still flows frontend -> engine -> backend.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

#: dialect namespace -> the family module holding its models
FAMILIES = {
    "arith": "arith", "index": "arith", "bufferization": "bufferization", "cf": "cf",
    "func": "func", "memref": "memref", "vector": "vector", "affine": "affine",
    "tensor": "tensor", "linalg": "linalg", "scf": "scf", "shape": "shape",
}

# -- traits: what the backend asks about an op instead of its name ---------------------------

#: the op's own rewrite is its parent's (a terminator or payload op the region op rewrites)
PASS_THROUGH = "pass_through"
#: a cast of a memref: the same buffer, the same elements (``strip_casts`` looks through it)
CAST = "cast"
#: a reshaping view: its result is its operand 0's elements in another shape or type
#: (``same_region`` looks through a chain of them back to a subview)
RESHAPE_VIEW = "reshape_view"
#: copies all of operand 0 into operand 1 (no result): a self copy folds away
COPY = "copy"
#: a function (its first region is the body)
FUNCTION = "function"
#: a call of the function its ``callee`` attribute names
CALL = "call"
#: returns from a function
RETURN = "return"
#: a memref allocation on the heap (``alloc_like``: a fresh buffer), on the stack
HEAP_ALLOC = "heap_alloc"
STACK_ALLOC = "stack_alloc"
#: frees its memref operand 0; frees its memrefs under conditions (bufferization.dealloc)
FREE = "free"
CONDITIONAL_FREE = "conditional_free"
#: a heap buffer holding a copy of operand 0 (bufferization.clone)
CLONE = "clone"
#: a region op running one of its regions once (scf.if, scf.index_switch)
BRANCH_REGIONS = "branch_regions"
#: runs its first region when its i1 operand 0 holds (scf.if): what it holds is guarded
GUARD = "guard"
#: a multi-way branch the deallocation lowers to two-way ones (cf.switch)
SWITCH = "switch"
#: a constant whose ``value`` attribute is its result (arith.constant)
CONSTANT = "constant"
#: grows or shrinks its memref operand 0 into a new buffer (memref.realloc: expand-realloc
#: lowers it, ``memref.expand_realloc``)
REALLOC = "realloc"


class Fact:
    """One row of a fact table: ``rel(name, *args)`` for the model's op ``name``."""

    __slots__ = ("rel", "args")

    def __init__(self, rel: str, args: tuple):
        self.rel, self.args = rel, args

    def __repr__(self) -> str:
        return f"{self.rel}{self.args!r}"


class _Facts:
    """``sem.read(1)`` -> the fact ``sem_read(<op>, 1)``: one attribute per relation of the
    table (checked against the ``.decl``s by the generator)."""

    def __init__(self, prefix: str):
        self._prefix = prefix

    def __getattr__(self, name: str) -> Callable[..., Fact]:
        if name.startswith("_"):
            raise AttributeError(name)
        rel = self._prefix + name.rstrip("_")  # mem.global_: mem_global
        return lambda *args: Fact(rel, args)


#: analysis facts (rules/ops.dl: ``sem.read(i)`` is ``sem_read(name, i)``)
sem = _Facts("sem_")
#: memref facts (rules/ops_memref.dl: ``mem.view(0)`` is ``mem_view(name, 0)``)
mem = _Facts("mem_")


class Model:
    """The bufferization model of the op ``name``: its facts, its rewrite, its traits."""

    def __init__(self, name: str, facts: tuple[Fact, ...], rewrite, traits: frozenset[str],
                 family: str):
        self.name, self.facts, self.rewrite = name, facts, rewrite
        self.traits, self.family = traits, family

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``@op(...)`` over a function: it is the rewrite."""
        self.rewrite = fn
        return fn

    def has(self, trait: str) -> bool:
        return trait in self.traits

    def fact_args(self, rel: str) -> list[tuple]:
        """The arguments (after the op name) of this model's facts of relation ``rel``."""
        return [f.args for f in self.facts if f.rel == rel]

    def __repr__(self) -> str:
        return f"Model({self.name!r})"


_MODELS: dict[str, Model] = {}
_LOADED: set[str] = set()


def op(name: str, *facts: Fact, rewrite: Callable[..., Any] | None = None,
       traits: tuple[str, ...] = (), **extra: Any) -> Model:
    """Declare the model of op ``name`` (in its family module): its facts, its rewrite
    (or use the result as a decorator), its traits; ``extra`` keyword values become
    attributes of the model (a family's own per-op data)."""
    assert name not in _MODELS, f"two models of {name}"
    family = FAMILIES.get(name.split(".", 1)[0])
    assert family is not None, f"no family module for {name}"
    m = _MODELS[name] = Model(name, tuple(facts), rewrite, frozenset(traits), family)
    for k, v in extra.items():
        setattr(m, k, v)
    return m


def _load(family: str) -> None:
    if family not in _LOADED:
        _LOADED.add(family)
        import importlib

        importlib.import_module(f"{__name__}.{family}")


def model(name: str) -> Model | None:
    """The model of op ``name``, or None (its family module loads on first use)."""
    m = _MODELS.get(name)
    if m is None:
        family = FAMILIES.get(name.split(".", 1)[0])
        if family is not None and family not in _LOADED:
            _load(family)
            m = _MODELS.get(name)
    return m


def has(op_or_name: Any, trait: str) -> bool:
    """The op (or op name) has ``trait``."""
    m = model(op_or_name if isinstance(op_or_name, str) else op_or_name.name)
    return m is not None and trait in m.traits


def facts_of(op_or_name: Any, rel: str) -> list[tuple]:
    """The arguments of the facts of relation ``rel`` the op's model declares (empty for
    an op without a model): e.g. ``facts_of(op, "mem_view")`` -> ``[(0,)]``."""
    m = model(op_or_name if isinstance(op_or_name, str) else op_or_name.name)
    return [] if m is None else m.fact_args(rel)


def view_source(op_or_name: Any) -> int | None:
    """The operand whose buffer the op's result 0 is a view of (``mem_view``), or None."""
    name = op_or_name if isinstance(op_or_name, str) else op_or_name.name
    try:
        return _VIEW_SOURCE[name]
    except KeyError:
        src = facts_of(name, "mem_view")
        v = _VIEW_SOURCE[name] = src[0][0] if src else None
        return v


_VIEW_SOURCE: dict[str, int | None] = {}


def all_models() -> list[Model]:
    """Every model of every family, by op name."""
    for family in sorted(set(FAMILIES.values())):
        _load(family)
    return [_MODELS[n] for n in sorted(_MODELS)]

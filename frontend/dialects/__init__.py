"""Custom assembly of known ops: one module per dialect family, each pairing
``frontend/grammar/<family>.lark`` (grammar rules) with builders and printers here.

Contract (shared by every dialect module):

* Grammar: ``frontend/grammar/<family>.lark`` defines a rule ``<family>_op`` whose
  alternatives are that family's ops, each its own named rule, e.g.::

      tensor_op: tensor_extract | tensor_insert | ...
      tensor_extract: "tensor.extract" value_use "[" value_use_list? "]" attr_dict? ":" type

  The core grammar (``core.lark``) provides the shared nonterminals: ``value_use``
  (``%x``, ``%x#1``), ``value_use_list``, ``type``, ``type_list``, ``type_list_parens``,
  ``attr`` (any attribute), ``attr_dict``, ``attr_dict_with_keyword``, ``region``,
  ``block_arg_decl`` (``%a: type loc?``), ``symbol_ref`` (``@f``), ``integer``,
  ``bare_id``, ``string``, ``successor`` (``^bb1`` with optional ``(%v : t)``) and the
  result binding (``%a, %b:2 =``), which the core handles. Every ``.lark`` file in
  ``frontend/grammar/`` is concatenated after ``core.lark``; ``core.lark``'s
  ``custom_op`` lists each ``<family>_op``.

* Builders: ``@builds("tensor_extract")`` on ``def f(ctx: ParseCtx, tree) -> Op``. The
  ctx (see ``frontend/parser.py``) resolves pieces: ``ctx.use(node)``, ``ctx.uses(node)``,
  ``ctx.type(node)``, ``ctx.attr(node)``, ``ctx.attr_dict(node)``,
  ``ctx.region(node, entry_args=[(name, type, loc)] | None, then=fn)``, ``ctx.loc(node)``,
  ``ctx.int64(node)`` (a 64-bit field), ``ctx.int_attr(node, type)`` (an integer
  attribute that must fit ``type``), ``ctx.error(node, msg)`` (raises a located
  ``MLIRSyntaxError``). The builder returns an ``Op`` whose results carry their types;
  the core binds the textual result names. ``ctx.region`` returns the region empty: it
  is filled after the builder returns (no recursion per nesting level), so work on its
  contents (an implicit terminator) goes in ``then``.

* Printers: ``@prints("tensor.extract")`` on ``def f(p: Printer, op: Op) -> str``
  returning the op text after ``%r = `` (see ``frontend/printer.py``): ``p.value(v)``,
  ``p.values(vs)``, ``p.type(t)``, ``p.attr(a)``, ``p.attr_dict(op, elide=(...))``,
  ``p.region(r, entry_args=bool)``. Ops without a printer print in generic form.

* Representation: ops keep MLIR's property names in ``op.attrs`` (e.g.
  ``static_offsets`` as ``array<i64: ...>`` with ``DYNAMIC`` for SSA-valued entries,
  ``operandSegmentSizes`` where MLIR has them), so printers and the backend agree.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

DYNAMIC = -9223372036854775808  # ShapedType::kDynamic in static_* arrays

BUILDERS: dict[str, Callable[..., Any]] = {}
PRINTERS: dict[str, Callable[..., str]] = {}


def builds(rule: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        assert rule not in BUILDERS, f"duplicate builder for {rule}"
        BUILDERS[rule] = fn
        return fn
    return deco


def prints(op_name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    def deco(fn: Callable[..., str]) -> Callable[..., str]:
        assert op_name not in PRINTERS, f"duplicate printer for {op_name}"
        PRINTERS[op_name] = fn
        return fn
    return deco


_loaded = False


def load_all() -> None:
    """Import every dialect module so its builders/printers register (once)."""
    global _loaded
    if _loaded:
        return
    import importlib
    import os

    # the package's .py files, in pkgutil.iter_modules' (sorted) order; pkgutil itself
    # imports inspect, ~8 ms of every start-up
    for d in __path__:
        for name in sorted(os.listdir(d)):
            if name.endswith(".py") and name != "__init__.py":
                importlib.import_module(f"{__name__}.{name[:-3]}")
    _loaded = True

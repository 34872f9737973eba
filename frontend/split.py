"""A large module's top-level ops in parts that can be analysed and bufferized one at a
time (bufferlog/parts.py), so that only one part's facts and engine state are alive.

Two top-level ops are in the same part when one names the other: a symbol reference
(``func.call @f``, ``memref.get_global @g``, any ``SymbolRefAttr`` at any depth of its
attributes or of its nested ops' attributes) joins the referring op to the op defining
that symbol. The parts are unions of the connected components of that graph: every
function is analysed with its callees and callers, and nothing outside a part names
anything inside it. Ops that define no symbol are all kept together in one component.
A module whose attributes may hide references (an opaque attribute naming ``@...``),
or whose top-level ops define or use values, is not split.
"""

from __future__ import annotations

from collections.abc import Iterator

from bufferlog.frontend import attrs as A
from bufferlog.frontend.ir import Block, Module, Op, Region

from bufferlog.core.unionfind import UnionFind


def _refs(attr) -> Iterator[str | None]:
    """The root names of the symbol references in ``attr`` (None: an opaque attribute
    that may hold one)."""
    stack = [attr]
    while stack:
        a = stack.pop()
        if isinstance(a, A.SymbolRefAttr):
            yield a.root
        elif isinstance(a, A.ArrayAttr):
            stack.extend(a.elems)
        elif isinstance(a, A.DictAttr):
            stack.extend(v for _, v in a.items)
        elif isinstance(a, A.OpaqueAttr) and "@" in a.text:
            yield None


def components(module: Module) -> tuple[list[list[int]], list[int]] | None:
    """The connected components of the module's top-level ops (their indices in the
    body, each component in body order, components by their first op) and each top-level
    op's op count (itself and every nested op); None if a reference cannot be read or a
    top-level op has operands or results."""
    ops = module.body.ops
    if any(op.results or op.operands for op in ops):  # values at module level: keep whole
        return None
    sets = UnionFind()
    defines = {}
    for i, op in enumerate(ops):
        sym = op.attrs.get("sym_name")
        if isinstance(sym, A.StringAttr):
            defines[sym.value] = i
    anonymous = [i for i, op in enumerate(ops) if not isinstance(op.attrs.get("sym_name"), A.StringAttr)]
    for i in anonymous[1:]:
        sets.union(anonymous[0], i)
    sizes = []
    for i, op in enumerate(ops):
        n = 0
        for o in op.walk():
            n += 1
            for a in o.attrs.values():
                if isinstance(a, A.SymbolRefAttr | A.ArrayAttr | A.DictAttr | A.OpaqueAttr):
                    for root in _refs(a):
                        if root is None:
                            return None
                        j = defines.get(root)
                        if j is not None:
                            sets.union(i, j)
        sizes.append(n)
    groups: dict[int, list[int]] = {}
    for i in range(len(ops)):  # in order: a component comes at its first op
        groups.setdefault(sets.find(i), []).append(i)
    return list(groups.values()), sizes


def parts(module: Module, max_ops: int) -> list[list[int]] | None:
    """The module's top-level op indices in parts of about ``max_ops`` ops each (a
    component larger than that is a part of its own), in body order of their first op;
    None when the module has at most ``max_ops`` ops or cannot be split."""
    n = 0
    for n, _ in enumerate(module.walk()):  # the module op, then every op in it
        if n > max_ops:
            break
    if n <= max_ops:
        return None
    found = components(module)
    if found is None:
        return None
    comps, sizes = found
    if len(comps) < 2:
        return None
    out: list[list[int]] = []
    cur: list[int] = []
    n = 0
    for comp in comps:
        k = sum(sizes[i] for i in comp)
        if cur and n + k > max_ops:
            out.append(sorted(cur))
            cur, n = [], 0
        cur += comp
        n += k
    if cur:
        out.append(sorted(cur))
    return out if len(out) > 1 else None


def submodule(module: Module, ops: list[Op]) -> Module:
    """A module holding ``ops`` (moved out of ``module``'s body, which still lists them
    until :func:`put_back`), with ``module``'s attributes, aliases and resources."""
    top = module.module_op
    sub = Op(top.name, [], [], dict(top.attrs), [Region([Block()])], loc=top.loc)
    for op in ops:
        sub.regions[0].entry.append(op)
    return Module(sub, module.file, module.aliases, module.type_aliases, module.resources,
                  module.explicit_module, module.source_lines)


def put_back(module: Module, where: list[int], sub: Module) -> list[Op]:
    """Return the part's ops (``sub``'s body, the ops that were at indices ``where`` of
    ``module``'s body, each maybe rewritten in place) to their places; the ops ``sub``
    gained before them (new globals) are returned. The part's ops must still be there,
    in order, after the new ones."""
    body = sub.body.ops
    k = len(body) - len(where)
    if k < 0 or any(body[k + j] is not module.body.ops[i] for j, i in enumerate(where)):
        from bufferlog.core import InternalError

        raise InternalError("a part of the module lost or reordered its top-level ops")
    for i in where:
        module.body.ops[i].parent = module.body
    return body[:k]

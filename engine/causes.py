"""Words shared by the causes the backend writes on the ops it adds (printed with
``--mlir-print-debuginfo``) and by ``explain``: a place as ``line:col``, and the loop
iteration a conflict reaches back through."""

from __future__ import annotations

#: structured ops whose body runs again with what the previous iteration left
LOOPS = ("scf.for", "scf.while", "affine.for")


def at(an, o: int) -> str:
    """``line:col`` of op ``o`` (the file is the input's)."""
    _, ln, c = an.loc.get(o, ("-", 0, 0))
    return f"{ln}:{c}"


def next_iteration(an, read_op: int, write_op: int) -> str:
    """`` in the next iteration of the scf.while at 24:5`` when the read reaches the write
    only by going around a loop: it does not come after the write in the loop body (ops
    are numbered in program order) and a loop around the write holds it. Empty when the
    read follows the write in the same iteration."""
    if read_op > write_op:
        return ""
    o = an.parent_op.get(write_op)
    while o is not None and o not in an.func_ops:
        if an.name.get(o) in LOOPS and o < read_op <= an.span.get(o, o):
            return f" in the next iteration of the {an.name[o]} at {at(an, o)}"
        o = an.parent_op.get(o)
    return ""


def raw_words(an, write_op: int, read_op: int) -> str:
    """A read-after-write conflict in words: ``the write by X at L would clobber the value
    the Y at L reads later[ in the next iteration of ...]``."""
    return (f"the write by {an.name[write_op]} at {at(an, write_op)} would clobber the "
            f"value the {an.name[read_op]} at {at(an, read_op)} reads later"
            + next_iteration(an, read_op, write_op))

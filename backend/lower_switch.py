"""Lower every multi-way branch (``cf.switch``) into a chain of two-way ones before
deallocation, so that the dealloc backend's two-way branch model (edges ``c`` / ``not
c``, per-edge retain and dealloc sets) applies to it. The lowering is the op's own
(``backend/ops/cf.py``, ``lower_switch``)."""

from __future__ import annotations

from bufferlog.frontend.ir import Module

from .ir_edit import walk_ops
from .ops import SWITCH, has


def lower_switches(module: Module) -> int:
    """Rewrite every switch in ``module``; return how many were lowered."""
    from .ops.cf import lower_switch

    switches = [op for op in walk_ops(module) if has(op, SWITCH)]
    for sw in switches:
        lower_switch(sw)
    return len(switches)

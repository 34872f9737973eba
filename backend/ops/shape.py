"""shape: ``shape.assuming`` runs its one region once; the operands of its
``shape.assuming_yield`` are its results (memref programs the deallocation reads; no op
of this dialect is bufferized).
"""

from __future__ import annotations

from . import mem, op

op("shape.assuming", mem.region_branch())
op("shape.assuming_yield", mem.yield_())

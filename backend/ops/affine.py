"""affine: loads and stores through affine maps, and the affine region ops (memref
programs the deallocation and the certificate of the output read; no tensor op of this
dialect is bufferized).

Deallocation: ``affine.if`` runs one of its regions (an absent else: none) and yields its
results as ``scf.if`` does; ``affine.for``'s body may run many times (its loop-carried
values follow its bound operands, a variable number: a memref iter_arg is refused).
"""

from __future__ import annotations

from . import mem, op

op("affine.load", mem.access(), mem.read(0))
op("affine.store", mem.access(), mem.write(1), mem.write_only(1))
op("affine.if", mem.region_branch())
op("affine.yield", mem.yield_())
op("affine.for", mem.repetitive())

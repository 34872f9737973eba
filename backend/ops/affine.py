"""affine: loads and stores through affine maps (memref programs the deallocation and the
certificate of the output read; no tensor op of this dialect is bufferized)."""

from __future__ import annotations

from . import mem, op

op("affine.load", mem.access(), mem.read(0))
op("affine.store", mem.access(), mem.write(1))

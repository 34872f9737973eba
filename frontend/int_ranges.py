"""Which integer literals MLIR accepts where (mlir-opt-22's verdicts, checked by
tests/test_frontend_limits.py), so that an out-of-range literal is a located input
error and never reaches the analysis as a silently wrapped or oversized number.

* Integer attributes ``v : iN`` (signless) hold ``-2^(N-1) <= v < 2^N`` (either reading
  of the bits); ``siN`` the signed range, ``uiN`` the unsigned one (a negative literal is
  its own error); ``index`` is signed 64-bit; without a type an integer attribute is
  ``i64``. ``array<iN: ...>`` elements and integer ``dense<...>`` elements follow the
  same rule (``i1`` arrays take only ``true``/``false``).
* Plain 64-bit fields of custom syntax (slice offsets/sizes/strides, loop bounds, case
  values, output shapes) are signed 64-bit, and ``-2^63`` is taken: it is MLIR's
  "dynamic" marker in ``static_*`` arrays.
* Shape dimensions are ``0 <= d < 2^63``; integer types are at most 16,777,215 bits;
  strided layout entries are signed 64-bit.
"""

from __future__ import annotations

import re

from . import types as T

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
MAX_INT_WIDTH = 16_777_215


def attr_range(t: Any) -> tuple[int, int] | None:
    """[lo, hi] of integer attributes of type ``t`` (None: not an integer type)."""
    if isinstance(t, T.IndexType):
        return INT64_MIN, INT64_MAX
    if isinstance(t, T.IntegerType):
        w = t.width
        if t.signedness == "s":
            return -(2 ** (w - 1)), 2 ** (w - 1) - 1
        if t.signedness == "u":
            return 0, 2**w - 1
        return -(2 ** (w - 1)), 2**w - 1
    return None


def attr_error(v: int, t: Any) -> str | None:
    """Why ``v : t`` is not a valid integer attribute (None: it is)."""
    r = attr_range(t)
    if r is None:
        return None
    if v < 0 and isinstance(t, T.IntegerType) and t.signedness == "u":
        return "negative integer literal not valid for unsigned integer type"
    if not r[0] <= v <= r[1]:
        return "integer constant out of range for attribute"
    return None


def int64_error(v: int) -> str | None:
    if not INT64_MIN < v <= INT64_MAX:
        return "integer value too large"
    return None


def dense_error(body: str, elem: Any) -> tuple[int, str] | None:
    """(offset in ``body``, message) of the first integer element of a ``dense<body>``
    literal with element type ``elem`` that MLIR rejects; None when all fit (or the
    elements are not integers, or ``body`` is a hex blob). Scans the raw text without
    decoding it; only literals long enough to be out of range are converted. The offset
    is past a minus sign, where mlir-opt points."""
    r = attr_range(elem)
    if r is None or body.lstrip().startswith('"'):
        return None
    if r[0] == 0:
        m = re.search(r"-[0-9]", body)
        if m:
            return m.start() + 1, "expected unsigned integer elements, but parsed negative value"
        digits = len(str(r[1]))
    else:
        digits = min(len(str(-r[0])), len(str(r[1])))
    for m in re.finditer(rf"(-?)(0[xX][0-9A-Fa-f]+|[0-9]{{{digits},}})", body):
        sign, s = m.groups()
        v = int(s, 16) if s[1:2] in ("x", "X") else int(s)
        if not r[0] <= (-v if sign else v) <= r[1]:
            return m.start(2), "integer constant out of range for type"
    return None

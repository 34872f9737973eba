"""MLIR builtin types as immutable values whose ``str()`` is the MLIR spelling.

Dynamic dimensions are ``None`` in ``shape`` tuples and print as ``?``.
"""

from __future__ import annotations

import math

from bufferlog.core.records import value_class

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


class Type:
    """Base class of all types."""

    def __str__(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


def _dims(shape: tuple[int | None, ...]) -> str:
    got = _DIMS.get(shape)
    if got is None:
        if len(_DIMS) > 4096:
            _DIMS.clear()
        got = _DIMS[shape] = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return got


_DIMS: dict[tuple[int | None, ...], str] = {}  #: shape -> its "4x?x" text (a module has few)


@value_class
class IntegerType(Type):
    width: int
    signedness: str = ""  # "", "s" or "u"

    def __str__(self) -> str:
        return f"{self.signedness}i{self.width}"


@value_class
class IndexType(Type):
    def __str__(self) -> str:
        return "index"


FLOAT_WIDTHS = {
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19,
    "f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6, "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8,
    "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8,
}


@value_class
class FloatType(Type):
    name: str  # "f32", "bf16", ...

    @property
    def width(self) -> int:
        return FLOAT_WIDTHS[self.name]

    def __str__(self) -> str:
        return self.name


@value_class
class NoneType(Type):
    def __str__(self) -> str:
        return "none"


@value_class
class ComplexType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"complex<{self.elem}>"


@value_class
class TupleType(Type):
    elems: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(map(str, self.elems)) + ">"


@value_class
class VectorType(Type):
    shape: tuple[int, ...]
    elem: Type
    scalable: tuple[bool, ...] = ()

    def __str__(self) -> str:
        sc = self.scalable or (False,) * len(self.shape)
        dims = "".join((f"[{d}]" if s else str(d)) + "x" for d, s in zip(self.shape, sc, strict=True))
        return f"vector<{dims}{self.elem}>"


@value_class
class TensorType(Type):
    shape: tuple[int | None, ...]
    elem: Type
    encoding: Any = None  # an Attr or None

    def __str__(self) -> str:
        enc = f", {self.encoding}" if self.encoding is not None else ""
        return f"tensor<{_dims(self.shape)}{self.elem}{enc}>"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def has_static_shape(self) -> bool:
        return all(d is not None for d in self.shape)


@value_class
class UnrankedTensorType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"tensor<*x{self.elem}>"


@value_class
class MemRefType(Type):
    shape: tuple[int | None, ...]
    elem: Type
    layout: Any = None  # an Attr (StridedLayoutAttr, AffineMapAttr, ...) or None = identity
    memspace: Any = None  # an Attr or None

    def __str__(self) -> str:
        extra = ""
        if self.layout is not None:
            extra += f", {self.layout}"
        if self.memspace is not None:
            extra += f", {self.memspace}"
        return f"memref<{_dims(self.shape)}{self.elem}{extra}>"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def has_static_shape(self) -> bool:
        return all(d is not None for d in self.shape)


@value_class
class UnrankedMemRefType(Type):
    elem: Type
    memspace: Any = None

    def __str__(self) -> str:
        ms = f", {self.memspace}" if self.memspace is not None else ""
        return f"memref<*x{self.elem}{ms}>"


@value_class
class FunctionType(Type):
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = "(" + ", ".join(map(str, self.inputs)) + ")"
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"{ins} -> {self.results[0]}"
        return f"{ins} -> (" + ", ".join(map(str, self.results)) + ")"


@value_class
class OpaqueType(Type):
    """Any type the frontend does not model (``!llvm.ptr``, ``!foo.bar<...>``), kept
    verbatim including the leading ``!``."""

    text: str

    def __str__(self) -> str:
        return self.text


# -- helpers used by facts export, analysis and backend ---------------------------------

def is_tensor(t: Any) -> bool:
    return isinstance(t, TensorType | UnrankedTensorType)


def is_memref(t: Any) -> bool:
    return isinstance(t, MemRefType | UnrankedMemRefType)


def is_shaped(t: Any) -> bool:
    return is_tensor(t) or is_memref(t) or isinstance(t, VectorType)


def element_bits(t: Type) -> int | None:
    """Storage bits of one element as laid out in memory (i1 occupies a byte)."""
    if isinstance(t, IntegerType):
        return max(8, 8 * math.ceil(t.width / 8))
    if isinstance(t, FloatType):
        w = t.width
        return 32 if w == 19 else max(8, 8 * math.ceil(w / 8))
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, ComplexType):
        b = element_bits(t.elem)
        return None if b is None else 2 * b
    if isinstance(t, VectorType):
        b = element_bits(t.elem)
        return None if b is None else b * math.prod(t.shape)
    return None


def static_bytes(t: Any) -> int | None:
    """Bytes a buffer of this shaped type occupies, or None if any dim is dynamic."""
    if isinstance(t, TensorType | MemRefType):
        if not t.has_static_shape():
            return None
        b = element_bits(t.elem)
        return None if b is None else (b // 8) * math.prod(t.shape)
    return None


def tensor_to_memref(t: TensorType | UnrankedTensorType, layout: Any = None) -> Type:
    """The memref type a tensor bufferizes to (identity layout unless given)."""
    if isinstance(t, UnrankedTensorType):
        return UnrankedMemRefType(t.elem)
    return MemRefType(t.shape, t.elem, layout)

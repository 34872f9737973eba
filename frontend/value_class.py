"""``@value_class``: an immutable value type (fields from the class annotations, with
defaults), like ``@dataclass(frozen=True)`` but without generating and compiling source
code for every class: the 30 type and attribute classes cost ~20 ms of every process
start-up as dataclasses, almost nothing this way. ``replace(obj, **changes)`` copies
with changes, like ``dataclasses.replace``."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, TypeVar

C = TypeVar("C", bound=type)


def value_class(cls: C) -> C:
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = tuple(cls.__dict__[n] for n in names if n in cls.__dict__)
    required = len(names) - len(defaults)
    key = attrgetter(*names) if names else (lambda self: ())

    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        if kw or not required <= len(args) <= len(names):
            args = _bind(cls, names, defaults, args, kw)
        elif len(args) < len(names):
            args = args + defaults[len(args) - required:]
        self.__dict__.update(zip(names, args, strict=True))  # past the frozen __setattr__

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __repr__(self: Any) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{cls.__name__}({args})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field '{name}' of immutable {cls.__name__}")

    for f in (__init__, __eq__, __hash__, __setattr__):
        f.__qualname__ = f"{cls.__qualname__}.{f.__name__}"
        setattr(cls, f.__name__, f)
    if "__repr__" not in cls.__dict__:
        __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
        cls.__repr__ = __repr__
    cls.__delattr__ = __setattr__
    cls._fields = names
    return cls


def _bind(cls: type, names: tuple[str, ...], defaults: tuple[Any, ...], args: tuple[Any, ...],
          kw: dict[str, Any]) -> tuple[Any, ...]:
    """Positional + keyword arguments -> all field values in order (or a TypeError)."""
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__}() takes {len(names)} arguments, got {len(args)}")
    first_default = len(names) - len(defaults)
    out = list(args)
    for i in range(len(args), len(names)):
        n = names[i]
        if n in kw:
            out.append(kw.pop(n))
        elif i >= first_default:
            out.append(defaults[i - first_default])
        else:
            raise TypeError(f"{cls.__name__}() missing argument '{n}'")
    if kw:
        raise TypeError(f"{cls.__name__}() got unexpected argument(s) {', '.join(kw)}")
    return tuple(out)


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of value ``obj`` with some fields changed."""
    values = [changes.pop(n, getattr(obj, n)) for n in obj._fields]
    if changes:
        raise TypeError(f"{type(obj).__name__} has no field(s) {', '.join(changes)}")
    return type(obj)(*values)

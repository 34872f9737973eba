"""Record classes without generated code, for every layer of bufferlog.

``@value_class`` (immutable, compared and hashed by value) and ``@record`` (mutable,
compared by value, unhashable) take their fields from the class's own annotations, in
order, with the class attributes as defaults, like ``@dataclass(frozen=True)`` and
``@dataclass``. A ``dataclass`` compiles source code for each method of each class:
about 0.7 ms a class, 30 ms for bufferlog's 44 at every start, plus 8 ms to import
``dataclasses`` and ``inspect``. These decorators build each method from one shared
closure instead (tens of microseconds a class); the cost moves to instance creation,
which is generic (``*args``), a fraction of a microsecond more per object.

``field(default, factory=, compare=, repr=)`` is a field's options (``factory``: called for
a fresh default per object, as dataclasses' ``default_factory``); ``fields``, ``asdict``
and ``replace`` work like their ``dataclasses`` namesakes. A class may define
``__post_init__`` (called after the fields are set) and its own ``__repr__``."""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any, TypeVar
    C = TypeVar("C", bound=type)

MISSING: Any = type("MISSING", (), {"__repr__": lambda self: "MISSING"})()


class Field:
    """One field of a record class: its ``name``, annotation (``type``, a string under
    ``from __future__ import annotations``), ``default`` or ``factory`` (MISSING/None when
    required), and whether it takes part in ``==``/``hash`` and ``repr``."""

    __slots__ = ("name", "type", "default", "factory", "compare", "repr")

    def __init__(self, name: str, type: Any, default: Any = MISSING, factory: Any = None,
                 compare: bool = True, repr: bool = True):
        self.name, self.type, self.default, self.factory = name, type, default, factory
        self.compare, self.repr = compare, repr


class _Options:
    """What ``field()`` returns: a field's options, read by the class decorators."""

    __slots__ = ("default", "factory", "compare", "repr")

    def __init__(self, default: Any, factory: Any, compare: bool, repr: bool):
        self.default, self.factory, self.compare, self.repr = default, factory, compare, repr


def field(default: Any = MISSING, *, factory: Any = None, compare: bool = True,
          repr: bool = True) -> Any:
    """A field's options, as its class attribute (``x: list = field(factory=list)``)."""
    return _Options(default, factory, compare, repr)


def value_class(cls: C) -> C:
    """An immutable value type (see the module doc)."""
    return _build(cls, frozen=True)


def record(cls: C) -> C:
    """A mutable record type (see the module doc)."""
    return _build(cls, frozen=False)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order."""
    return obj.__record_fields__


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of record ``obj`` with some fields changed."""
    values = [changes.pop(f.name, getattr(obj, f.name)) for f in obj.__record_fields__]
    if changes:
        raise TypeError(f"{type(obj).__name__} has no field(s) {', '.join(changes)}")
    return type(obj)(*values)


def asdict(obj: Any) -> Any:
    """Record ``obj`` as a dict of its fields, records inside it (also in lists, tuples and
    dicts) converted too."""
    if hasattr(type(obj), "__record_fields__"):
        return {f.name: asdict(getattr(obj, f.name)) for f in obj.__record_fields__}
    if isinstance(obj, list | tuple):
        return type(obj)(asdict(x) for x in obj) if not hasattr(obj, "_fields") else \
            type(obj)(*(asdict(x) for x in obj))
    if isinstance(obj, dict):
        return {asdict(k): asdict(v) for k, v in obj.items()}
    return obj


def _build(cls: C, frozen: bool) -> C:
    own = cls.__dict__
    specs: list[Field] = []
    for name, typ in own.get("__annotations__", {}).items():
        value = own.get(name, MISSING)
        if isinstance(value, _Options):
            specs.append(Field(name, typ, value.default, value.factory, value.compare,
                                   value.repr))
            if value.default is MISSING and name in own:
                delattr(cls, name)  # no class attribute for a field without a plain default
            elif name in own:
                setattr(cls, name, value.default)
        else:
            specs.append(Field(name, typ, value))
    required = 0  # the fields without a default come first
    for k, f in enumerate(specs):
        if f.default is MISSING and f.factory is None:
            if required < k:
                raise TypeError(f"{cls.__name__}: field '{f.name}' without a default "
                                "follows one with a default")
            required += 1
    names = tuple(f.name for f in specs)
    plain = all(f.factory is None for f in specs)
    defaults = tuple(f.default for f in specs[required:]) if plain else ()
    compared = [f.name for f in specs if f.compare]
    key = (lambda self: ()) if not compared else (
        attrgetter(*compared) if len(compared) > 1 else _single(compared[0]))
    shown = [f.name for f in specs if f.repr]
    post_init = getattr(cls, "__post_init__", None)

    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        if kw or len(args) != len(names):
            if plain and not kw and required <= len(args) < len(names):
                args = args + defaults[len(args) - required:]
            else:
                args = _bind(cls, specs, args, kw)
        self.__dict__.update(zip(names, args, strict=True))  # past a frozen class's __setattr__
        if post_init is not None:
            post_init(self)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __repr__(self: Any) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
        return f"{cls.__qualname__}({args})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field '{name}' of immutable {cls.__name__}")

    methods = [__init__, __eq__]
    if frozen:
        methods += [__hash__, __setattr__]
        cls.__delattr__ = __setattr__
    else:
        cls.__hash__ = None  # mutable and compared by value: unhashable, as dataclasses do
    if "__repr__" not in own:
        methods.append(__repr__)
    for f in methods:
        f.__qualname__ = f"{cls.__qualname__}.{f.__name__}"
        setattr(cls, f.__name__, f)
    cls.__record_fields__ = tuple(specs)
    cls.__match_args__ = names
    cls._fields = names
    return cls


def _single(name: str) -> Any:
    get = attrgetter(name)
    return lambda self: (get(self),)


def _bind(cls: type, specs: list[Field], args: tuple[Any, ...],
          kw: dict[str, Any]) -> tuple[Any, ...]:
    """Positional + keyword arguments -> all field values in order (or a TypeError)."""
    if len(args) > len(specs):
        raise TypeError(f"{cls.__name__}() takes {len(specs)} arguments, got {len(args)}")
    out = list(args)
    for f in specs[len(args):]:
        if f.name in kw:
            out.append(kw.pop(f.name))
        elif f.factory is not None:
            out.append(f.factory())
        elif f.default is not MISSING:
            out.append(f.default)
        else:
            raise TypeError(f"{cls.__name__}() missing argument '{f.name}'")
    for f in specs[:len(args)]:
        if f.name in kw:
            raise TypeError(f"{cls.__name__}() got multiple values for argument '{f.name}'")
    if kw:
        raise TypeError(f"{cls.__name__}() got unexpected argument(s) {', '.join(kw)}")
    return tuple(out)

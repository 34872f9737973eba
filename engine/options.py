"""One-Shot Bufferize's options, in mlir-opt's vocabulary.

``OneShotOptions`` holds the options bufferlog implements; ``parse_pass_options`` reads a
verbatim ``--one-shot-bufferize="..."`` option string (``name``, ``name=value``, ``name=0|1``
or ``true|false``, separated by spaces) into them. An option mlir-opt has and bufferlog does
not implement is a clear error, never ignored silently."""

from __future__ import annotations

from bufferlog.core import UserError
from bufferlog.core.records import fields, replace, value_class

HEURISTICS = ("bottom-up", "top-down", "bottom-up-from-terminators")
LAYOUTS = ("identity-layout-map", "fully-dynamic-layout-map", "infer-layout-map")


@value_class
class OneShotOptions:
    """What the analysis and the bufferizer take from mlir-opt's One-Shot options (our
    defaults differ from mlir-opt's in two places, on purpose: function boundaries are
    bufferized, and loops may return fresh buffers)."""

    bufferize_function_boundaries: bool = True
    analysis_heuristic: str = "bottom-up"
    allow_unknown_ops: bool = False
    allow_return_allocs_from_loops: bool = True
    function_boundary_type_conversion: str = "identity-layout-map"
    unknown_type_conversion: str = "fully-dynamic-layout-map"
    copy_before_write: bool = False
    dump_alias_sets: bool = False
    test_analysis_only: bool = False
    print_conflicts: bool = False

    def __post_init__(self) -> None:
        if self.analysis_heuristic not in HEURISTICS:
            raise UserError(f"analysis-heuristic: '{self.analysis_heuristic}' is not one of "
                            f"{', '.join(HEURISTICS)}")
        for name in ("function_boundary_type_conversion", "unknown_type_conversion"):
            v = getattr(self, name)
            if v not in LAYOUTS:
                raise UserError(f"{name.replace('_', '-')}: '{v}' is not one of {', '.join(LAYOUTS)}")
        if self.unknown_type_conversion == "infer-layout-map":
            raise UserError("unknown-type-conversion: 'infer-layout-map' is not valid "
                            "(mlir-opt allows only identity-layout-map and fully-dynamic-layout-map)")
        if not self.allow_return_allocs_from_loops:
            raise UserError("allow-return-allocs-from-loops=false is not supported by bufferlog "
                            "(loops may always return fresh buffers)")

    def rule_facts(self) -> dict[str, list[tuple]]:
        """The options the rules read (rules/schema.dl ``option_off``)."""
        off = [] if self.bufferize_function_boundaries else [("bufferize-function-boundaries",)]
        return {"option_off": off}


#: mlir-opt's One-Shot options bufferlog knows but does not implement, with why
UNSUPPORTED = {
    "analysis-fuzzer-seed": "a testing aid of mlir-opt's",
    "buffer-alignment": "bufferlog's allocations carry no alignment",
    "check-parallel-regions": "parallel regions are always checked",
    "dialect-filter": "every dialect bufferlog knows is bufferized",
    "no-analysis-func-filter": "every function is analysed",
    "must-infer-memory-space": "memory spaces are kept as written",
    "use-encoding-for-memory-space": "tensor encodings are not memory spaces here",
}


def parse_pass_options(text: str, base: OneShotOptions | None = None) -> OneShotOptions:
    """``base`` updated by a verbatim One-Shot option string, e.g.
    ``"bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"``."""
    names = {f.name.replace("_", "-"): f for f in fields(OneShotOptions)}
    changes: dict[str, object] = {}
    for item in text.split():
        key, sep, value = item.partition("=")
        if key in UNSUPPORTED:
            raise UserError(f"--one-shot-bufferize: option '{key}' is not supported by bufferlog "
                            f"({UNSUPPORTED[key]})")
        f = names.get(key)
        if f is None:
            raise UserError(f"--one-shot-bufferize: unknown option '{key}' (bufferlog takes "
                            f"{', '.join(sorted(names))})")
        if f.type in (bool, "bool"):
            if not sep:
                changes[f.name] = True
            elif value.lower() in ("1", "true"):
                changes[f.name] = True
            elif value.lower() in ("0", "false"):
                changes[f.name] = False
            else:
                raise UserError(f"--one-shot-bufferize: option '{key}' takes true/false, not '{value}'")
        else:
            if not sep:
                raise UserError(f"--one-shot-bufferize: option '{key}' needs a value ({key}=...)")
            changes[f.name] = value
    return replace(base or OneShotOptions(), **changes)

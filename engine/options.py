"""One-Shot Bufferize's options, in mlir-opt's vocabulary.

``OneShotOptions`` holds the options bufferlog implements; ``parse_pass_options`` reads a
verbatim ``--one-shot-bufferize="..."`` option string (``name``, ``name=value``, ``name=0|1``
or ``true|false``, separated by spaces) into them. An option mlir-opt has and bufferlog does
not implement is a clear error, never ignored silently.

Two sets of defaults: ``OneShotOptions()`` is bufferlog's (function boundaries bufferized,
loops may return fresh buffers, identity-layout signatures, conflicts printed by
``analyze``); ``OneShotOptions.mlir_opt()`` is mlir-opt's, the meaning of every option an
option string leaves out (``parse_pass_options`` starts from it): a pasted string means
what it means to mlir-opt."""

from __future__ import annotations

from bufferlog.core import UserError
from bufferlog.core.records import fields, replace, value_class

HEURISTICS = ("bottom-up", "top-down", "bottom-up-from-terminators")
LAYOUTS = ("identity-layout-map", "fully-dynamic-layout-map", "infer-layout-map")


@value_class
class OneShotOptions:
    """What the analysis and the bufferizer take from mlir-opt's One-Shot options. These
    defaults are bufferlog's; they differ from mlir-opt's (:meth:`mlir_opt`) on purpose in
    four places: function boundaries are bufferized, loops may return fresh buffers,
    signatures get the identity layout, and ``analyze`` prints the conflicts."""

    bufferize_function_boundaries: bool = True
    analysis_heuristic: str = "bottom-up"
    allow_unknown_ops: bool = False
    allow_return_allocs_from_loops: bool = True
    function_boundary_type_conversion: str = "identity-layout-map"
    unknown_type_conversion: str = "fully-dynamic-layout-map"
    copy_before_write: bool = False
    dump_alias_sets: bool = False
    test_analysis_only: bool = False
    print_conflicts: bool = True

    @classmethod
    def mlir_opt(cls) -> OneShotOptions:
        """mlir-opt-22's defaults for ``--one-shot-bufferize``."""
        return cls(bufferize_function_boundaries=False, allow_return_allocs_from_loops=False,
                   function_boundary_type_conversion="infer-layout-map", print_conflicts=False)

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

    def rule_facts(self) -> dict[str, list[tuple]]:
        """The options the rules read (rules/schema.dl ``option_off``)."""
        off = [] if self.bufferize_function_boundaries else [("bufferize-function-boundaries",)]
        return {"option_off": off}


#: mlir-opt's One-Shot options bufferlog knows but does not implement, with why; each is
#: accepted at mlir-opt's default value (the second item), which is bufferlog's behaviour
UNSUPPORTED = {
    "analysis-fuzzer-seed": ("a testing aid of mlir-opt's", "0"),
    "buffer-alignment": ("bufferlog's allocations carry no alignment attribute", "0"),
    "check-parallel-regions": ("parallel regions are always checked", "true"),
    "dialect-filter": ("every dialect bufferlog knows is bufferized", ""),
    "no-analysis-func-filter": ("every function is analysed", ""),
    "must-infer-memory-space": ("memory spaces are kept as written", "false"),
    "use-encoding-for-memory-space": ("tensor encodings are not memory spaces here", "false"),
}
_TRUE, _FALSE = ("1", "true"), ("0", "false")


def parse_pass_options(text: str, base: OneShotOptions | None = None) -> OneShotOptions:
    """``base`` (default: mlir-opt's defaults, :meth:`OneShotOptions.mlir_opt`) updated by
    a verbatim One-Shot option string, e.g. ``"bufferize-function-boundaries
    function-boundary-type-conversion=identity-layout-map"``."""
    names = {f.name.replace("_", "-"): f for f in fields(OneShotOptions)}
    changes: dict[str, object] = {}
    for item in text.split():
        key, sep, value = item.partition("=")
        if key in UNSUPPORTED:
            why, default = UNSUPPORTED[key]
            same = value.lower() == default or (default in _TRUE and value.lower() in _TRUE) or (
                default in _FALSE and value.lower() in _FALSE)
            if (sep and same) or (not sep and default == "true"):
                continue  # mlir-opt's default: what bufferlog does
            raise UserError(f"--one-shot-bufferize: option '{key}' is not supported by bufferlog "
                            f"({why}; only {key}={default or '(empty)'} is accepted)")
        f = names.get(key)
        if f is None:
            from difflib import get_close_matches

            near = get_close_matches(key, [*names, *UNSUPPORTED], n=1)
            hint = f"did you mean '{near[0]}'? " if near else ""
            raise UserError(f"--one-shot-bufferize: unknown option '{key}' ({hint}bufferlog takes "
                            f"{', '.join(sorted(names))})")
        if f.type in (bool, "bool"):
            if not sep or value.lower() in _TRUE:
                changes[f.name] = True
            elif value.lower() in _FALSE:
                changes[f.name] = False
            else:
                raise UserError(f"--one-shot-bufferize: option '{key}' takes true/false or 1/0, "
                                f"not '{value}'")
        else:
            if not sep:
                raise UserError(f"--one-shot-bufferize: option '{key}' needs a value ({key}=...)")
            changes[f.name] = value
    opts = replace(base or OneShotOptions.mlir_opt(), **changes)
    for needs in ("print_conflicts", "dump_alias_sets"):
        if changes.get(needs) and not opts.test_analysis_only:
            raise UserError(f"--one-shot-bufferize: option '{needs.replace('_', '-')}' requires "
                            "'test-analysis-only' (as in mlir-opt)")
    return opts

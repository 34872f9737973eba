"""mlir-opt's bufferization passes, in mlir-opt's syntax, run by bufferlog's stages
(``bufferlog opt``, ``bufferlog-opt``).

A pipeline is a list of passes, given as mlir-opt's flags in order
(``-one-shot-bufferize="..." -buffer-deallocation-pipeline``) or as its textual form
(``--pass-pipeline="builtin.module(one-shot-bufferize{...}, func.func(buffer-hoisting))"``).
Each pass maps onto one stage:

======================================  ==================================================
``one-shot-bufferize{...}``             the analysis and the tensor-to-memref rewrite (the
                                        option string read from mlir-opt's defaults);
                                        ``test-analysis-only`` prints the annotated input
``drop-equivalent-buffer-results``      backend/plan_drop.py (private functions)
``buffer-hoisting``                     backend/plan_hoist.py (an allocation made in both
                                        branches of an ``scf.if`` made once before it)
``buffer-loop-hoisting``                backend/plan_stack.py ``hoist_out_of_loops``
``promote-buffers-to-stack{...}``       backend/plan_stack.py ``promote_to_stack``
``expand-realloc{emit-deallocs=...}``   backend/expand_realloc.py
``buffer-deallocation-pipeline``        ownership-based deallocation lowered to
                                        ``memref.dealloc`` (backend/dealloc.py), buffers
                                        freed where mlir-opt frees them; the copies of a
                                        buffer onto itself and ``scf.if`` on constants its
                                        canonicalization removes are folded first
``ownership-based-buffer-deallocation`` the same deallocation, written as
                                        ``bufferization.dealloc`` ops
======================================  ==================================================

Any other pass is an error naming it. bufferlog's stages work on IR without
deallocations: a deallocation pass is refused on input that frees buffers already (as
mlir-opt refuses it), and the placement passes (hoisting, stack promotion, dropping
results) must come before the deallocation pass.
"""

from __future__ import annotations

from bufferlog.core import UserError
from bufferlog.core.records import value_class

#: pass name -> (where mlir-opt runs it: "module", "func" or "any"; its options with
#: mlir-opt's defaults; what it does here, for --help)
PASSES: dict[str, tuple[str, dict[str, str], str]] = {
    "one-shot-bufferize": ("module", {}, "the in-place analysis and the rewrite to memrefs"),
    "drop-equivalent-buffer-results": (
        "module", {}, "drop the results of private functions that are an argument's buffer"),
    "buffer-hoisting": ("func", {}, "an allocation made in both branches of an scf.if is "
                                    "made once before it"),
    "buffer-loop-hoisting": ("func", {}, "allocations that die within one loop iteration "
                                         "are made once before the loop"),
    "promote-buffers-to-stack": (
        "func", {"max-alloc-size-in-bytes": "1024", "max-rank-of-allocated-memref": "1"},
        "small buffers that do not escape become memref.alloca"),
    "expand-realloc": ("any", {"emit-deallocs": "true"},
                       "memref.realloc as the allocation, copy and free it stands for"),
    "buffer-deallocation-pipeline": (
        "any", {"private-function-dynamic-ownership": "false"},
        "ownership-based deallocation, lowered to memref.dealloc"),
    "ownership-based-buffer-deallocation": (
        "any", {"private-function-dynamic-ownership": "false"},
        "ownership-based deallocation as bufferization.dealloc ops"),
}
DEALLOC = ("buffer-deallocation-pipeline", "ownership-based-buffer-deallocation")
PLACEMENT = ("drop-equivalent-buffer-results", "buffer-hoisting", "buffer-loop-hoisting",
             "promote-buffers-to-stack")


@value_class
class Pass:
    """One pass of a pipeline: its name and its option string as written."""

    name: str
    options: str = ""


def unknown_pass(name: str) -> UserError:
    from difflib import get_close_matches

    near = get_close_matches(name, list(PASSES), n=1)
    hint = f"did you mean '{near[0]}'? " if near else ""
    return UserError(f"pass '{name}' is not one bufferlog runs ({hint}bufferlog opt runs "
                     f"{', '.join(PASSES)})")


def pass_options(p: Pass) -> dict[str, str]:
    """The options of a pass other than ``one-shot-bufferize`` (read by
    :mod:`bufferlog.engine.options`): mlir-opt's defaults updated by its string; an
    unknown option, or a value bufferlog does not implement, is an error."""
    opts = dict(PASSES[p.name][1])
    for item in p.options.split():
        key, sep, value = item.partition("=")
        if key not in opts:
            raise UserError(f"pass '{p.name}': no such option '{key}'"
                            + (f" (it takes {', '.join(opts)})" if opts else " (it takes none)"))
        opts[key] = value if sep else "true"
    for key in ("private-function-dynamic-ownership",):
        if key in opts and opts[key].lower() not in ("false", "0"):
            raise UserError(f"pass '{p.name}': option '{key}' is not supported by bufferlog "
                            "(ownership is passed to private functions as to public ones)")
    for key in ("max-alloc-size-in-bytes", "max-rank-of-allocated-memref"):
        if key in opts and not opts[key].isdigit():
            raise UserError(f"pass '{p.name}': option '{key}' takes a number, not '{opts[key]}'")
    if "emit-deallocs" in opts and opts["emit-deallocs"].lower() not in ("true", "false", "1", "0"):
        raise UserError(f"pass '{p.name}': option 'emit-deallocs' takes true or false")
    return opts


# ------------------------------------------------------------------ the textual pipeline

def parse_pipeline(text: str) -> list[Pass]:
    """``builtin.module(pass{opts}, func.func(pass, ...), ...)`` (``any(...)`` too) as a
    flat list of passes, each checked against the op mlir-opt would run it on."""
    parser = _PipelineParser(text)
    anchor, passes = parser.nested()
    parser.end()
    if anchor not in ("builtin.module", "any"):
        raise parser.error(f"the pipeline must be anchored on builtin.module or any, not "
                           f"'{anchor}' (e.g. 'builtin.module(...)')")
    return passes


class _PipelineParser:
    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def error(self, message: str) -> UserError:
        return UserError(f"--pass-pipeline: {message} (at character {self.pos + 1} of "
                         f"'{self.text}')")

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def name(self) -> str:
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum() or
                                             self.text[self.pos] in "-_."):
            self.pos += 1
        if start == self.pos:
            raise self.error("expected a pass or an op name")
        return self.text[start:self.pos]

    def eat(self, c: str) -> bool:
        self.skip()
        if self.text.startswith(c, self.pos):
            self.pos += len(c)
            return True
        return False

    def end(self) -> None:
        self.skip()
        if self.pos != len(self.text):
            raise self.error("unexpected text after the pipeline")

    def nested(self, outer: str | None = None) -> tuple[str, list[Pass]]:
        anchor = self.name()
        if not self.eat("("):
            raise self.error("expected pass pipeline to be wrapped with the anchor "
                             "operation type, e.g. 'builtin.module(...)'")
        passes: list[Pass] = []
        if not self.eat(")"):
            while True:
                passes += self.item(anchor)
                if self.eat(")"):
                    break
                if not self.eat(","):
                    raise self.error("expected ',' or ')'")
        return anchor, passes

    def item(self, anchor: str) -> list[Pass]:
        start = self.pos
        name = self.name()
        if self.eat("("):
            self.pos = start
            inner, passes = self.nested()
            if inner not in ("func.func", "any"):
                raise self.error(f"bufferlog runs passes on builtin.module and func.func "
                                 f"only, not on '{inner}'")
            if anchor != "builtin.module" and inner == "func.func":
                raise self.error("func.func(...) must be nested in builtin.module(...)")
            return passes
        options = ""
        if self.eat("{"):
            close = self.text.find("}", self.pos)
            if close < 0:
                raise self.error("missing '}' after the pass options")
            options, self.pos = self.text[self.pos:close], close + 1
        if name not in PASSES:
            raise unknown_pass(name)
        where = PASSES[name][0]
        if where == "func" and anchor != "func.func":
            raise self.error(f"pass '{name}' runs on func.func: nest it, e.g. "
                             f"'builtin.module(func.func({name}))' (as mlir-opt requires)")
        if where == "module" and anchor != "builtin.module":
            raise self.error(f"pass '{name}' runs on builtin.module, not inside '{anchor}'")
        return [Pass(name, options)]


# ------------------------------------------------------------------------------ running

def check_order(passes: list[Pass]) -> None:
    """Refuse what bufferlog's stages cannot do in the order given (module doc)."""
    analysis_only = [p for p in passes if p.name == "one-shot-bufferize"
                     and "test-analysis-only" in p.options.split()]
    if analysis_only and passes[-1] is not analysis_only[0]:
        raise UserError("one-shot-bufferize{test-analysis-only} must be the last pass: "
                        "bufferlog prints the annotated input and stops there")
    freed = None
    for p in passes:
        if freed is not None and (p.name in PLACEMENT or p.name in DEALLOC):
            raise UserError(f"pass '{p.name}' after '{freed}': bufferlog places and frees "
                            f"buffers before it deallocates; put '{p.name}' first")
        if p.name in DEALLOC:
            freed = p.name


def run(module, passes: list[Pass], *, strategy: str = "oneshot", engine: str = "auto",
        rules=None, split_ops: int | None = None, debuginfo: bool = False,
        generic: bool = False) -> str:
    """Run ``passes`` on the parsed ``module`` and return the printed result."""
    from bufferlog.engine.options import parse_pass_options
    from bufferlog.frontend.printer import print_module

    check_order(passes)
    for p in passes:
        if p.name == "one-shot-bufferize":
            opts = parse_pass_options(p.options)
            if opts.test_analysis_only:
                from bufferlog.api import analyze

                return analyze(module, strategy=strategy, engine=engine, rules=rules,
                               options=opts, split_ops=split_ops).annotated(debuginfo, generic)
            from bufferlog.api import bufferize
            from bufferlog.backend.plan import PlanOptions

            bufferize(module, strategy=strategy, dealloc=False,
                      layout=opts.function_boundary_type_conversion, engine=engine,
                      rules=rules, options=opts, plan=PlanOptions.off(), split_ops=split_ops)
            continue
        o = pass_options(p)
        if p.name == "drop-equivalent-buffer-results":
            from bufferlog.backend.plan_drop import drop_equivalent_results

            drop_equivalent_results(module, "private")
        elif p.name == "buffer-hoisting":
            from bufferlog.backend.plan_hoist import hoist_to_dominator

            hoist_to_dominator(module)
        elif p.name == "buffer-loop-hoisting":
            from bufferlog.backend.plan_stack import hoist_out_of_loops

            hoist_out_of_loops(module)
        elif p.name == "promote-buffers-to-stack":
            from bufferlog.backend.plan_stack import promote_to_stack

            promote_to_stack(module, int(o["max-alloc-size-in-bytes"]))
        elif p.name == "expand-realloc":
            from bufferlog.backend.expand_realloc import expand_realloc

            expand_realloc(module, o["emit-deallocs"].lower() in ("true", "1"))
        else:  # a deallocation pass
            _deallocate(module, p, engine, rules)
    return print_module(module, generic=generic, debuginfo=debuginfo)


def _deallocate(module, p: Pass, engine: str, rules) -> None:
    from bufferlog.api import _deallocate as deallocate
    from bufferlog.backend.ir_edit import walk_ops
    from bufferlog.frontend import types as T

    on_tensors = next((op for op in walk_ops(module) if any(
        T.is_tensor(v.type) for v in [*op.operands, *op.results])), None)
    if on_tensors is not None:
        raise UserError(f"'{p.name}' on IR that still holds tensors (here a "
                        f"'{on_tensors.name}') is not supported by bufferlog (bufferize the "
                        "function boundaries too: -one-shot-bufferize=\"bufferize-function-"
                        "boundaries\")", on_tensors.loc)
    freed = next((op for op in walk_ops(module)
                  if op.name in ("memref.dealloc", "bufferization.dealloc")), None)
    if freed is not None:
        raise UserError(f"memory free side-effect on MemRef value not supported! (the input "
                        f"of '{p.name}' must free no buffer)", freed.loc)
    if p.name == "buffer-deallocation-pipeline":
        from bufferlog.backend.plan_fold import fold

        fold(module)
        deallocate(module, "memref-dealloc", engine, rules, False, False)
    else:
        deallocate(module, "bufferization-dealloc", engine, rules, False, False)

"""One-Shot in-place analysis: rules (rules/analysis.dl) + the greedy decision procedure
(engine/greedy.py), layer by layer of the call graph, then the rules' certificate.

``analyze_module`` runs the analysis rules once per layer of the call graph, callee
first: each run derives, for the functions of its layer (`check_func`), the RaW triples
and the per-use semantics, with the call semantics that the layers below summarise from
their decisions (`decided_func`). The decision procedure decides the layer (oneshot:
mlir-opt's greedy order; optimal: Z3, engine/optimal.py). A last run re-derives
everything with all decisions as facts: its certificate relations must be empty
(engine/certify.py). Z3 answers two oracle questions between runs, as facts: slice
parameters that are equal though written differently (`slices_equal`), and, with
``--z3-slices``, disjoint slices (`z3_disjoint`, engine/slices.py).
"""

from __future__ import annotations

from collections import defaultdict

from bufferlog.core import UserError
from bufferlog.core.timing import phase

from .greedy import Decisions, Greedy
from .interface import outputs
from .options import OneShotOptions
from .outputs import AnalysisOutputs
from .view import ProgramView

RULES_FILE = "analysis.dl"
ORACLE_ROUNDS = 8  # at most this many Z3 rounds per layer
#: what a run for a later layer reads: its triples and guards, and what the callees'
#: summaries change (the call operands' semantics); the rest is the first run's
LAYER_RELATIONS = AnalysisOutputs.LAYER  # rules/interface.dl: layer_output
#: what the certificate run reads: the certificate and the summaries mlir-opt prints
FINAL_RELATIONS = AnalysisOutputs.FINAL  # rules/interface.dl: final_output
#: the runs for the layers after the first hold only their functions' facts and, of their
#: decided callees, what the summaries read (engine/scope.py, decisions.callee_facts):
#: with the shipped rules, whose semantics of a function depend only on its body and its
#: callees' summaries (a --rules overlay may look across functions: it runs unscoped);
#: False: every run holds the whole module (tests compare both)
SCOPED = True


class Analysis(ProgramView):
    """The analysed module: its view (facts + the final rules run) and decision state."""

    greedy: Greedy
    final: dict[str, set]
    oracle: dict[str, set]
    summaries: dict[str, set]

    @property
    def inplace(self) -> dict:
        return self.greedy.inplace

    def kind(self, u, _v, k: str) -> str:
        return self.greedy.kind(u, k)


def call_layers(rows: dict) -> list[list[int]]:
    """Functions with bodies grouped callee first (from the facts), as mlir-opt orders its
    analysis: layer k calls only layers < k, counting calls with tensor operands or
    results. Functions in a call cycle, and those calling into one, cannot be ordered:
    they form the last layer, analysed without summaries (calls to them are conservative:
    rules/analysis/calls.dl `unsummarized`, mlir-opt's remaining functions)."""
    body = {sym: f for f, sym, _, decl in rows["func"] if not decl}
    sym_of = {f: sym for sym, f in body.items()}
    parent = {r: p for r, p, _ in rows["region"]}
    block_region = {b: r for b, r, _ in rows["block"]}
    parent_op = {o: parent[block_region[b]] for o, _, b, _ in rows["op"] if b >= 0}
    tensor = {v for (v,) in rows["tensor"]}
    tensor_op = {o for o, _, v in rows["operand"] if v in tensor} | {
        o for v, o, _ in rows["result"] if v in tensor}

    def enclosing(o: int) -> int | None:
        while o is not None and o not in sym_of:
            o = parent_op.get(o)
        return o

    callees: dict[int, set[int]] = defaultdict(set)
    callers: dict[int, set[int]] = defaultdict(set)
    for o, callee in rows["call"]:
        f = enclosing(o)
        if f is not None and callee in body and o in tensor_op:
            callees[f].add(body[callee])
            callers[body[callee]].add(f)
    left = {f: len(callees[f]) for f in body.values()}
    level: dict[int, int] = {}
    ready = sorted(f for f, n in left.items() if n == 0)
    while ready:  # Kahn's algorithm: a function once all its callees have a layer
        f = ready.pop()
        level[f] = 1 + max((level[c] for c in callees[f]), default=-1)
        for c in callers[f]:
            left[c] -= 1
            if left[c] == 0:
                ready.append(c)
    layers: list[list[int]] = [[] for _ in range(1 + max(level.values(), default=-1))]
    for f in sorted(level):
        layers[level[f]].append(f)
    remaining = sorted(f for f in body.values() if f not in level)
    return layers + [remaining] if remaining else layers


class Session:
    """Runs of rules/analysis.dl on one module's facts with the decisions made so far."""

    def __init__(self, rows: dict, engine: str, rules_dir, program=None, options=None):
        from .facts_io import validated
        from .interface import load

        self.engine = engine
        # a file of the directory that only deallocation reads (mem_* facts) is left out
        self.prog = program or load(RULES_FILE, rules_dir, foreign=("dealloc.dl",))
        # checked once here, not again by each run (a module's facts serve every run)
        self.rows = validated(self.prog, {**rows, **(options or OneShotOptions()).rule_facts()})
        self.oracle: dict[str, set] = {"slices_equal": set(), "z3_disjoint": set()}
        self.given: dict[str, set] = {"given_raw": set(), "given_parallel_write": set()}
        #: the read summaries of the functions analysed so far (a run uses its callees'
        #: summaries and derives its own functions', never both: no recursion through calls)
        self.summaries: dict[str, set] = {"callee_read": set(), "callee_summarized": set()}
        #: the call semantics the scoped runs derived, which the certificate run checks
        self.scoped: dict[str, set] = {"scoped_call": set(), "scoped_call_write": set(),
                                       "scoped_call_alias": set(), "scoped_call_shared": set()}
        self.scope = None  # the facts by function (engine/scope.py), for scoped runs
        self.callees: dict[int, dict] = {}  # decided function op -> decisions.callee_rows
        #: the unscoped runs share one clingo control holding the module's facts
        #: (engine/multishot.py); with Soufflé each run is a process of its own
        self.shared = None
        from .run import resolve_engine

        if resolve_engine(engine) == "embedded":
            from .decisions import DECISION_RELATIONS
            from .multishot import SharedRuns

            made = {*DECISION_RELATIONS, *self.oracle, *self.given, *self.summaries, *self.scoped}
            self.shared = SharedRuns(self.prog, {k: v for k, v in self.rows.items()
                                                 if k not in made},
                                     {*outputs(RULES_FILE), *LAYER_RELATIONS, *FINAL_RELATIONS})

    def close(self) -> None:
        """Free the shared clingo control (its runs are done)."""
        if self.shared is not None:
            self.shared.close()

    def run(self, check: list[int], decided: list[int], g: Greedy | None,
            relations=None, scoped: bool = False) -> AnalysisOutputs:
        """A run checking functions ``check`` with ``decided`` decided; ``scoped``: on their
        facts only, with what their decided callees' summaries read."""
        from .decisions import decision_facts
        from .facts_io import Validated
        from .run import run

        if scoped:
            facts, calls = self.scoped_facts(check, decided, g)
        else:
            facts = dict(self.rows)
            # made here from the decisions and from earlier runs' results: distinct tuples
            # of ids, so passed as validated (checking them cost ~0.1 s a run at 10,000 ops)
            facts.update({k: Validated(v) for k, v in decision_facts(g, check, decided).items()})
        made = (self.oracle, self.summaries) if scoped else (self.oracle, self.given,
                                                               self.summaries, self.scoped)
        for m in made:
            facts.update({k: Validated(sorted(v)) for k, v in m.items()})
        rel = AnalysisOutputs(run(self.prog, facts, engine=self.engine,
                                  relations=relations or outputs(RULES_FILE),
                                  shared=None if scoped else self.shared).relations)
        if scoped:
            self.scoped["scoped_call"] |= {(o,) for o, _ in calls}
            self.scoped["scoped_call_write"] |= rel.call_write
            self.scoped["scoped_call_alias"] |= rel.call_alias
            self.scoped["scoped_call_shared"] |= rel.call_shared
        return rel

    def scoped_facts(self, check: list[int], decided: list[int], g: Greedy
                     ) -> tuple[dict, list[tuple]]:
        """The facts of functions ``check`` and of the module, the decision facts of a run
        checking them, and the calls among those facts."""
        from .decisions import callee_facts, callee_rows
        from .facts_io import Validated
        from .scope import FactScope

        if self.scope is None:
            self.scope = FactScope(self.rows)
        facts = {k: v if type(v) is Validated else Validated(v)
                 for k, v in self.scope.facts(check).items()}
        view, done = g.view, set(decided)
        callees = {}
        for _, sym in facts["call"]:
            f, decl = view.funcs.get(sym, (None, 1))
            if f in done and not decl:
                if f not in self.callees:  # its decisions and semantics are final
                    self.callees[f] = callee_rows(g, f)
                callees[f] = self.callees[f]
        made = callee_facts(g, check, decided, callees)
        facts.update({k: Validated(v) for k, v in made.items()})
        return facts, facts["call"]

    def owners(self) -> dict[str, dict] | None:
        """The function holding each op and value (``FactScope.func_of``), once a scoped
        run made the scope; None before."""
        return None if self.scope is None else self.scope.func_of

    def keep(self, rel: AnalysisOutputs, syms: set[str]) -> None:
        """Keep a layer's triples for the certificate run, and the read summaries of its
        functions (symbols ``syms``) for the runs after it."""
        self.given["given_raw"] |= rel.raw
        self.given["given_parallel_write"] |= rel.parallel_write
        self.summaries["callee_read"] |= {(t.sym, t.i) for t in rel.arg_read_here if t.sym in syms}
        self.summaries["callee_summarized"] |= {(s,) for s in syms}


def analyze_module(module, strategy: str = "oneshot", engine: str = "auto", rules_dir=None,
                   z3_slices: bool | None = None, program=None, fixed: dict | None = None,
                   options: OneShotOptions | None = None):
    """Facts, analysis and decisions for a parsed module. ``z3_slices``: exempt reads and
    writes of Z3-proven disjoint slices (None: on for ``optimal`` only). ``fixed``: impose
    these decisions ((op, operand) -> in place; others in place) instead of deciding; the
    certificate still checks them (tests use it to show the certificate can fail).
    ``options``: mlir-opt's One-Shot options (engine/options.py)."""
    from bufferlog.frontend.facts import export

    from .certify import certify

    if z3_slices is None:
        z3_slices = strategy == "optimal"
    with phase("facts"):
        facts = export(module)
    options = options or OneShotOptions()
    session = Session(facts.rows, engine, rules_dir, program, options)
    try:
        if options.bufferize_function_boundaries:
            layers = call_layers(facts.rows)
        else:  # calls are unknown ops: no callee summaries, every function at once
            layers = [sorted(f for f, _, _, decl in facts.rows["func"] if not decl)]
        view: Analysis | None = None
        g: Greedy | None = None
        decided: list[int] = []
        for layer in layers or [[]]:
            # the first run derives every function's semantics (the view); a later one, only
            # its layer's (scoped), which call semantics its callees' summaries now give
            wanted = None if view is None else LAYER_RELATIONS
            scoped = SCOPED and view is not None and rules_dir is None and program is None
            scope = set(layer) if scoped else None
            with phase("rules"):
                rel = session.run(layer, decided, g, relations=wanted, scoped=scoped)
            if view is None:
                view = Analysis(facts.rows, rel)
                for o, why in sorted(rel.unsupported_op):
                    raise UserError(f"'{view.name[o]}' op {why}", view.loc_text(o))
                g = Greedy(view, options.analysis_heuristic, options.copy_before_write)
            else:
                view.update_calls(rel, scope, session.owners())
            for _ in range(ORACLE_ROUNDS):  # new exemptions expose the next reads' triples
                with phase("z3 oracle"):
                    new = _oracle_round(session, view, layer, z3_slices)
                if not new:
                    break
                with phase("rules"):
                    view.update_calls(session.run(layer, decided, g, relations=LAYER_RELATIONS,
                                                  scoped=scoped), scope, session.owners())
            for o, why in sorted(view.rel.unsupported_op):  # mlir-opt rejects these too
                raise UserError(f"'{view.name[o]}' op {why}", view.loc_text(o))
            session.keep(view.rel, {view.func_sym[f] for f in layer})
            with phase("decisions"):
                g.load(layer)
                if fixed is not None:
                    for f in layer:
                        g.decide(f, fixed=fixed)
                elif strategy == "optimal":
                    from .optimal import decide_layer

                    decide_layer(g, layer)
                else:
                    for f in layer:
                        g.decide(f)
            decided += layer
        # the certificate: every function decided, checked against the triples the decisions
        # used (given, not derived again); the view keeps the last layer's semantics
        # (complete: a later layer only adds its callers' call semantics)
        with phase("certificate"):
            final = session.run([], decided, g, relations=FINAL_RELATIONS)
            view.greedy, view.final, view.oracle = g, final, session.oracle
            view.summaries = session.summaries
            view.z3_slices = z3_slices
            certify(view, final)
    finally:
        session.close()
    return facts, view, finish(view, g, final)


def _oracle_round(session: Session, view: ProgramView, layer: list[int], z3_slices: bool) -> bool:
    """Ask Z3 what the rules cannot know (equal slice parameters written differently;
    with --z3-slices, disjoint slices of the layer's RaW triples); True if it added facts."""
    rel = view.rel
    pairs = sorted(rel.slice_differs)
    triples = sorted(rel.raw) if z3_slices else []
    if not pairs and not triples:
        return False
    from .slices import SliceProver

    prover = SliceProver(view)
    new = False
    for e, ins in pairs:
        if (e, ins) not in session.oracle["slices_equal"] and prover.equal(e, ins):
            session.oracle["slices_equal"].add((e, ins))
            new = True
    fs = set(layer)
    for ro, ri, wo, wi, d, *_ in triples:
        key = (ro, ri, wo, wi, d)
        if (key not in session.oracle["z3_disjoint"] and view.enclosing_func(wo) in fs
                and prover.disjoint((ro, ri), (wo, wi), d)):
            session.oracle["z3_disjoint"].add(key)
            new = True
    return new


def finish(view: ProgramView, g: Greedy, final: AnalysisOutputs) -> Decisions:
    """The decisions of every tensor operand, and the function summaries mlir-opt prints."""
    dec = g.dec
    for u in view.tuse:
        if u not in g.inplace and u[0] not in view.func_ops:
            # ops outside any function body (none in valid input) stay in place
            g.inplace[u] = u in view.must
    dec.inplace = dict(g.inplace)
    dec.access = {(t.f, t.i): t.kind for t in final.func_access}
    eq: dict[int, dict[int, int]] = defaultdict(dict)
    for r, j, i in final.return_equiv_arg:
        eq[r][j] = i
    for r, m in eq.items():
        dec.equivalent_args[r] = [m.get(j, -1) for j in range(view.n_operands[r])]
    return dec


def operand_annotations(an: ProgramView, dec: Decisions) -> dict[int, list[str]]:
    """``__inplace_operands_attr__`` values per op (ops with tensor operands)."""
    out: dict[int, list[str]] = {}
    for o in sorted(an.op_tuses):
        if o in an.func_ops:
            continue
        out[o] = ["none" if (o, i) not in an.tuse else
                  ("true" if dec.inplace.get((o, i), False) else "false")
                  for i in range(an.n_operands[o])]
    return out

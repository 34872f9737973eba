"""The output interface of the rules as typed accessors -- GENERATED from
rules/interface.dl and the relations' declarations by `python -m
bufferlog.engine.gen_outputs`: do not edit; change rules/interface.dl or the ``.decl``.

A run of a program returns its relations (engine/run.py); wrap them in the program's class
(``AnalysisOutputs(rel)``) and read each through its accessor (``out.tuse``): a frozenset
of rows, each a tuple whose columns are also named fields (``row.o``, ``row.i``), as the
``.decl`` names them (its doc comment says what a row means). Rows are made on first
access, once per relation; a relation's row class is made the first time it is read.
"""

from operator import itemgetter as _col


class Row(tuple):
    """A row of a relation: a tuple whose columns are named fields too."""

    __slots__ = ()
    NAME = ""
    FIELDS: tuple = ()

    def __repr__(self) -> str:
        return f"{self.NAME}({', '.join(map(repr, self))})"


_ROWS: dict = {}


def row_class(name: str, fields: tuple) -> type:
    """The row class of relation ``name`` (made once)."""
    cls = _ROWS.get(name)
    if cls is None:
        ns = {"__slots__": (), "NAME": name, "FIELDS": fields}
        ns.update((f, property(_col(k))) for k, f in enumerate(fields))
        cls = _ROWS[name] = type("".join(p.title() for p in name.split("_")), (Row,), ns)
    return cls


class Relation(property):
    """The accessor of a relation (``AnalysisOutputs.tuse``): read on a run's outputs, its
    rows; on the class, its ``name`` and ``fields`` (e.g. to name a tuple to explain)."""

    name: str
    fields: tuple


def _relation(name: str, *fields: str) -> Relation:
    """The accessor of relation ``name``: its rows, made on first access."""
    def get(self) -> frozenset:
        got = self._rows.get(name)
        if got is None:
            got = self._rows[name] = frozenset(map(row_class(name, fields), self.relations[name]))
        return got
    acc = Relation(get)
    acc.name, acc.fields = name, fields
    return acc


class _Outputs:
    """The relations of one run of a program, each read through its accessor."""

    __slots__ = ("relations", "_rows")
    PROGRAM = ""
    RELATIONS: tuple = ()

    def __init__(self, relations: dict):
        self.relations = relations  # relation name -> set of plain tuples (the run's)
        self._rows: dict = {}

    def rows(self, name: str) -> frozenset:
        """The rows of relation ``name`` (for code generic over the relations, such as
        the merge of a later layer's run: the names come from the lists below); a name
        this program does not output is a bufferlog bug."""
        if name not in self.RELATIONS:
            from bufferlog.core import InternalError

            raise InternalError(f"relation '{name}' is not an output of {self.PROGRAM}")
        return getattr(self, name)


class AnalysisOutputs(_Outputs):
    """The relations the Python side reads from rules/analysis.dl."""

    __slots__ = ()
    PROGRAM = "analysis.dl"
    RELATIONS = (
        "tuse", "repetitive_region", "use_read", "use_read_via_alias", "use_write",
        "is_write", "use_alias", "must_inplace", "must_copy", "unknown_op", "loop_init",
        "loop_pair", "init_contents_read", "copy_contents", "copy_to_result", "no_contents",
        "constant_init_copy", "value_read", "not_writable", "func_arg", "func_return",
        "elementwise_use", "op_par_region", "subset_insert", "subset_extract",
        "subset_insert_whole", "index_arith", "element_access", "raw", "parallel_write",
        "carried_alias", "call_shared", "call_alias", "call_write", "unsupported_op",
        "slice_differs", "arg_read_here", "func_access", "return_equiv_arg",
        "forced_violated", "alias_split", "conflict", "nonwritable_written",
        "parallel_conflict", "scoped_call_differs"
    )
    #: what a run for a later layer of the call graph reads again (layer_output)
    LAYER = (
        "raw", "parallel_write", "carried_alias", "call_shared", "call_alias", "call_write",
        "not_writable", "slice_differs", "unsupported_op", "use_read", "use_read_via_alias",
        "value_read", "arg_read_here", "init_contents_read"
    )
    #: relation of LAYER -> what names the function of a tuple in a run scoped to
    #: some functions (column 0: an op, a value, a function symbol; None: the
    #: run's own tuples)
    SCOPE = {
        "raw": None,
        "parallel_write": None,
        "carried_alias": "value",
        "call_shared": "op",
        "call_alias": "op",
        "call_write": "op",
        "not_writable": "value",
        "slice_differs": "op",
        "unsupported_op": "op",
        "use_read": "op",
        "use_read_via_alias": "op",
        "value_read": "value",
        "arg_read_here": "sym",
        "init_contents_read": "op",
    }
    #: what the certificate run reads (final_output)
    FINAL = (
        "forced_violated", "alias_split", "conflict", "nonwritable_written",
        "parallel_conflict", "scoped_call_differs", "func_access", "return_equiv_arg",
        "copy_contents", "copy_to_result", "no_contents", "constant_init_copy"
    )

    #: tuse(o, i, v): Operand `i` of op `o` is the tensor value `v`
    tuse = _relation("tuse", "o", "i", "v")
    #: repetitive_region(r): Region `r` is repetitive: a body of a loop-like op (not of an
    #: scf.forall that runs one iteration at most)
    repetitive_region = _relation("repetitive_region", "r")
    #: use_read(o, i): Operand `i` of `o` bufferizes to a memory read (loop inits: iff the
    #: iteration argument is read; calls: per callee)
    use_read = _relation("use_read", "o", "i")
    #: use_read_via_alias(o, i): Use (o, i) does not write and an aliasing value is read: mlir
    #: counts it among the reads of its alias set
    use_read_via_alias = _relation("use_read_via_alias", "o", "i")
    #: use_write(o, i): Operand `i` of `o` bufferizes to a memory write when in place, by op
    #: semantics alone (func.call operands: calls.dl; every scf.while init, tied to a result or
    #: not, as in mlir)
    use_write = _relation("use_write", "o", "i")
    #: is_write(o, i): Operand `i` of `o` writes its buffer when in place (op semantics, or the
    #: callee writes it)
    is_write = _relation("is_write", "o", "i")
    #: use_alias(o, i, v, kind): Operand `i` of `o` shares its buffer with value `v` when in
    #: place; `kind` "equivalent", "unknown" or "loop" (equivalent iff the loop's iter_arg is
    #: equivalent to its yielded value; decided during the analysis)
    use_alias = _relation("use_alias", "o", "i", "v", "kind")
    #: must_inplace(o, i): Operand `i` of `o` must bufferize in place (yields, returns,
    #: materialize_in_destination; an unranked tensor: mlir's default mustBufferizeInPlace, it
    #: cannot be copied)
    must_inplace = _relation("must_inplace", "o", "i")
    #: must_copy(o, i): Force tensor operand `i` of op `o` out of place (a copy), whatever the
    #: analysis finds
    must_copy = _relation("must_copy", "o", "i")
    #: unknown_op(o): Tensor op `o` whose name has no semantics in ops.dl (or a call or return
    #: with function boundaries off): read+write every operand, alias every result, results
    #: read-only
    unknown_op = _relation("unknown_op", "o")
    #: loop_init(o, i, res, arg): Init operand `i` of loop `o` is tied to result `res` and to
    #: iteration argument `arg` of the loop body
    loop_init = _relation("loop_init", "o", "i", "res", "arg")
    #: loop_pair(o, i, arg, v): The result tied to loop init (o, i) is equivalent to it iff,
    #: for every such pair, iteration argument `arg` is equivalent to value `v` (scf.for: the
    #: yielded value; scf.while: condition operand and yielded value); no pair: never
    loop_pair = _relation("loop_pair", "o", "i", "arg", "v")
    #: init_contents_read(o, i): The contents of loop `o`'s init `i` may be read: its iteration
    #: argument is read (through aliases, mlir-opt's rule), or the loop's result tied to it is
    #: read and the loop may run zero times (its result is then the init itself); an scf.while
    #: reads its inits (its condition runs first)
    init_contents_read = _relation("init_contents_read", "o", "i")
    #: copy_contents(o, i): Out-of-place operand (o, i) gets a new buffer with a copy of its
    #: old contents (without `copy_contents`: an empty new buffer)
    copy_contents = _relation("copy_contents", "o", "i")
    #: copy_to_result(o, i, r): Out-of-place operand (o, i) of a call whose callee does not
    #: write it and returns it as result `r` alone, which no other operand reaches: the call
    #: gets the argument's buffer and `r` is copied after the call (often smaller: a slice the
    #: callee returns), as mlir-opt's copy insertion does
    copy_to_result = _relation("copy_to_result", "o", "i", "r")
    #: no_contents(v): The contents of tensor value `v` are unspecified (tensor.empty,
    #: alloc_tensor without copy): a copy of it would copy nothing
    no_contents = _relation("no_contents", "v")
    #: constant_init_copy(o, i): In-place operand (o, i), a loop's init or a parallel loop's
    #: shared output, is a constant's buffer: the loop's iterations write the buffer they
    #: receive, so it gets a copy of the constant (a global is read-only)
    constant_init_copy = _relation("constant_init_copy", "o", "i")
    #: value_read(v): Value `v` is read: some use reads it, directly or through a chain of
    #: alias-only uses (mlir's isValueRead)
    value_read = _relation("value_read", "v")
    #: not_writable(v): Value `v`'s buffer is read-only: constants, to_tensor without
    #: `writable`, results of unknown ops and arguments of their regions' blocks (mlir: a value
    #: whose owner op is not bufferizable), function arguments marked `bufferization.writable =
    #: false`, the arguments of every block of a function when function boundaries are not
    #: bufferized (the function op is then not bufferizable: its later blocks' arguments too),
    #: loop iteration arguments that may receive a read-only buffer (loopflow.dl)
    not_writable = _relation("not_writable", "v")
    #: func_arg(f, i, v): Value `v` is argument `i` of function op `f` (entry block of its
    #: body)
    func_arg = _relation("func_arg", "f", "i", "v")
    #: func_return(f, o): Op `o` is a func.return directly inside function `f`
    func_return = _relation("func_return", "f", "o")
    #: elementwise_use(o, i): Operand `i` of `o` is accessed elementwise: all loops parallel
    #: and an identity indexing map
    elementwise_use = _relation("elementwise_use", "o", "i")
    #: op_par_region(o, r): The innermost parallel region enclosing op `o` is `r` (mlir's
    #: getParallelRegion of the op's region; an op in none has no row)
    op_par_region = _relation("op_par_region", "o", "r")
    #: subset_insert(o, src, dest): Op `o` inserts its operand `src` into a subset of its
    #: operand `dest` (tensor.insert_slice)
    subset_insert = _relation("subset_insert", "o", "src", "dest")
    #: subset_extract(o, src): Op `o`'s result 0 is a subset of its operand `src`
    #: (tensor.extract_slice)
    subset_extract = _relation("subset_extract", "o", "src")
    #: subset_insert_whole(o, src, dest): Op `o` writes its operand `src` over the whole of its
    #: operand `dest` (linalg.copy): a subset insertion whose subset is all of `dest`
    subset_insert_whole = _relation("subset_insert_whole", "o", "src", "dest")
    #: index_arith(o, fn): Op `o` computes `fn` ("+", "-", "*") of its integer operands 0 and 1
    #: (Z3 slice terms)
    index_arith = _relation("index_arith", "o", "fn")
    #: element_access(o, i): Use (o, i) reads or writes one element of its tensor, at the
    #: indices of the operands after it
    element_access = _relation("element_access", "o", "i")
    #: raw(ro, ri, wo, wi, d, x, y): RaW triple: read (ro, ri) of value `x` sees definition
    #: `d`, and write (wo, wi) of value `y` may overwrite `d`'s buffer before it: a conflict
    #: once `x` and `y` share an alias set and the write is in place
    raw = _relation("raw", "ro", "ri", "wo", "wi", "d", "x", "y")
    #: parallel_write(wo, wi, d): Write (wo, wi) writes a buffer whose definition (or chain
    #: leaf) `d` lies outside the write's parallel region: in place, it conflicts with any read
    #: of its alias set
    parallel_write = _relation("parallel_write", "wo", "wi", "d")
    #: carried_alias(d1, d2): Loop iteration arguments `d1` and `d2` (of one block) may receive
    #: one buffer: the values passed into them may share a buffer, directly or because they
    #: come from two iteration arguments that may (the previous iteration's, exchanged by the
    #: yield)
    carried_alias = _relation("carried_alias", "d1", "d2")
    #: call_shared(o, a, b): Results `a` and `b` of call `o` may be one buffer: the callee
    #: returns one buffer for both, has no summary, or has no body (bufferlog, not mlir-opt 22,
    #: which miscompiles this: docs/analysis.md)
    call_shared = _relation("call_shared", "o", "a", "b")
    #: call_alias(o, i, v, kind): Operand `i` of func.call `o` shares its buffer with the
    #: call's result `v` when in place; `kind` "equivalent" when the callee returns exactly
    #: that argument's buffer, else "unknown"
    call_alias = _relation("call_alias", "o", "i", "v", "kind")
    #: call_write(o, i): Operand `i` of func.call `o` is written by the callee
    call_write = _relation("call_write", "o", "i")
    #: unsupported_op(o, why): Op `o` cannot be analysed (mlir-opt rejects it too): `why`,
    #: mlir-opt's message
    unsupported_op = _relation("unsupported_op", "o", "why")
    #: slice_differs(e, ins): The slices of `e` and `ins` differ in some parameter
    #: (syntactically)
    slice_differs = _relation("slice_differs", "e", "ins")
    #: arg_read_here(sym, i): Function `f` (symbol `sym`) reads its tensor argument `i`, as its
    #: body shows (mlir's isValueRead of the argument): the `callee_read` facts of the runs
    #: after this one
    arg_read_here = _relation("arg_read_here", "sym", "i")
    #: func_access(f, i, kind): Function `f`'s tensor argument `i` is read ("read"), written
    #: ("write"), both or neither ("none") under its decisions: the `bufferization.access`
    #: mlir-opt prints
    func_access = _relation("func_access", "f", "i", "kind")
    #: return_equiv_arg(r, j, i): Return op `r` of `f` returns, as its operand `j`, a value
    #: equivalent to argument `i` of `f` (mlir's __equivalent_func_args__)
    return_equiv_arg = _relation("return_equiv_arg", "r", "j", "i")
    #: forced_violated(o, i): Decided operand (o, i) must bufferize in place (a yield, a
    #: return: mlir's mustBufferizeInPlace) but is out of place, or a user's `must_copy` forces
    #: it out of place but it is in place
    forced_violated = _relation("forced_violated", "o", "i")
    #: alias_split(a, b): Values `a` and `b` share a buffer (an in-place aliasing use, or one
    #: of bufferlog's guards) but the decision procedure put them in different alias sets
    alias_split = _relation("alias_split", "a", "b")
    #: conflict(ro, ri, wo, wi, d): RaW conflict under the final decisions: read (ro, ri) of
    #: definition `d` and in-place write (wo, wi) are in one alias set
    conflict = _relation("conflict", "ro", "ri", "wo", "wi", "d")
    #: nonwritable_written(o, i, v): In-place write (o, i) lands in an alias set holding the
    #: read-only buffer `v`
    nonwritable_written = _relation("nonwritable_written", "o", "i", "v")
    #: parallel_conflict(wo, wi, d): In-place write (wo, wi) of a buffer defined (`d`) outside
    #: its parallel region shares an alias set with a read
    parallel_conflict = _relation("parallel_conflict", "wo", "wi", "d")
    #: scoped_call_differs(o, what): The semantics of call `o` that the run scoped to its
    #: function derived (`scoped_call_*`, from what it was given of the callees' bodies) differ
    #: from those derived here from the whole module; `what` names the relation
    scoped_call_differs = _relation("scoped_call_differs", "o", "what")


class ExplainOutputs(_Outputs):
    """The relations the Python side reads from rules/explain.dl."""

    __slots__ = ()
    PROGRAM = "explain.dl"
    RELATIONS = (
        "conflict_if_inplace", "nonwritable_if_inplace", "parallel_if_inplace",
        "copy_forced", "cleared", "al_class", "exempt", "conflict"
    )

    #: conflict_if_inplace(xo, xi, ro, ri, wo, wi, d): Bufferizing out-of-place operand (xo,
    #: xi) in place would create the RaW triple (definition `d`, write (wo, wi), read (ro, ri))
    conflict_if_inplace = _relation("conflict_if_inplace", "xo", "xi", "ro", "ri", "wo", "wi", "d")
    #: nonwritable_if_inplace(o, i, v): Bufferizing out-of-place operand (o, i) in place would
    #: write read-only buffer `v` (a constant, a non-writable argument)
    nonwritable_if_inplace = _relation("nonwritable_if_inplace", "o", "i", "v")
    #: parallel_if_inplace(xo, xi, wo, wi, d): Bufferizing out-of-place operand (xo, xi) in
    #: place would join write (wo, wi), whose definition `d` lies outside its parallel region,
    #: with a read
    parallel_if_inplace = _relation("parallel_if_inplace", "xo", "xi", "wo", "wi", "d")
    #: copy_forced(o, i): Operand (o, i) is forced out of place by a user's `must_copy` rule
    copy_forced = _relation("copy_forced", "o", "i")
    #: cleared(ro, ri, wo, wi, d): Read (ro, ri) of definition `d` and in-place write (wo, wi)
    #: share an alias set, and an exemption clears them: the pairs an in-place operand's
    #: explanation shows
    cleared = _relation("cleared", "ro", "ri", "wo", "wi", "d")
    #: al_class(v, c): Value `v` is in alias set `c` (may share a buffer with its other
    #: members)
    al_class = _relation("al_class", "v", "c")
    #: exempt(ro, ri, wo, wi, d): The read and the write are exempt from a RaW conflict (any
    #: reason above, a matching subset: subsets.dl, Z3-proven disjoint slices, or a user's
    #: `no_conflict`)
    exempt = _relation("exempt", "ro", "ri", "wo", "wi", "d")
    #: conflict(ro, ri, wo, wi, d): RaW conflict under the final decisions: read (ro, ri) of
    #: definition `d` and in-place write (wo, wi) are in one alias set
    conflict = _relation("conflict", "ro", "ri", "wo", "wi", "d")


class DeallocOutputs(_Outputs):
    """The relations the Python side reads from rules/dealloc.dl."""

    __slots__ = ()
    PROGRAM = "dealloc.dl"
    RELATIONS = (
        "unknown_effects", "unsupported", "unsupported_branch", "dead_buffer",
        "needs_indicator", "ownership", "slot_edge", "slot_init", "edge_gives",
        "init_gives", "clone_fwd", "check_transfer", "check_excl", "check_free",
        "return_check", "alt_transfer", "alt_free", "choice_free", "free_on_edge",
        "sink_free", "free_retain", "sink_retain", "retain_returned", "return_clone",
        "owning_root", "fresh_distinct", "edge_cond", "const_bool", "view_source",
        "free_after", "free_at_start", "reuse_range", "may_share"
    )

    #: unknown_effects(o): Op `o` touches memrefs but its memory effects are unknown (error, as
    #: in mlir-opt)
    unknown_effects = _relation("unknown_effects", "o")
    #: unsupported(o): A memref-typed op result we cannot reason about (error: unsupported op)
    unsupported = _relation("unsupported", "o")
    #: unsupported_branch(o): Op `o` has successors but is not a known branch op (error:
    #: unsupported branch)
    unsupported_branch = _relation("unsupported_branch", "o")
    #: dead_buffer(o): Op `o` only makes a fresh buffer that nothing reads (a dead alloc or
    #: clone): it is removed, with the stores into it and its frees
    dead_buffer = _relation("dead_buffer", "o")
    #: needs_indicator(v): The ownership of `v` is `unknown` statically: it gets a materialised
    #: i1 indicator
    needs_indicator = _relation("needs_indicator", "v")
    #: ownership(v, state): Final ownership state of memref `v`: "true", "false" or "indicator"
    #: (unique(i1 of v))
    ownership = _relation("ownership", "v", "state")
    #: slot_edge(t, i, k): Operand `k` of edge `i` of `t` feeds a destination with an
    #: indicator: the terminator gets an appended i1 operand for it (in operand order, at the
    #: end of successor `i`'s operands)
    slot_edge = _relation("slot_edge", "t", "i", "k")
    #: slot_init(o, k): Init `k` of op `o` feeds a destination with an indicator: `o` gets an
    #: appended i1 init operand
    slot_init = _relation("slot_init", "o", "k")
    #: edge_gives(t, i, k, u): The destination of operand `k` of edge `i` of `t` receives the
    #: ownership of `u` (a transfer of `u` itself, or of the allocation a view carries)
    edge_gives = _relation("edge_gives", "t", "i", "k", "u")
    #: init_gives(o, k, v): Init `k` of op `o` hands the ownership of `v` to its destinations
    init_gives = _relation("init_gives", "o", "k", "v")
    #: clone_fwd(t, i, k, v): Operand `k` of edge `i` of `t` (memref `v`) is forwarded as a
    #: fresh clone: it needs a buffer that goes out of scope and cannot be handed over, or it
    #: repeats an owned value on a loop edge
    clone_fwd = _relation("clone_fwd", "t", "i", "k", "v")
    #: check_transfer(t, i, k, v, dst): Region exit `t` forwards `v` (operand `k`) into `dst`
    #: with the ownership of whichever of its lost lenders `v`'s buffer is, decided at run
    #: time: each lost lender `u` is freed by `bufferization.dealloc (u) if (own(u)) retain (v,
    #: ...)`, which frees it only when it is not the buffer of a retained value and hands its
    #: ownership to the one that is (the results: `dst` owns its buffer when one of them is
    #: true, or when `v` owned a fresh one itself and hands it over: `transfer`)
    check_transfer = _relation("check_transfer", "t", "i", "k", "v", "dst")
    #: check_excl(t, i, k2, k1): Check-transfer operands `k2` > `k1` of edge `i` of `t` share a
    #: lost lender: they may be one buffer at run time (then `k2` is cloned)
    check_excl = _relation("check_excl", "t", "i", "k2", "k1")
    #: check_free(t, u, v): Terminator `t` frees lender `u` of `v` unless it is `v`'s buffer
    #: (or another retained value's): `v` is a check-transfer operand, or a returned value
    #: whose clone is decided at run time (`return_check`)
    check_free = _relation("check_free", "t", "u", "v")
    #: return_check(t, k, v): Result `k` (= `v`) of return `t`, which the caller cannot own as
    #: is, is returned as is when it is the buffer of a lender freed by that return (a run-time
    #: pointer comparison: the lender's free retains `v`, `check_free`), or when its carrier
    #: owns it (indicator), and cloned only otherwise: mlir-opt's run-time ownership of a
    #: returned buffer, where a plain clone would copy it on every call
    return_check = _relation("return_check", "t", "k", "v")
    #: alt_transfer(t, i, k, d, dst, u): Region exit `t` forwards `d` (operand `k`, owned or
    #: `u`'s buffer: owned_or_lender) into `dst`, and `u`, held by `t`'s block, goes out of
    #: scope there: `dst` takes the buffer with ownership `ind(d) or own(u)`, and `u` is freed
    #: only when `d` owns another buffer (`alt_free`)
    alt_transfer = _relation("alt_transfer", "t", "i", "k", "d", "dst", "u")
    #: alt_free(t, u, d): The free of `u` before terminator `t` also needs the ownership
    #: indicator of `d`: `t` hands `d` over, which is `u`'s buffer when its indicator is false
    #: (alt_transfer)
    alt_free = _relation("alt_free", "t", "u", "d")
    #: choice_free(t, p, c, w): The free of `p` before terminator `t` happens only when i1 `c`
    #: is not `w`: `t` hands over a choice that is `p` exactly when `c` is `w`
    #: (choice_transfer)
    choice_free = _relation("choice_free", "t", "p", "c", "w")
    #: free_on_edge(t, i, v): The backend frees `v` before terminator `t`, when edge `i` is
    #: taken
    free_on_edge = _relation("free_on_edge", "t", "i", "v")
    #: sink_free(s, v): Every edge into block `s` frees `v` (in scope in `s`), and some of them
    #: only conditionally or there are several: free it once, at the start of `s`, instead
    sink_free = _relation("sink_free", "s", "v")
    #: free_retain(t, v, u): Memref `v`, freed before terminator `t`, may be the buffer of
    #: memref `u`, which outlives `t` (given away or live on one of its edges): both may hold
    #: the buffer of one call that returned it twice
    free_retain = _relation("free_retain", "t", "v", "u")
    #: sink_retain(s, v, u): Memref `v`, freed at the start of block `s`, may be the buffer of
    #: memref `u`, live in `s` (as `free_retain`, for frees moved to a block start)
    sink_retain = _relation("sink_retain", "s", "v", "u")
    #: retain_returned(t): A free checked at terminator `t` (`free_retain`) keeps what `t`
    #: returns to the caller: `t` is a return, whose operands are then the returned values or
    #: their clones
    retain_returned = _relation("retain_returned", "t")
    #: return_clone(t, k, v, u): Result `k` (= `v`) of return `t` is cloned unless carrier `u`
    #: owns it at run time (indicator), or always (`u` never owns)
    return_clone = _relation("return_clone", "t", "k", "v", "u")
    #: owning_root(v, r): When memref `v` owns its buffer at run time, that buffer was made by
    #: allocation site `r` (an owning root reached by transfers only: a borrow never owns, a
    #: forwarded clone is a fresh site named by its destination; the results of one call share
    #: a site when the callee may return one buffer twice, or is external)
    owning_root = _relation("owning_root", "v", "r")
    #: fresh_distinct(t, v, f): Memrefs `v` and `f`, both freed before terminator `t`, are
    #: distinct buffers whenever both own theirs: `f` is a fresh allocation (`mem_fresh`,
    #: `mem_alloc`) of `t`'s block made after `v` came into scope (an argument of that block, a
    #: result of an earlier op of it, or a value of a block or region executed before it)
    fresh_distinct = _relation("fresh_distinct", "t", "v", "f")
    #: edge_cond(t, i, c, when): Edge `i` of terminator `t` is taken exactly when i1 value `c`
    #: is `when` (1 or 0)
    edge_cond = _relation("edge_cond", "t", "i", "c", "when")
    #: const_bool(v, b): Value `v` is an i1 constant `b` (0 or 1)
    const_bool = _relation("const_bool", "v", "b")
    #: view_source(o, i): Operand `i` of view op `o` is the buffer its result views (what a
    #: clone of the view replays)
    view_source = _relation("view_source", "o", "i")
    #: free_after(t, v, o): Memref `v`, freed by terminator `t` on every edge, can be freed
    #: right after op `o` of the same block instead: `o` is its last use there, and `o` is not
    #: `t`
    free_after = _relation("free_after", "t", "v", "o")
    #: free_at_start(t, v): Memref `v`, freed by terminator `t` on every edge, is an argument
    #: of `t`'s block, which does not use it: free it at the start of the block
    free_at_start = _relation("free_at_start", "t", "v")
    #: reuse_range(v, b, i, j): Memref `v`, made by a `candidate_alloc` at position `i` of
    #: block `b`, lives exactly over positions i..j of `b`: its free is moved up to right after
    #: the op at position `j` (free_after)
    reuse_range = _relation("reuse_range", "v", "b", "i", "j")
    #: may_share(a, c): Candidate `c` may take over the buffer of candidate `a`: same block and
    #: identical type (shape, element type, layout, memory space), and `a` is dead when `c` is
    #: made (their lives do not interfere)
    may_share = _relation("may_share", "a", "c")


class ValidateOutputs(_Outputs):
    """The relations the Python side reads from rules/validate.dl."""

    __slots__ = ()
    PROGRAM = "validate.dl"
    RELATIONS = (
        "v_uninit_read", "v_clobber", "v_same_op", "v_readonly", "v_bad_free",
        "v_double_free", "v_use_after_free", "v_leak"
    )

    #: v_uninit_read(o, i, a): Operand `i` of output op `o` reads root `a` where, on some path,
    #: nothing was written into it since it was made (a copy left out)
    v_uninit_read = _relation("v_uninit_read", "o", "i", "a")
    #: v_clobber(o, i, tv): Write (o, i) overwrites input value `tv`'s memory while `tv` is
    #: still to be read
    v_clobber = _relation("v_clobber", "o", "i", "tv")
    #: v_same_op(o, ri, wi): Op `o` writes through operand `wi` elements it reads through
    #: operand `ri` before reading them
    v_same_op = _relation("v_same_op", "o", "ri", "wi")
    #: v_readonly(o, i, a): Operand `i` of op `o` writes into read-only root `a`
    v_readonly = _relation("v_readonly", "o", "i", "a")
    #: v_bad_free(o, a): Op `o` frees root `a`, which no one owns
    v_bad_free = _relation("v_bad_free", "o", "a")
    #: v_double_free(o, a): Op `o` frees root `a` a second time on some path
    v_double_free = _relation("v_double_free", "o", "a")
    #: v_use_after_free(o, i, a): Operand `i` of op `o` uses root `a` after a free of it
    v_use_after_free = _relation("v_use_after_free", "o", "i", "a")
    #: v_leak(t, a): Root `a` may be left unfreed at op `t` (a return, or its own allocation in
    #: the next iteration)
    v_leak = _relation("v_leak", "t", "a")


class PlacementOutputs(_Outputs):
    """The relations the Python side reads from rules/placement.dl."""

    __slots__ = ()
    PROGRAM = "placement.dl"
    RELATIONS = (
        "out_param", "branch_pair", "hoist_past", "hoist_before", "promote"
    )

    #: out_param(f, k, o): Result `k` of private function `f` becomes an argument its callers
    #: allocate: it is always the fresh static allocation `o`, made directly in `f`'s body,
    #: returned once, whose buffer leaves `f` only through that return
    out_param = _relation("out_param", "f", "k", "o")
    #: branch_pair(p, x, y): The heads `x` (branch 0) and `y` (branch 1) of two-branch op `p`
    #: have the same type and the same role: `y` goes, `x` moves before `p` and serves both
    branch_pair = _relation("branch_pair", "p", "x", "y")
    #: hoist_past(o, l): Local allocation `o` may move before loop `l`: `l` is the sequential
    #: loop whose body holds it, or one directly around such a loop
    hoist_past = _relation("hoist_past", "o", "l")
    #: hoist_before(o, l): Local allocation `o` moves right before loop `l`, the outermost of
    #: `hoist_past`
    hoist_before = _relation("hoist_before", "o", "l")
    #: promote(o, stack): Local allocation `o` of at most `max_alloc_size_in_bytes` that runs
    #: once per call goes on the stack: it becomes op `stack` (`mem_stack_form`: a
    #: `memref.alloca`)
    promote = _relation("promote", "o", "stack")


class YieldOwnershipOutputs(_Outputs):
    """The relations the Python side reads from rules/yield_ownership.dl."""

    __slots__ = ()
    PROGRAM = "yield_ownership.dl"
    RELATIONS = (
        "yield_mine", "yield_copy"
    )

    #: yield_mine(t, k, m): Slot (t, k) passes on the buffer its slot received: the backend
    #: passes `m` itself
    yield_mine = _relation("yield_mine", "t", "k", "m")
    #: yield_copy(t, k, why): Slot (t, k) gets a fresh copy of its value: it is neither its
    #: slot's own buffer nor one the run owns (`why`: "shared", a buffer an earlier operand
    #: passes on already; else "foreign")
    yield_copy = _relation("yield_copy", "t", "k", "why")


class LayoutsOutputs(_Outputs):
    """The relations the Python side reads from rules/layouts.dl."""

    __slots__ = ()
    PROGRAM = "layouts.dl"
    RELATIONS = (
        "layout_copy", "collapse_ref"
    )

    #: layout_copy(q, what, dim): Question `q` forces a copy into a fresh buffer: `what` blocks
    #: it, at dimension `dim` (-1: the whole type)
    layout_copy = _relation("layout_copy", "q", "what", "dim")
    #: collapse_ref(q, g, r): Group `g` of collapse question `q` (dimensions `first` to `last`
    #: of type `t`) takes its stride from dimension `r`: its last one that is not a static unit
    #: dimension trailing the others (the first one when all after it are)
    collapse_ref = _relation("collapse_ref", "q", "g", "r")


#: program -> relation -> (arity, line of its fact in rules/interface.dl)
ENTRIES = {
    "analysis.dl": {
        "tuse": (3, 16),
        "repetitive_region": (1, 17),
        "use_read": (2, 18),
        "use_read_via_alias": (2, 19),
        "use_write": (2, 20),
        "is_write": (2, 21),
        "use_alias": (4, 22),
        "must_inplace": (2, 23),
        "must_copy": (2, 24),
        "unknown_op": (1, 25),
        "loop_init": (4, 26),
        "loop_pair": (4, 27),
        "init_contents_read": (2, 28),
        "copy_contents": (2, 29),
        "copy_to_result": (3, 30),
        "no_contents": (1, 31),
        "constant_init_copy": (2, 32),
        "value_read": (1, 33),
        "not_writable": (1, 34),
        "func_arg": (3, 35),
        "func_return": (2, 36),
        "elementwise_use": (2, 37),
        "op_par_region": (2, 38),
        "subset_insert": (3, 39),
        "subset_extract": (2, 40),
        "subset_insert_whole": (3, 41),
        "index_arith": (2, 42),
        "element_access": (2, 43),
        "raw": (7, 44),
        "parallel_write": (3, 45),
        "carried_alias": (2, 46),
        "call_shared": (3, 47),
        "call_alias": (4, 48),
        "call_write": (2, 49),
        "unsupported_op": (2, 50),
        "slice_differs": (2, 51),
        "arg_read_here": (2, 52),
        "func_access": (3, 53),
        "return_equiv_arg": (3, 54),
        "forced_violated": (2, 55),
        "alias_split": (2, 56),
        "conflict": (5, 57),
        "nonwritable_written": (3, 58),
        "parallel_conflict": (3, 59),
        "scoped_call_differs": (2, 60),
    },
    "explain.dl": {
        "conflict_if_inplace": (7, 93),
        "nonwritable_if_inplace": (3, 94),
        "parallel_if_inplace": (5, 95),
        "copy_forced": (2, 96),
        "cleared": (5, 97),
        "al_class": (2, 98),
        "exempt": (5, 99),
        "conflict": (5, 100),
    },
    "dealloc.dl": {
        "unknown_effects": (1, 103),
        "unsupported": (1, 104),
        "unsupported_branch": (1, 105),
        "dead_buffer": (1, 106),
        "needs_indicator": (1, 107),
        "ownership": (2, 108),
        "slot_edge": (3, 109),
        "slot_init": (2, 110),
        "edge_gives": (4, 111),
        "init_gives": (3, 112),
        "clone_fwd": (4, 113),
        "check_transfer": (5, 114),
        "check_excl": (4, 115),
        "check_free": (3, 116),
        "return_check": (3, 117),
        "alt_transfer": (6, 118),
        "alt_free": (3, 119),
        "choice_free": (4, 120),
        "free_on_edge": (3, 121),
        "sink_free": (2, 122),
        "free_retain": (3, 123),
        "sink_retain": (3, 124),
        "retain_returned": (1, 125),
        "return_clone": (4, 126),
        "owning_root": (2, 127),
        "fresh_distinct": (3, 128),
        "edge_cond": (4, 129),
        "const_bool": (2, 130),
        "view_source": (2, 131),
        "free_after": (3, 132),
        "free_at_start": (2, 133),
        "reuse_range": (4, 134),
        "may_share": (2, 135),
    },
    "validate.dl": {
        "v_uninit_read": (3, 138),
        "v_clobber": (3, 139),
        "v_same_op": (3, 140),
        "v_readonly": (3, 141),
        "v_bad_free": (2, 142),
        "v_double_free": (2, 143),
        "v_use_after_free": (3, 144),
        "v_leak": (2, 145),
    },
    "placement.dl": {
        "out_param": (3, 148),
        "branch_pair": (3, 149),
        "hoist_past": (2, 150),
        "hoist_before": (2, 151),
        "promote": (2, 152),
    },
    "yield_ownership.dl": {
        "yield_mine": (3, 155),
        "yield_copy": (3, 156),
    },
    "layouts.dl": {
        "layout_copy": (3, 159),
        "collapse_ref": (3, 160),
    },
}

"""Generate engine/outputs.py, the typed output interface: from rules/interface.dl (which
derived relations the Python side reads from each program) and the relations' ``.decl``s
(their column names and doc comments),

* one row class per relation, a tuple with its columns as named fields (``row.o``);
* one class per program (``AnalysisOutputs``, ``DeallocOutputs``, ...) with one accessor
  per relation it outputs, returning its rows; and the lists the engine derives from the
  interface: the relations a later call-graph layer's run reads again, whose each tuple
  is in a scoped run, and what the certificate run reads (``layer_output``,
  ``final_output``);
* ``ENTRIES``: program -> relation -> (arity, line of its interface fact), which
  engine/interface.py checks a loaded program against.

The generated file is committed; tests/test_outputs.py fails when it is stale.

    python -m bufferlog.engine.gen_outputs           # rewrite engine/outputs.py
    python -m bufferlog.engine.gen_outputs --check   # exit 1 when it is stale
"""

from __future__ import annotations

import keyword
import sys
import textwrap
from pathlib import Path

HEADER = '''"""The output interface of the rules as typed accessors -- GENERATED from
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
'''


class GenError(Exception):
    pass


def _quoted(s: str) -> str:
    return '"' + s + '"'


def _tuple(head: str, names: list[str]) -> list[str]:
    """``head`` followed by a tuple of the strings ``names``, wrapped."""
    body = ", ".join(map(_quoted, names)) + ("," if len(names) == 1 else "")
    lines = textwrap.wrap(body, 92 - 8, break_on_hyphens=False)
    return [head + "(", *(" " * 8 + ln for ln in lines), "    )"]


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


def _doc(text: str, indent: str) -> list[str]:
    text = " ".join(text.split()) or "(no doc comment)"
    lines = textwrap.wrap(text, 92 - len(indent))
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    return [f'{indent}"""{lines[0]}', *(f"{indent}{ln}" for ln in lines[1:]), f'{indent}"""']


def _entries(rules: Path):
    """program -> [(relation, arity, line)], layer_output, final_output of interface.dl."""
    from bufferlog.engine.dl_parse import Rule, parse_source

    path = rules / "interface.dl"
    items = parse_source(path.read_text(encoding="utf-8"), str(path))
    entries: dict[str, list[tuple[str, int, int]]] = {}
    layer: list[tuple[str, str]] = []
    final: list[str] = []
    for r in items:
        if not isinstance(r, Rule) or r.body:
            continue
        args = [a.value for a in r.head.args]
        if r.head.rel == "interface":
            entries.setdefault(args[0], []).append((args[1], args[2], r.loc.line))
        elif r.head.rel == "layer_output":
            layer.append((args[0], args[1]))
        elif r.head.rel == "final_output":
            final.append(args[0])
    return entries, layer, final


def generate(rules: Path | None = None) -> str:
    """The text of engine/outputs.py."""
    from bufferlog.engine.program import Program

    from bufferlog.core import rules_dir

    rules = rules or rules_dir()
    entries, layer, final = _entries(rules)
    rows: dict[str, tuple[list[str], str]] = {}  # relation -> (fields, doc)
    classes = []
    for program, rels in entries.items():
        prog = Program.load(rules / program)
        for rel, arity, _line in rels:
            decl = prog.decls.get(rel)
            if decl is None:
                raise GenError(f"interface.dl: {program} does not declare '{rel}'")
            if len(decl.attrs) != arity:
                raise GenError(f"interface.dl: '{rel}' has {len(decl.attrs)} columns in {program}, "
                               f"the interface says {arity}")
            fields = [n for n, _ in decl.attrs]
            for f in fields:
                if keyword.iskeyword(f) or f.startswith("_") or f in ("NAME", "FIELDS", "count", "index"):
                    raise GenError(f"column '{f}' of '{rel}' cannot be a field name")
            if rel in rows and rows[rel][0] != fields:
                raise GenError(f"'{rel}' is declared with other columns in {program}")
            rows[rel] = (fields, decl.doc)
        classes.append((program, rels))
    analysis = {r for r, _, _ in entries.get("analysis.dl", [])}
    for r, _ in layer:
        if r not in analysis:
            raise GenError(f"layer_output('{r}'): not an analysis.dl output of interface.dl")
    for r in final:
        if r not in analysis:
            raise GenError(f"final_output('{r}'): not an analysis.dl output of interface.dl")

    out = [HEADER.rstrip("\n")]
    for program, rels in classes:
        cls = _camel(Path(program).stem) + "Outputs"
        names = [r for r, _, _ in rels]
        out += ["", "", f"class {cls}(_Outputs):",
                *_doc(f"The relations the Python side reads from rules/{program}.", "    "),
                "", "    __slots__ = ()", f'    PROGRAM = "{program}"',
                *_tuple("    RELATIONS = ", names)]
        if program == "analysis.dl":
            out += ["    #: what a run for a later layer of the call graph reads again (layer_output)",
                    *_tuple("    LAYER = ", [r for r, _ in layer]),
                    "    #: relation of LAYER -> what names the function of a tuple in a run scoped to",
                    "    #: some functions (column 0: an op, a value, a function symbol; None: the",
                    "    #: run's own tuples)",
                    "    SCOPE = {", *(f'        "{r}": ' + ("None" if o == "run" else _quoted(o)) + ","
                                      for r, o in layer), "    }",
                    "    #: what the certificate run reads (final_output)",
                    *_tuple("    FINAL = ", final)]
        out.append("")
        for r in names:
            fields, doc = rows[r]
            first = " ".join(doc.split()).split(". ")[0].rstrip(".")
            out += [f"    #: {line}" for line in textwrap.wrap(f"{r}({', '.join(fields)}): {first}", 88)]
            out.append(f"    {r} = _relation({', '.join(map(_quoted, [r, *fields]))})")
    out += ["", "", "#: program -> relation -> (arity, line of its fact in rules/interface.dl)",
            "ENTRIES = {"]
    for program, rels in entries.items():
        out.append(f'    "{program}": {{')
        out += [f'        "{r}": ({a}, {ln}),' for r, a, ln in rels]
        out.append("    },")
    out += ["}", ""]
    return "\n".join(out)


def target() -> Path:
    return Path(__file__).parent / "outputs.py"


def stale(rules: Path | None = None) -> bool:
    p = target()
    return not p.is_file() or p.read_text(encoding="utf-8") != generate(rules)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if "--check" in argv:
            if stale():
                print("stale: engine/outputs.py (run python -m bufferlog.engine.gen_outputs)")
                return 1
            return 0
        target().write_text(generate(), encoding="utf-8")
        print("wrote engine/outputs.py")
    except GenError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Generate the tables other layers read from the registry of op models (backend/ops):

* ``rules/ops_generated.dl``: the ``sem_*`` facts of every model (declared in
  ``rules/ops.dl``, which includes this file after its declarations and derived rules);
* ``rules/ops_memref_generated.dl``: the ``mem_*`` facts (declared in
  ``rules/ops_memref.dl``);
* ``frontend/op_table.py``: what the fact exporter (frontend/facts.py) writes for an op
  beyond its generic rows (slice parameters, destination-style operands, function and
  call rows, ...), so that the frontend reads the registry's data without importing it.

Every fact is checked against its ``.decl`` (relation declared in the right file, arity,
number or symbol per column) before anything is written. The files are committed, as
MLIR commits nothing but generates the same way (TableGen): ``tests/test_registry.py``
fails when they differ from what this module generates now.

    python -m bufferlog.backend.ops.gen           # rewrite the tables
    python -m bufferlog.backend.ops.gen --check   # exit 1 when one is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import Fact, Model, all_models

#: generated file -> (the rules file declaring its relations, relation prefix)
TABLES = {
    "ops_generated.dl": ("ops.dl", "sem_"),
    "ops_memref_generated.dl": ("ops_memref.dl", "mem_"),
}

HEADER = """\
// {name} -- GENERATED from the registry of op models (backend/ops/*.py) by
// `python -m bufferlog.backend.ops.gen`: do not edit; change the op's model instead.
// The relations are declared, with their meaning, in {decls} (which includes this file).
// An op of your own is taught with facts in a `--rules DIR` file, as in README
// "Teach it your op"; a file of that directory named {name} replaces this one."""


class GenError(Exception):
    pass


def _decls(rules: Path, decl_file: str) -> dict[str, list[str]]:
    """relation -> root column types of the ``.decl``s in ``decl_file`` (not its includes)."""
    from bufferlog.engine.dl_parse import Decl, TypeDecl, parse_source

    path = rules / decl_file
    items = parse_source(path.read_text(encoding="utf-8"), path)
    types = {t.name: t.base for t in items if isinstance(t, TypeDecl)}

    def root(t: str) -> str:
        seen = set()
        while t not in ("symbol", "number") and t in types and t not in seen:
            seen.add(t)
            t = types[t]
        return t if t == "number" else "symbol"

    return {d.name: [root(t) for _, t in d.attrs] for d in items if isinstance(d, Decl)}


def _literal(x: object) -> str:
    if isinstance(x, bool) or not isinstance(x, int | str):
        raise GenError(f"fact argument {x!r}: a number or a string")
    if isinstance(x, int):
        return str(x)
    if any(c in x for c in '"\\\n\t'):
        raise GenError(f"fact argument {x!r}: no quote, backslash, tab or newline")
    return f'"{x}"'


def _check(m: Model, f: Fact, decls: dict[str, list[str]], decl_file: str) -> None:
    cols = decls.get(f.rel)
    if cols is None:
        raise GenError(f"model of {m.name}: relation '{f.rel}' is not declared in rules/{decl_file}")
    if len(cols) != 1 + len(f.args):
        raise GenError(f"model of {m.name}: {f.rel} has {len(cols)} columns, the fact gives "
                       f"{1 + len(f.args)}")
    for k, (x, t) in enumerate(zip(f.args, cols[1:], strict=True), 1):
        if (t == "number") != (isinstance(x, int) and not isinstance(x, bool)):
            raise GenError(f"model of {m.name}: column {k} of {f.rel} is a {t}, got {x!r}")


def tables(rules: Path | None = None) -> dict[str, str]:
    """The generated files' names and texts."""
    from bufferlog.core import rules_dir

    rules = rules or rules_dir()
    models = all_models()
    out = {}
    for name, (decl_file, prefix) in TABLES.items():
        decls = _decls(rules, decl_file)
        lines = [HEADER.format(name=name, decls=f"rules/{decl_file}")]
        family = None
        for m in sorted(models, key=lambda m: (m.family, _order[m.name])):
            facts = [f for f in m.facts if f.rel.startswith(prefix)]
            if not facts:
                continue
            if m.family != family:
                family = m.family
                lines.append(f"\n// {'-' * 64} {family} (backend/ops/{family}.py)")
            for f in facts:
                _check(m, f, decls, decl_file)
                lines.append(f"{f.rel}({', '.join(map(_literal, (m.name, *f.args)))}).")
        out[name] = "\n".join(lines) + "\n"
    return out


class _Order(dict):
    """op name -> its position in the registry (declaration order within a family)."""

    def __missing__(self, name: str) -> int:
        from . import _MODELS

        self.update({n: k for k, n in enumerate(_MODELS)})
        return dict.__getitem__(self, name)


_order = _Order()


FRONTEND_TABLE = "op_table.py"

TABLE_HEADER = '''"""What the fact exporter (frontend/facts.py) writes for each op beyond the rows every op
gets -- GENERATED from the registry of op models (backend/ops/*.py) by
`python -m bufferlog.backend.ops.gen`: do not edit; change the op's model instead.
"""

'''


def frontend_table() -> str:
    """The text of frontend/op_table.py."""
    models = sorted(all_models(), key=lambda m: m.name)

    def lit(x) -> str:
        if isinstance(x, tuple):
            return "(" + ", ".join(map(lit, x)) + ("," if len(x) == 1 else "") + ")"
        return f'"{x}"' if isinstance(x, str) else repr(x)

    def table(doc: str, name: str, attr: str) -> list[str]:
        import textwrap

        rows = [(m.name, getattr(m, attr)) for m in models if hasattr(m, attr)]
        return ([f"#: {line}" for line in textwrap.wrap(doc, 92)] + [f"{name} = {{"]
                + [f"    {lit(k)}: {lit(v)}," for k, v in rows] + ["}", ""])

    lines = [TABLE_HEADER.rstrip("\n"), ""]
    lines += table("op -> its exporters of structural facts: ``function`` (func), ``call`` (call), "
                   "``dps`` (dps_input, dps_output, dps_init, payload_reads), ``identity_maps`` "
                   "(elementwise_operand), ``const_int``, ``loop_bounds`` "
                   "(loop_bound_static / loop_bound_dynamic)", "EXPORTS", "exports")
    lines += table("op -> how many operands precede its offsets, sizes and strides (slice_static / "
                   "slice_dynamic facts)", "SLICE_LEADING", "slice_leading")
    lines += table("op with a payload region -> which operands its block arguments stand for, by "
                   "position: ``all`` (inputs and inits) or ``ins`` (inputs only)",
                   "PAYLOAD_ARGS", "payload")
    return "\n".join(lines)


def _frontend_dir() -> Path:
    import bufferlog.frontend as frontend

    return Path(frontend.__file__).parent


def stale(rules: Path | None = None, frontend: Path | None = None) -> list[str]:
    """The generated files whose committed text differs from what the registry gives."""
    from bufferlog.core import rules_dir

    rules = rules or rules_dir()
    frontend = frontend or _frontend_dir()
    want = {rules / name: text for name, text in tables(rules).items()}
    want[frontend / FRONTEND_TABLE] = frontend_table()
    return [p.name for p, text in want.items()
            if not p.is_file() or p.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    from bufferlog.core import rules_dir

    argv = sys.argv[1:] if argv is None else argv
    rules = rules_dir()
    try:
        if "--check" in argv:
            bad = stale(rules)
            for name in bad:
                print(f"stale: {name} (run python -m bufferlog.backend.ops.gen)")
            return 1 if bad else 0
        for name, text in tables(rules).items():
            (rules / name).write_text(text, encoding="utf-8")
            print(f"wrote rules/{name}")
        (_frontend_dir() / FRONTEND_TABLE).write_text(frontend_table(), encoding="utf-8")
        print(f"wrote frontend/{FRONTEND_TABLE}")
    except GenError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``bufferlog datalog`` with Soufflé's flags: -F (facts; a missing file is an error, as in
Soufflé), -D (output directory), -I (include path), and ``#include "schema.dl"`` of the
shipped schema from a user's program."""

from __future__ import annotations

from bufferlog.cli import main

PROG = """.decl edge(a: symbol, b: symbol)
.input edge
.decl path(a: symbol, b: symbol)
.output path
path(a, b) :- edge(a, b).
path(a, c) :- path(a, b), edge(b, c).
"""


def test_missing_facts_file_is_a_located_error(tmp_path, capsys):
    (tmp_path / "p.dl").write_text(PROG)
    facts = tmp_path / "facts"
    facts.mkdir()
    assert main(["datalog", "run", str(tmp_path / "p.dl"), "-F", str(facts)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'p.dl'}:2:") and "cannot open fact file" in err
    assert "edge.facts" in err
    (facts / "edge.facts").write_text("")  # an empty file is an empty relation
    assert main(["datalog", "run", str(tmp_path / "p.dl"), "-F", str(facts)]) == 0
    assert "path: 0 tuple(s)" in capsys.readouterr().out


def test_include_path_and_output_dir(tmp_path, capsys):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "graph.dl").write_text(PROG)
    main_dir = tmp_path / "main"
    main_dir.mkdir()
    (main_dir / "p.dl").write_text('#include "graph.dl"\n')
    facts = tmp_path / "facts"
    facts.mkdir()
    (facts / "edge.facts").write_text("a\tb\nb\tc\n")
    out = tmp_path / "out"
    # without -I the include is not found
    assert main(["datalog", "run", str(main_dir / "p.dl"), "-F", str(facts)]) == 1
    assert "graph.dl" in capsys.readouterr().err
    assert main(["datalog", "run", str(main_dir / "p.dl"), "-F", str(facts), "-I", str(lib),
                 "-D", str(out)]) == 0
    rows = sorted((out / "path.csv").read_text().splitlines())
    assert rows == ["a\tb", "a\tc", "b\tc"]


def test_user_program_includes_the_shipped_schema(tmp_path, capsys):
    src = tmp_path / "f.mlir"
    src.write_text("func.func @f(%t: tensor<4xf32>, %v: f32, %i: index) -> tensor<4xf32> {\n"
                   "  %0 = tensor.insert %v into %t[%i] : tensor<4xf32>\n"
                   "  %1 = tensor.insert %v into %0[%i] : tensor<4xf32>\n"
                   "  return %1 : tensor<4xf32>\n}\n")
    facts = tmp_path / "facts"
    assert main(["facts", str(src), "-o", str(facts)]) == 0
    (tmp_path / "q.dl").write_text(
        '#include "schema.dl"\n'
        "/** Ops that are tensor.insert, with their source line. */\n"
        ".decl insert_line(o: number, line: number)\n.output insert_line\n"
        'insert_line(o, l) :- op(o, "tensor.insert", _, _), op_loc(o, _, l, _).\n')
    capsys.readouterr()
    assert main(["datalog", "run", str(tmp_path / "q.dl"), "-F", str(facts),
                 "-D", str(tmp_path / "out")]) == 0
    lines = sorted(int(r.split("\t")[1]) for r in
                   (tmp_path / "out" / "insert_line.csv").read_text().splitlines())
    # independent: the lines of the source that hold a tensor.insert
    assert lines == [n for n, ln in enumerate(src.read_text().splitlines(), 1)
                     if "tensor.insert" in ln]

"""A stand-in for the ``souffle`` executable, for testing bufferlog's Soufflé driver
where Soufflé is not installed.  It is NOT Soufflé: it re-parses the program that the
driver rendered and evaluates it with the embedded engine, speaking Soufflé's command
line (``--version``, ``-F``, ``-D``, ``-j``, ``-o``, ``-t explain`` with stdin commands)
and file formats (``<rel>.facts`` in, ``<rel>.csv`` out, the explain JSON of
DESIGN.md §4).  It checks the driver's half of the contract only.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from bufferlog.engine import Program, explain, run
from bufferlog.engine.facts_io import read_facts_dir, write_table


def souffle_node(node: dict) -> dict:
    if node.get("fact") or node.get("negated"):
        return {"axiom": node["tuple"].replace(",", ", ")}
    return {"premises": node["tuple"].replace(",", ", "),
            "rule-number": "(" + node["rule"]["id"].split(".")[-1] + ")",
            "children": [souffle_node(c) for c in node["premises"]]}


def main(argv: list[str]) -> int:
    if argv == ["--version"]:
        print("fake-souffle 0.0 (bufferlog test stand-in)")
        return 0
    opts: dict[str, str] = {}
    rest: list[str] = []
    it = iter(argv)
    for a in it:
        if a in ("-F", "-D", "-j", "-o", "-t"):
            opts[a] = next(it)
        else:
            rest.append(a)
    prog_file = Path(rest[-1])
    if "-o" in opts:  # "compile": a script that runs this stand-in on a copy of the program
        copy = Path(opts["-o"] + ".dl")
        copy.write_text(prog_file.read_text())
        Path(opts["-o"]).write_text(
            f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(__file__)} "
            f'"$@" {shlex.quote(str(copy))}\n')
        Path(opts["-o"]).chmod(0o755)
        return 0
    prog = Program.load(prog_file)
    facts = read_facts_dir(prog, opts["-F"])
    if opts.get("-t") == "explain":
        depth = 4
        for line in sys.stdin:
            cmd, _, arg = line.strip().partition(" ")
            if cmd == "setdepth":
                depth = int(arg)
            elif cmd == "explain":
                res = explain(prog, facts, arg, depth=depth, engine="embedded")
                if not res["derived"]:
                    print("Tuple not found")
                    continue
                rules = [{"rule-number": f"({r.rid})", "rule": r.text}
                         for r in prog.rules if not r.is_fact]
                print(json.dumps({"proof": souffle_node(res["proof"]), "rules": rules}))
            elif cmd == "exit":
                break
        return 0
    try:
        res = run(prog, facts, engine="embedded")
    except Exception as e:  # noqa: BLE001 — mimic a failing souffle process
        print(f"Error: {e}", file=sys.stderr)
        return 1
    for rel, rows in res.relations.items():
        write_table(Path(opts["-D"]) / f"{rel}.csv", rel, sorted(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Read ``rules/schema.dl`` — the single schema of input facts.

Only what the fact exporter needs: each ``.decl`` marked ``.input``, its columns
(name, type) and its doc comment. ``.type X <: symbol`` subtypes resolve to their base.
"""

from __future__ import annotations

import re
from pathlib import Path

from bufferlog.core import rules_file
from bufferlog.core.records import value_class
from bufferlog.core.regex import compile as compile_regex

SCHEMA_FILE = rules_file("schema.dl")

_DECL = compile_regex(r"(?:/\*\*(?P<doc>.*?)\*/\s*)?\.decl\s+(?P<name>[A-Za-z_][\w.]*)\s*\((?P<cols>[^)]*)\)",
                   re.S)
_TYPE = compile_regex(r"\.type\s+(\w+)\s*<:\s*(\w+)")
_INPUT = compile_regex(r"\.input\s+([A-Za-z_][\w.]*)")


@value_class
class Relation:
    name: str
    columns: tuple[tuple[str, str], ...]  # (column name, "number" | "symbol")
    doc: str

    @property
    def arity(self) -> int:
        return len(self.columns)


_LOADED: dict[Path, tuple[tuple[int, int], dict[str, Relation]]] = {}


def load_schema(path: Path = SCHEMA_FILE) -> dict[str, Relation]:
    """Input relations declared in ``path``, in declaration order. Read once per process
    while the file is unchanged (every fact export asks; a ``batch`` exports twice per
    file). Callers must not modify the result."""
    st = path.stat()
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _LOADED.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    rels = _read_schema(path)
    _LOADED[path] = (stamp, rels)
    return rels


def _read_schema(path: Path) -> dict[str, Relation]:
    text = path.read_text(encoding="utf-8")
    text_nc = re.sub(r"//[^\n]*", "", text)
    subtypes = dict(_TYPE.findall(text_nc))
    inputs = set(_INPUT.findall(text_nc))
    rels: dict[str, Relation] = {}
    for m in _DECL.finditer(text_nc):
        cols = []
        for part in filter(None, (c.strip() for c in m["cols"].split(","))):
            cname, ctype = (s.strip() for s in part.split(":"))
            while ctype in subtypes:
                ctype = subtypes[ctype]
            cols.append((cname, ctype))
        if m["name"] in inputs:
            doc = " ".join((m["doc"] or "").split())
            rels[m["name"]] = Relation(m["name"], tuple(cols), doc)
    return rels

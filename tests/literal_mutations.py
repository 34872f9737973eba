"""Mutations inside literals and attributes (issue 10, item 5), for the seeded mutation
test of tests/test_verify.py. Each group takes a file's text and a random generator and
returns every candidate ``(description, mutated text)`` it finds:

* ``dense``: a digit, sign or dot inside a ``dense<...>`` literal (``1.-1``, ``.5``, a
  dropped character) or a digit dropped from a hex blob;
* ``int-range``: an integer constant (``arith.constant``, ``array<iN: ...>``) set to a
  value outside its type's range;
* ``string``: a string literal left unterminated, given an unknown escape, or its closing
  quote escaped;
* ``bracket``: a ``[`` ``]`` ``<`` ``>`` (not ``->``) or a ``{`` ``}`` of an attribute
  (not a region brace) dropped or doubled;
* ``linalg``: an entry of a transpose permutation, a broadcast/reduce ``dimensions`` list
  or an expand/collapse reassociation changed (duplicated, out of range, negative);
* ``rank``: a tensor/memref type on a slice, reshape or transfer op given one dimension
  more or fewer (rank-reduced slice types);
* ``concat``: ``tensor.concat dim(N)`` out of range;
* ``slice``: a static offset, size or stride of a slice or subview made negative, moved
  past the end, resized or zeroed, or a dimension of its result type changed;
* ``linalg-attr``: ``linalg.index`` beyond (or below) the loop count, a convolution's or
  pooling's ``strides`` / ``dilations`` given another length or value, a result of an
  indexing map changed;
* ``pad``: a ``tensor.pad`` low / high entry or result dimension changed;
* ``expand``: an ``output_shape`` entry of ``expand_shape`` changed;
* ``dense-bracket``: a ``[``, ``]`` or ``,`` inside a ``dense<...>`` literal dropped,
  doubled or added;
* ``resources``: the ``{-# ... #-}`` section: a brace, colon or comma dropped or
  doubled, a hex digit dropped, the alignment changed, a dialect or key renamed;
* ``affine-map``: inside ``affine_map<...>`` / ``affine_set<...>``: an operator made a
  product or a division by a dimension, a dimension renamed, a parenthesis dropped, a
  result added or dropped;
* ``affine-op``: affine op operands: a subscript name made a ``symbol(..)``, an
  operand dropped from or moved between a map's ``(dims)`` and ``[symbols]``, a loop
  bound or step changed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Mutant = tuple[str, str]
_NUM = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def _splice(text: str, a: int, b: int, new: str) -> str:
    return text[:a] + new + text[b:]


def dense(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for lit in re.finditer(r"dense<([^<>]*)>", text):
        body, s = lit.group(1), lit.start(1)
        if body.startswith('"0x') and len(body) > 5:
            a = s + rng.randrange(3, len(body) - 1)
            out.append(("dense hex blob: drop a digit", _splice(text, a, a + 1, "")))
            continue
        for m in _NUM.finditer(body):
            num, p = m.group(), rng.randrange(len(m.group()) + 1)
            k = rng.randrange(4)
            if k == 0:
                new = num[:p] + rng.choice("-.") + num[p:]
            elif k == 1:
                new = num.replace(".", ".-", 1) if "." in num else num + ".-1"
            elif k == 2:
                i = rng.choice([i for i, c in enumerate(num) if c.isdigit()])
                new = num[:i] + str((int(num[i]) + 1 + rng.randrange(8)) % 10) + num[i + 1:]
            else:
                new = num[:p] + num[p + 1:] if len(num) > 1 else num + "e"
            out.append((f"dense literal {num!r}->{new!r}", _splice(text, s + m.start(), s + m.end(), new)))
    return out


def int_range(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in re.finditer(r"arith\.constant (-?\d+) : i(\d+)\b", text):
        k = int(m.group(2))
        new = rng.choice([2 ** k, -(2 ** (k - 1)) - 1, 2 ** k + 7]) if k > 1 else rng.choice([2, -2])
        out.append((f"integer {m.group(1)}->{new} : i{k}", _splice(text, m.start(1), m.end(1), str(new))))
    for m in re.finditer(r"arith\.constant (-?\d+) : index\b", text):
        out.append((f"index {m.group(1)}->2**64", _splice(text, m.start(1), m.end(1), str(2 ** 64))))
    for m in re.finditer(r"array<i(\d+): ([^>]*)>", text):
        for n in re.finditer(r"-?\d+", m.group(2)):
            new = str(2 ** int(m.group(1)))
            out.append((f"array<i{m.group(1)}> element {n.group()}->{new}",
                        _splice(text, m.start(2) + n.start(), m.start(2) + n.end(), new)))
    return out


def strings(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        s, k = m.group(), rng.randrange(3)
        if k == 0:
            new, what = s[:-1], "unterminated"
        elif k == 1:
            p = rng.randrange(1, len(s))
            new, what = s[:p] + "\\q" + s[p:], "unknown escape \\q"
        else:
            new, what = s[:-1] + '\\"', "closing quote escaped"
        out.append((f"string {s[:24]!r}: {what}", _splice(text, m.start(), m.end(), new)))
    return out


def brackets(text: str, rng: random.Random) -> list[Mutant]:
    out, off = [], 0
    for i, ln in enumerate(text.split("\n")):
        stripped = ln.strip()
        for m in re.finditer(r"[\[\]<>{}]", ln):
            c, p = m.group(), m.start()
            if c == ">" and p and ln[p - 1] == "-":
                continue
            if (c == "{" and stripped.endswith("{") and p == len(ln.rstrip()) - 1) or \
                    (c == "}" and stripped.startswith("}") and p == ln.index("}")):
                continue  # a region brace
            a = off + p
            if rng.random() < 0.5:
                out.append((f"drop {c!r} on line {i + 1}", _splice(text, a, a + 1, "")))
            else:
                out.append((f"double {c!r} on line {i + 1}", _splice(text, a, a, c)))
        off += len(ln) + 1
    return out


def linalg(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for what, pat in (("permutation", r"permutation = \[([^\]]*)\]"),
                      ("dimensions", r"dimensions = \[([^\]]*)\]"),
                      ("reassociation", r"_shape %[\w#.]+ (\[\[.*?\]\])"),
                      ("reassociation", r"reassociation = (\[\[.*?\]\])")):
        for m in re.finditer(pat, text):
            nums = list(re.finditer(r"-?\d+", m.group(1)))
            if not nums:
                continue
            n = rng.choice(nums)
            new = rng.choice([-1, int(n.group()) + 1, len(nums), 0, 7])
            if new == int(n.group()):
                new += 2
            out.append((f"{what} entry {n.group()}->{new}",
                        _splice(text, m.start(1) + n.start(), m.start(1) + n.end(), str(new))))
    return out


def rank(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    ops = r"extract_slice|insert_slice|subview|expand_shape|collapse_shape|transfer_read|transfer_write"
    for m in re.finditer(rf"^.*({ops}).*$", text, re.M):
        types = list(re.finditer(r"(tensor|memref)<((?:\d+x|\?x)*)", m.group()))
        if not types:
            continue
        t = rng.choice(types)
        dims, a = t.group(2), m.start() + t.start(2)
        if dims and rng.random() < 0.5:
            new, what = dims[dims.index("x") + 1:], "one dimension fewer"
        else:
            new, what = "1x" + dims, "one unit dimension more"
        out.append((f"{t.group(1)} type on {m.group(1)}: {what}", _splice(text, a, a + len(dims), new)))
    return out


def concat(text: str, rng: random.Random) -> list[Mutant]:
    return [(f"concat dim({m.group(1)})->dim({new})", _splice(text, m.start(1), m.end(1), str(new)))
            for m in re.finditer(r"tensor\.concat dim\((\d+)\)", text) for new in (-1, 2, 5)]


_SLICE = re.compile(r"(?:extract_slice|insert_slice|parallel_insert_slice|subview) %[\w#.$-]+"
                    r"(?: into %[\w#.$-]+)?\s*\[([^\]]*)\]\s*\[([^\]]*)\]\s*\[([^\]]*)\]")


def slices(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in _SLICE.finditer(text):
        for g, what in ((1, "offset"), (2, "size"), (3, "stride")):
            for n in re.finditer(r"-?\d+", m.group(g)):
                v = int(n.group())
                new = rng.choice({"offset": [-1, v + 3, v + 64], "size": [v + 1, -1, 0, v + 64],
                                  "stride": [0, -1, v + 2]}[what])
                a = m.start(g) + n.start()
                out.append((f"slice {what} {v}->{new}", _splice(text, a, a + len(n.group()), str(new))))
        line_end = text.find("\n", m.end())
        rest = text[m.end():line_end if line_end >= 0 else len(text)]
        t = list(re.finditer(r"(?:to|into) (?:tensor|memref)<((?:\d+x)+)", rest))
        if t:
            d = t[-1]
            dims = d.group(1).split("x")[:-1]
            k = rng.randrange(len(dims))
            dims[k] = str(int(dims[k]) + 1)
            a = m.end() + d.start(1)
            out.append((f"slice result dim {k} changed",
                        _splice(text, a, a + len(d.group(1)), "x".join(dims) + "x")))
    return out


def linalg_attrs(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in re.finditer(r"linalg\.index (\d+)", text):
        v = int(m.group(1))
        new = rng.choice([v + 1, v + 3, -1])
        out.append((f"linalg.index {v}->{new}", _splice(text, m.start(1), m.end(1), str(new))))
    for m in re.finditer(r"(dilations|strides) = dense<([^>]*)> : (tensor|vector)<(\d+)xi64>", text):
        n = int(m.group(4))
        k = rng.randrange(4)
        if k == 0:
            new = f"{m.group(1)} = dense<1> : {m.group(3)}<{n + 1}xi64>"
        elif k == 1:
            new = f"{m.group(1)} = dense<0> : {m.group(3)}<{n}xi64>"
        elif k == 2:
            new = f"{m.group(1)} = dense<{rng.choice([-1, 2, 3, 9])}> : {m.group(3)}<{n}xi64>"
        else:
            new = f"{m.group(1)} = dense<1> : {m.group(3)}<{n}xi32>"
        out.append((f"{m.group(1)} {m.group(2)!r}: {new}", _splice(text, m.start(), m.end(), new)))
    for m in re.finditer(r"indexing_maps = \[([^\]]*)\]", text):
        for r in re.finditer(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>", m.group(1)):
            dims = [d.strip() for d in r.group(1).split(",") if d.strip()]
            res = list(re.finditer(r"d\d+", r.group(2)))
            if not dims or not res:
                continue
            x = rng.choice(res)
            new = rng.choice(dims)
            if new == x.group():
                continue
            a = m.start(1) + r.start(2) + x.start()
            out.append((f"indexing map result {x.group()}->{new}", _splice(text, a, a + len(x.group()), new)))
    return out


def pads(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in re.finditer(r"tensor\.pad %[\w#.$-]+(?: nofold)? low\[([^\]]*)\] high\[([^\]]*)\]", text):
        for g in (1, 2):
            for n in re.finditer(r"-?\d+", m.group(g)):
                new = int(n.group()) + rng.choice([1, 2, -1])
                a = m.start(g) + n.start()
                out.append((f"pad entry {n.group()}->{new}", _splice(text, a, a + len(n.group()), str(new))))
    for m in re.finditer(r"\} : tensor<[^>]*> to tensor<((?:\d+x)+)", text):
        dims = m.group(1).split("x")[:-1]
        k = rng.randrange(len(dims))
        dims[k] = str(int(dims[k]) + 1)
        out.append(("pad result dim changed", _splice(text, m.start(1), m.end(1), "x".join(dims) + "x")))
    return out


def expands(text: str, rng: random.Random) -> list[Mutant]:
    """An ``output_shape`` entry (mlir-opt checks it on memref.expand_shape, and on the
    memref op that bufferizing tensor.expand_shape makes), or a result dimension."""
    out = []
    for m in re.finditer(r"output_shape \[([^\]]*)\][^\n]* into (?:tensor|memref)<((?:\d+x|\?x)+)", text):
        for n in re.finditer(r"-?\d+", m.group(1)):
            new = int(n.group()) + rng.choice([1, 3])
            a = m.start(1) + n.start()
            out.append((f"output_shape {n.group()}->{new}", _splice(text, a, a + len(n.group()), str(new))))
        dims = m.group(2).split("x")[:-1]
        k = rng.randrange(len(dims))
        dims[k] = "3" if dims[k] == "?" else str(int(dims[k]) + 1)
        out.append(("expand_shape result dim changed",
                    _splice(text, m.start(2), m.end(2), "x".join(dims) + "x")))
    return out


def dense_brackets(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for lit in re.finditer(r"dense<(\[[^<>\"]*)>", text):
        body, s0 = lit.group(1), lit.start(1)
        marks = [i for i, c in enumerate(body) if c in "[],"]
        for i in rng.sample(marks, min(len(marks), 4)):
            c, a = body[i], s0 + i
            k = rng.randrange(3)
            if k == 0:
                out.append((f"dense: drop {c!r}", _splice(text, a, a + 1, "")))
            elif k == 1:
                out.append((f"dense: double {c!r}", _splice(text, a, a, c)))
            else:
                extra = rng.choice("[],")
                out.append((f"dense: add {extra!r}", _splice(text, a, a, extra)))
    return out


def resources(text: str, rng: random.Random) -> list[Mutant]:
    at = text.find("{-#")
    if at < 0:
        return []
    end = text.find("#-}", at)
    end = len(text) if end < 0 else end + 3
    sec = text[at:end]
    out = []
    for m in re.finditer(r"[{}:,]", sec[3:-3]):
        a = at + 3 + m.start()
        if rng.random() < 0.5:
            out.append((f"resources: drop {m.group()!r}", _splice(text, a, a + 1, "")))
        else:
            out.append((f"resources: double {m.group()!r}", _splice(text, a, a, m.group())))
    for m in re.finditer(r'"0x([0-9A-Fa-f]+)"', sec):
        a = at + m.start(1)
        out.append(("resources: drop a hex digit", _splice(text, a + 9, a + 10, "")))
        out.append(("resources: alignment 3", _splice(text, a, a + 2, "03")))
        out.append(("resources: 2-byte blob", _splice(text, a + 4, at + m.end(1), "")))
    for old, new in (("builtin", "foo"), ("builtin", "arith"), ("dialect_resources", "dialect_resource"),
                     ("#-}", "")):
        i = sec.find(old)
        if i >= 0:
            out.append((f"resources: {old!r}->{new!r}", _splice(text, at + i, at + i + len(old), new)))
    return out


_AFFINE = re.compile(r"affine_(?:map|set)<([^<>]*)>")


def affine_maps(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in _AFFINE.finditer(text):
        body, s0 = m.group(1), m.start(1)
        ops = list(re.finditer(r" (\+|-|floordiv|ceildiv|mod) ", body))
        dims = re.findall(r"\bd\d+\b", body)
        if ops and dims:
            o = rng.choice(ops)
            new = rng.choice(["*", f"floordiv {rng.choice(dims)} +", "mod"])
            a = s0 + o.start(1)
            out.append((f"affine: {o.group(1)!r}->{new!r}", _splice(text, a, a + len(o.group(1)), new)))
        ids = list(re.finditer(r"\b[ds]\d+\b", body))
        if ids:
            x = rng.choice(ids)
            a = s0 + x.start()
            out.append((f"affine: {x.group()}->d7", _splice(text, a, a + len(x.group()), "d7")))
        parens = [i for i, c in enumerate(body) if c in "()[],"]
        if parens:
            i = rng.choice(parens)
            out.append((f"affine: drop {body[i]!r}", _splice(text, s0 + i, s0 + i + 1, "")))
        arrow = body.find("-> (")
        if arrow >= 0:
            a = s0 + arrow + 4
            out.append(("affine: extra result", _splice(text, a, a, "0, ")))
    return out


def affine_ops(text: str, rng: random.Random) -> list[Mutant]:
    out = []
    for m in re.finditer(r"affine\.(?:load|store) [^\n]*?(%[\w$.-]+)\[([^\]]*)\]", text):
        names = list(re.finditer(r"(?<!symbol\()%[\w$.-]+", m.group(2)))
        if names:
            n = rng.choice(names)
            a = m.start(2) + n.start()
            out.append((f"affine: {n.group()} as a symbol",
                        _splice(text, a, a + len(n.group()), f"symbol({n.group()})")))
    for m in re.finditer(r"(?:#\w+|affine_(?:map|set)<[^<>]*>)\(([^()]*)\)(\[[^\]]*\])?", text):
        ops = [x for x in re.finditer(r"%[\w$.#-]+", m.group(1))]
        if ops:
            o = rng.choice(ops)
            a, b = m.start(1) + o.start(), m.start(1) + o.end()
            if b < m.end(1) and text[b] == ",":
                b += 1
            out.append(("affine: drop a dimension operand", _splice(text, a, b, "")))
        if m.group(2) and m.group(2) != "[]":
            out.append(("affine: symbols as dimensions",
                        _splice(text, m.start(2), m.end(2), "")))
    for m in re.finditer(r"affine\.for %[\w$.-]+ = (-?\d+) to (-?\d+|%[\w$.-]+)(?: step (\d+))?", text):
        for g in (1, 3):
            if m.group(g):
                new = rng.choice(["-1", "%c0", "0x"]) if g == 1 else rng.choice(["-2", "0", "%n"])
                out.append((f"affine.for {m.group(g)}->{new}", _splice(text, m.start(g), m.end(g), new)))
    return out


GROUPS: dict[str, Callable[[str, random.Random], list[Mutant]]] = {
    "dense": dense, "int-range": int_range, "string": strings, "bracket": brackets,
    "linalg": linalg, "rank": rank, "concat": concat, "slice": slices,
    "linalg-attr": linalg_attrs, "pad": pads, "expand": expands,
    "dense-bracket": dense_brackets, "resources": resources, "affine-map": affine_maps,
    "affine-op": affine_ops}

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
* ``concat``: ``tensor.concat dim(N)`` out of range.
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


GROUPS: dict[str, Callable[[str, random.Random], list[Mutant]]] = {
    "dense": dense, "int-range": int_range, "string": strings, "bracket": brackets,
    "linalg": linalg, "rank": rank, "concat": concat}

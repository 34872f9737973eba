"""``--verify-diagnostics``: the diagnostics a run emits are checked against the
``expected-*`` comments of its input, as mlir-opt checks them.

A comment ``// expected-(error|warning|note|remark)[-re][@LOC] {{TEXT}}`` expects a
diagnostic of that kind whose message contains TEXT, on:

* its own line (no ``@``);
* ``@+N`` / ``@-N``: N lines below / above it;
* ``@below``: the next line that is not itself an ``expected-*`` line (the end of the
  input when there is none); ``@above``: the last such line before it;
* ``@unknown``: a diagnostic without a location.

With ``-re``, the parts of TEXT inside ``{{...}}`` are regular expressions and the rest
is literal. A diagnostic that matches nothing is an error (``unexpected error: ...``), and
so is an expected one that no diagnostic matched (``expected error "..." was not
produced``), at the comment; a diagnostic of another kind on the right line with a
matching message is reported as such. ``only-expected`` checks only that the expected
ones were produced. bufferlog's diagnostics are its errors (one per run of a chunk).
"""

from __future__ import annotations

from bufferlog.core import UserError
from bufferlog.core.records import record
from bufferlog.core.regex import compile as compile_regex

_EXPECTED = compile_regex(r"expected-(error|note|remark|warning)(-re)? *"
                          r"(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$")
_LOC = compile_regex(r"^(?P<file>.*):(?P<line>\d+):(?P<col>\d+)$")
LEVELS = ("all", "only-expected")


@record
class Expected:
    """One ``expected-*`` comment: the diagnostic it expects and where it was written."""

    kind: str
    line: int | None  # the line the diagnostic must be on; None: @unknown
    at: str  # file:line:col of the comment's ``expected-``
    text: str
    pattern: object = None  # compiled regex for ``-re``
    matched: bool = False

    def match(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


def _regex(text: str, at: str):
    """The regex of an ``expected-*-re`` text: ``{{...}}`` parts as written, the rest
    escaped."""
    import re

    out, pos = [], 0
    while True:
        start = text.find("{{", pos)
        if start < 0:
            out.append(re.escape(text[pos:]))
            break
        end = text.find("}}", start + 2)
        if end < 0:
            raise UserError("found start of regex with no end '}}'", at)
        out.append(re.escape(text[pos:start]) + "(" + text[start + 2:end] + ")")
        pos = end + 2
    try:
        return re.compile("".join(out))
    except re.error as e:
        raise UserError(f"invalid regex: {e}", at) from None


def expected_diagnostics(text: str, name: str) -> list[Expected]:
    """The ``expected-*`` comments of ``text`` (a whole input or a padded chunk of it)."""
    out: list[Expected] = []
    lines = text.split("\n")
    last_plain = 0  # 0-based number of the last line without a designator
    pending: list[Expected] = []  # @below designators waiting for their line
    for n, raw in enumerate(lines):
        m = _EXPECTED.search(raw.rstrip())
        if m is None:
            for e in pending:
                e.line = n + 1
            pending = []
            last_plain = n
            continue
        at = f"{name}:{n + 1}:{m.start() + 1}"
        e = Expected(m[1], n + 1, at, m[5])
        if m[2]:
            e.pattern = _regex(m[5], at)
        where = m[4]
        if where is None:
            pass
        elif where[0] in "+-":
            e.line = n + 1 + int(where)
        elif where == "unknown":
            e.line = None
        elif where == "above":
            e.line = last_plain + 1
        else:  # below
            e.line = len(lines)
            pending.append(e)
        out.append(e)
    return out


class Verifier:
    """Checks the diagnostics of one chunk against its ``expected-*`` comments."""

    def __init__(self, text: str, name: str, level: str = "all"):
        self.expected = expected_diagnostics(text, name)
        self.level = level
        self.errors: list[UserError] = []  # what to report, mlir-opt's wording

    def diagnostic(self, kind: str, message: str, loc: object | None) -> None:
        m = _LOC.match(str(loc)) if loc else None
        line = int(m["line"]) if m else None
        near = None
        for e in self.expected:
            if e.line != line or not e.match(message):
                continue
            if e.kind == kind:
                e.matched = True
                return
            near = e
        if self.level == "only-expected":
            return
        if near is not None:
            self.errors.append(UserError(f"'{kind}' diagnostic emitted when expecting a "
                                         f"'{near.kind}'", near.at))
        else:
            self.errors.append(UserError(f"unexpected {kind}: {message}", loc))

    def error(self, err: UserError) -> None:
        """An error bufferlog raised (its first line is the message; the rest, if any, are
        further lines of the same diagnostic)."""
        self.diagnostic("error", err.message.split("\n", 1)[0], err.loc)

    def unexpected(self) -> list[UserError]:
        """The diagnostics no comment expected (mlir-opt reports them as they come)."""
        out, self.errors = self.errors, []
        return out

    def not_produced(self) -> list[UserError]:
        """The expected diagnostics none matched (mlir-opt reports them at the end)."""
        return [UserError(f"expected {e.kind} \"{e.text}\" was not produced", e.at)
                for e in self.expected if not e.matched]

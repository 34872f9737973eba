"""bufferlog.core.regex: patterns built from the cached matcher code are the patterns
``re.compile`` makes (CPython compares patterns by their code), across processes, and a
bad cache never changes a pattern."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bufferlog.core import regex as R

PATTERNS = [(r"(?P<num>-?[0-9]+)(?:\.(?P<frac>[0-9]*))?", 0),
            (r"//[^\n]*+|\"(?:[^\"\\]++|\\.)*+\"", re.S),
            (r"(?<![0-9A-Za-z])-?[0-9]+\.", 0),
            (r"\s*(?:\[\s*)+(?:\]\s*)+", re.M | re.I),
            (r"[^\x00-\x7f]+|\u2028", 0)]

SAMPLES = ["-12.5 x", "// note\n\"a\\\"b\"", "1. [ ] ] ab", "caf\u00e9\u2028", ""]


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("BUFFERLOG_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(R, "_codes", None)
    monkeypatch.setattr(R, "_new", {})
    return tmp_path


def _same(a: re.Pattern, b: re.Pattern) -> None:
    assert a == b and a.flags == b.flags and a.groupindex == b.groupindex
    for s in SAMPLES:
        assert [m.group(0) for m in a.finditer(s)] == [m.group(0) for m in b.finditer(s)]


def test_cached_patterns_are_re_compiles_patterns(fresh, monkeypatch):
    if R._KEY is None:
        pytest.skip("not CPython's re")
    for p, f in PATTERNS:
        _same(R.compile(p, f), re.compile(p, f))
    R._save()
    assert list((fresh / "regex").iterdir())  # the cache file
    monkeypatch.setattr(R, "_codes", None)  # a later process: the file, no re.compile
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: pytest.fail("re.compile called"))
    got = [R.compile(p, f) for p, f in PATTERNS]
    monkeypatch.setattr(re, "compile", real)
    for (p, f), rx in zip(PATTERNS, got, strict=True):
        _same(rx, re.compile(p, f))


def test_a_corrupt_or_foreign_cache_falls_back(fresh, monkeypatch):
    if R._KEY is None:
        pytest.skip("not CPython's re")
    path = fresh / "regex" / f"{R._KEY}.marshal"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not marshal data")
    _same(R.compile(*PATTERNS[0]), re.compile(*PATTERNS[0]))
    # an entry _sre rejects (invalid code): compiled normally instead
    monkeypatch.setattr(R, "_codes", {PATTERNS[1]: (PATTERNS[1][1], [999, 1, 2], 0, {}, (None,))})
    _same(R.compile(*PATTERNS[1]), re.compile(*PATTERNS[1]))


def test_the_cache_is_written_at_exit_and_read_by_the_next_process(tmp_path):
    probe = ("import re, sys\nfrom bufferlog.core import regex as R\n"
             "rx = R.compile(r'(?P<w>[a-z]+)=(\\d+)', re.I)\n"
             "print((rx.pattern, int(re.I)) in R._codes, rx == re.compile(rx.pattern, re.I))\n")
    env = {"BUFFERLOG_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    first = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    second = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    if R._KEY is None:
        pytest.skip("not CPython's re")
    assert first.stdout.split() == ["False", "True"], first.stderr  # compiled, then kept
    assert second.stdout.split() == ["True", "True"], second.stderr  # read from the file

"""``bufferlog batch``: error rows, figures vs independent counts, cache, timeout, Dask,
Ctrl-C, reports (JSON, CSV, HTML rendered in headless Chromium)."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bufferlog.app import batch as B
from bufferlog.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402

CORPUS = oracle.SHARED / "corpus"
GOOD = ["seeds/raw_conflict.mlir", "seeds/maybe_copy.mlir", "torch/mlp.mlir",
        "seeds/ownership_example.mlir"]
MLIR_OPT = shutil.which("mlir-opt-22")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("corpus")
    for g in GOOD:
        src = CORPUS / g
        if not src.exists():
            pytest.skip(f"corpus file missing: {src}")
        (d / "good").mkdir(exist_ok=True)
        shutil.copy(src, d / "good" / src.name)
    bad = d / "bad"
    bad.mkdir()
    (bad / "syntax.mlir").write_text("func.func @f() {\n  %0 = arith.constant 1 : i32\n  return %0 : )\n}\n")
    (bad / "unknown_op.mlir").write_text("func.func @f() {\n  foo.bar\n  return\n}\n")
    (bad / "junk.mlir").write_bytes(b"module {}\n\xff\xfe\x00\x81garbage\x00\x00")
    (bad / "empty.mlir").write_text("")
    (d / "notes.txt").write_text("not an mlir file: discovery skips it\n")
    return d


def _run(args: list[str]) -> int:
    return main(["batch", "-q", *args])


def _report(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def first_run(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    cache = out / "cache"
    t0 = time.monotonic()
    rc = _run([str(corpus), "-j", "2", "--cache-dir", str(cache), "--report", str(out / "r.json")])
    return rc, _report(out / "r.json"), cache, out, time.monotonic() - t0


def _rows(rep: dict) -> dict[str, dict]:
    return {Path(r["file"]).name: r for r in rep["rows"]}


def test_error_rows_and_batch_completes(first_run):
    rc, rep, *_ = first_run
    rows = _rows(rep)
    assert rc == 1  # some files failed, the batch still finished
    assert set(rows) == {Path(g).name for g in GOOD} | {"syntax.mlir", "unknown_op.mlir",
                                                          "junk.mlir", "empty.mlir"}
    for g in GOOD:
        assert rows[Path(g).name]["status"] == "ok", rows[Path(g).name]
    for name, line in (("syntax.mlir", 3), ("unknown_op.mlir", 2), ("junk.mlir", 2)):
        r = rows[name]
        assert r["status"] == "error" and r["error"], r
        m = re.fullmatch(r"(.+):(\d+):(\d+)", r["error_loc"] or "")
        assert m and m.group(1).endswith(name) and int(m.group(2)) == line, r
        assert r["ops"] is None and r["copies"] is None
    assert "UTF-8" in rows["junk.mlir"]["error"]
    assert rows["empty.mlir"]["status"] == "empty" and rows["empty.mlir"]["ops"] == 0
    s = rep["summary"]
    assert s["done"] == s["files"] == 8 and not s["interrupted"]
    assert {c["name"] for c in rep["columns"]} == set(B.COLUMN_NAMES)


_EXPLICIT_REGION_LINALG = {"linalg.generic", "linalg.map", "linalg.reduce"}


def _generic_ops(text: str) -> int:
    """Ops in mlir-opt's generic form, minus the top-level module and the implicit
    payload bodies of named linalg ops (mlir-opt materializes those; the source does
    not contain them)."""
    out = subprocess.run([MLIR_OPT, "--mlir-print-op-generic"], input=text, text=True,
                         capture_output=True, check=True).stdout
    n, stack = 0, []
    for m in re.finditer(r'^(\s*)(?:%[^=]+=\s*)?"([\w.$]+)"\(', out, re.M):
        ind, name = len(m.group(1)), m.group(2)
        while stack and stack[-1][0] >= ind:
            stack.pop()
        implicit = any(a.startswith("linalg.") and a not in _EXPLICIT_REGION_LINALG
                       for _, a in stack)
        stack.append((ind, name))
        if name != "builtin.module" and not implicit:
            n += 1
    return n


def _split_types(sig: str) -> list[str]:
    """Top-level comma-separated types of a signature (``oracle._split_top``), stripped."""
    return [p.strip() for p in oracle._split_top(sig) if p.strip()]


def _tensor_operands(text: str) -> int:
    """Operand uses of tensor type, from each op's `: (operand types) -> ...` in the
    generic form (on the op's own line, or on the `})` line closing its regions)."""
    lines = subprocess.run([MLIR_OPT, "--mlir-print-op-generic"], input=text, text=True,
                           capture_output=True, check=True).stdout.splitlines()
    n = 0
    for k, line in enumerate(lines):
        m = re.match(r'^(\s*)(?:%[^=]+=\s*)?"[\w.$]+"\(', line)
        if not m:
            continue
        end = line
        if line.rstrip().endswith("({") or line.rstrip().endswith("{"):
            ind = m.group(1)
            end = next(ln for ln in lines[k + 1:] if ln.startswith(ind + "})")
                       or ln.startswith(ind + "}]"))
        sig = re.search(r":\s*\((.*)\)\s*->", end)
        if sig:
            n += sum(1 for t in _split_types(sig.group(1)) if t.startswith("tensor<"))
    return n


@pytest.mark.oracle
@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_figures_match_independent_counts(first_run, corpus):
    _, rep, *_ = first_run
    rows = _rows(rep)
    for g in GOOD:
        text = (CORPUS / g).read_text()
        r = rows[Path(g).name]
        assert r["ops"] == _generic_ops(text), g
        assert r["tensor_operands"] == _tensor_operands(text), g
    # analysis figures agree with the analysis' own JSON (bufferlog analyze --format json)
    r = rows["raw_conflict.mlir"]
    assert r["out_of_place_operands"] >= 1 and r["conflicts_by_kind"].get("raw", 0) >= 1
    assert r["inplace_pct"] is not None and r["engine"] in ("souffle", "embedded")


def _oracle_figures(memref_ir: str) -> dict:
    """The row's backend figures recomputed by tests/oracle.py count_ops (a textual count
    independent of backend/quality.py)."""
    c = oracle.count_ops(memref_ir)
    deallocs = c["memref.dealloc"] + c["bufferization.dealloc"]
    return {"copies": c["copies"], "bytes_copied": None if c["dynamic_copies"] else c["copy_bytes"],
            "allocs": c["memref.alloc"], "deallocs": deallocs, "clones": c["bufferization.clone"],
            "guarded_deallocs": c["guarded_deallocs"],
            "dealloc_helper_calls": c["dealloc_helper_calls"],
            "dealloc_checks": c["guarded_deallocs"] + c["dealloc_helper_calls"]
            + c["bufferization.dealloc"]}


def test_backend_figures_match_oracle_count(first_run):
    """Each row's backend figures equal count_ops on `bufferize` (+ dealloc) output made
    here, outside the batch (tensor files), or on `deallocate` output (memref file)."""
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.backend.dealloc import deallocate
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    _, rep, *_ = first_run
    rows = _rows(rep)
    for g in GOOD:
        text = (CORPUS / g).read_text()
        m = parse(text, g)
        if g.endswith("ownership_example.mlir"):  # memref input: dealloc only
            deallocate(m)
            out = print_module(m)
        else:
            out = print_module(bufferize(m, "oneshot", True))
        r = rows[Path(g).name]
        assert {k: r[k] for k in B.BACKEND_FIGURES} == _oracle_figures(out), g
        assert r["bufferize_error"] is None and r["status"] == "ok"
    assert rows["raw_conflict.mlir"]["copies"] >= 1
    assert rows["mlp.mlir"]["allocs"] > 0 and rows["mlp.mlir"]["deallocs"] > 0


def test_partial_when_bufferize_fails(tmp_path):
    d = tmp_path / "c"
    d.mkdir()
    shutil.copy(CORPUS / GOOD[0], d / "good.mlir")
    (d / "gen.mlir").write_text(
        "func.func @f(%x: f32) -> tensor<4xf32> {\n"
        "  %g = \"foo.make\"(%x) : (f32) -> tensor<4xf32>\n"
        "  return %g : tensor<4xf32>\n}\n")
    cache = tmp_path / "cache"
    for n in range(2):  # the second run reads the partial row from the cache
        rc = _run([str(d), "--cache-dir", str(cache), "--report", str(tmp_path / "r.json")])
        rep = _report(tmp_path / "r.json")
        rows = _rows(rep)
        assert rc == 1
        r = rows["gen.mlir"]
        assert r["status"] == "partial" and r["cached"] is bool(n)
        assert "foo.make" in r["bufferize_error"] and r["error"] is None
        assert r["bufferize_error_loc"].endswith("gen.mlir:2:3")
        assert r["ops"] == 3 and r["inplace_pct"] == 100.0 and r["out_of_place_operands"] == 0
        assert all(r[k] is None for k in B.BACKEND_FIGURES)
        assert rows["good.mlir"]["status"] == "ok" and rows["good.mlir"]["copies"] is not None
        assert rep["summary"]["status"] == {"ok": 1, "partial": 1}
    _run([str(d), "--no-cache", "--report", str(tmp_path / "r.csv")])
    with open(tmp_path / "r.csv", newline="") as f:
        csv_rows = {Path(r["file"]).name: r for r in csv.DictReader(f)}
    assert csv_rows["gen.mlir"]["status"] == "partial" and csv_rows["gen.mlir"]["copies"] == ""
    assert csv_rows["gen.mlir"]["bufferize_error_loc"].endswith("gen.mlir:2:3")


def test_csv_matches_json(first_run, corpus, tmp_path):
    _, rep, cache, *_ = first_run
    _run([str(corpus), "--cache-dir", str(cache), "--report", str(tmp_path / "r.csv")])
    with open(tmp_path / "r.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == B.COLUMN_NAMES
    js = _rows(rep)
    for r in rows:
        j = js[Path(r["file"]).name]
        for k in ("status", "error_loc", "ops", "tensor_operands", "out_of_place_operands", "copies",
                  "bytes_copied", "allocs", "deallocs", "clones", "dealloc_checks"):
            assert r[k] == ("" if j[k] is None else str(j[k])), (k, r, j)
        if j["conflicts_by_kind"] is not None:
            assert json.loads(r["conflicts_by_kind"]) == j["conflicts_by_kind"]


def test_rerun_hits_cache_for_every_file(first_run, corpus, tmp_path):
    _, rep1, cache, _, t_first = first_run
    t0 = time.monotonic()
    _run([str(corpus), "-j", "2", "--cache-dir", str(cache), "--report", str(tmp_path / "r.json")])
    t_second = time.monotonic() - t0
    rep2 = _report(tmp_path / "r.json")
    assert rep2["summary"]["cache_hits"] == rep2["summary"]["files"] == 8
    assert all(r["cached"] for r in rep2["rows"])
    strip = ("cached",)
    assert [{k: v for k, v in r.items() if k not in strip} for r in rep1["rows"]] == \
        [{k: v for k, v in r.items() if k not in strip} for r in rep2["rows"]]
    assert t_second < 2.0 and t_second < t_first


def test_no_cache_and_key_changes(first_run, corpus, tmp_path):
    cache = tmp_path / "cache"
    _run([str(corpus / "good"), "--no-cache", "--cache-dir", str(cache),
          "--report", str(tmp_path / "a.json")])
    assert _report(tmp_path / "a.json")["summary"]["cache_hits"] == 0
    assert not cache.exists()
    # a changed file misses; options are part of the key
    _run([str(corpus / "good"), "--cache-dir", str(cache), "--report", str(tmp_path / "b.json")])
    assert _report(tmp_path / "b.json")["summary"]["cache_hits"] == 0
    _run([str(corpus / "good"), "--cache-dir", str(cache), "--strategy", "optimal",
          "--report", str(tmp_path / "c.json")])
    assert _report(tmp_path / "c.json")["summary"]["cache_hits"] == 0
    opts = B.BatchOptions()
    h = B.rules_hash(None)
    assert B.cache_key(b"x", h, opts) != B.cache_key(b"y", h, opts)
    overlay = tmp_path / "rules"
    overlay.mkdir()
    (overlay / "extra.dl").write_text(".decl mine(x: number)\n")
    assert B.rules_hash(str(overlay)) != h


def test_timeout_kills_only_that_file(corpus, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(corpus / "good", d)
    shutil.copy(d / "raw_conflict.mlir", d / "slow_one.mlir")
    t0 = time.monotonic()
    rc = _run([str(d), "-j", "2", "--no-cache", "--timeout", "3", "--debug-sleep", "slow_*", "60",
               "--report", str(tmp_path / "r.json")])
    assert time.monotonic() - t0 < 45
    rows = _rows(_report(tmp_path / "r.json"))
    assert rc == 1
    assert rows["slow_one.mlir"]["status"] == "timeout"
    assert "timed out" in rows["slow_one.mlir"]["error"]
    assert all(r["status"] == "ok" for n, r in rows.items() if n != "slow_one.mlir")


def test_discovery_globs_and_dedup(corpus):
    files = B.discover([str(corpus / "good"), str(corpus / "good" / "mlp.mlir"),
                        str(corpus / "**" / "*.mlir")])
    names = [Path(f).name for f in files]
    assert len(names) == len(set(names)) == 8
    assert "notes.txt" not in names
    with pytest.raises(Exception, match="no files match"):
        B.discover([str(corpus / "*.nothing")])


def test_dask_equals_local(corpus):
    distributed = pytest.importorskip("distributed")
    files = B.discover([str(corpus)])
    opts = B.BatchOptions()
    local = B.run_batch(files, opts, B.LocalExecutor(2))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        res = B.run_batch(files, opts, B.DaskExecutor(cluster.scheduler_address))

    def norm(rows):
        return [{k: v for k, v in r.items() if k != "analysis_s"} for r in rows]

    assert res.executor == "dask" and len(res.rows) == 8
    assert norm(res.rows) == norm(local.rows)


def test_ctrl_c_writes_partial_report(corpus, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(corpus / "good", d)
    for i in range(3):  # the smallest files: the workers take them last
        (d / f"zz_slow{i}.mlir").write_text("func.func @f() {\n  return\n}\n")
    out = tmp_path / "partial.json"
    p = subprocess.Popen([sys.executable, "-m", "bufferlog.cli", "batch", str(d), "-j", "1",
                          "--no-cache", "--debug-sleep", "zz_slow*", "60", "--report", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         # a shell's background job (e.g. `make test &` in a CI script)
                         # inherits SIGINT ignored, and so would the batch: restore it
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    err = ""
    # wait until the fast files are done (plain progress lines on stderr), then interrupt
    while time.monotonic() < deadline:
        line = p.stderr.readline()
        err += line
        if "zz_slow" not in line and line.startswith("[4/"):
            break
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    try:
        _, rest = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, rest = p.communicate()
        pytest.fail(f"the interrupted batch did not exit; its stderr:\n{err}{rest}")
    assert p.returncode == 130, err + rest
    rep = _report(out)
    assert rep["summary"]["interrupted"] is True
    assert rep["summary"]["done"] == 4 < rep["summary"]["files"] == 7
    # every input is listed: the unfinished ones as not_run, with their location
    assert len(rep["rows"]) == 7 and {r["status"] for r in rep["rows"]} == {"ok", "not_run"}
    not_run = sorted(Path(r["file"]).name for r in rep["rows"] if r["status"] == "not_run")
    assert not_run == ["zz_slow0.mlir", "zz_slow1.mlir", "zz_slow2.mlir"]
    assert all(r["error_loc"] == r["file"] for r in rep["rows"] if r["status"] == "not_run")


CHROMIUM = shutil.which("chromium")


def _chromium(*args: str) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp()
    try:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={profile}", "--window-size=1280,2400", *args],
            capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_html_renders_in_headless_chromium(first_run, corpus, tmp_path):
    out = tmp_path / "report.html"
    args = [str(corpus), "--no-cache", "--report", str(out)]
    if MLIR_OPT:
        args += ["--compare", "mlir-opt"]
    rc = _run(args)
    assert rc == 1
    html = out.read_text()
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html and "<link" not in html
    assert (tmp_path / "report_files").is_dir()
    dom = _chromium("--dump-dom", out.as_uri()).stdout
    assert 'data-rendered="1"' in dom
    assert len(re.findall(r'<tr class="row st-', dom)) == 8
    assert len(re.findall(r'<tr class="row st-error"', dom)) == 3
    # at 1280 px the file table fits its box and the page does not scroll sideways
    width = {k: int(v) for k, v in re.findall(r'data-(\w+)-width="(\d+)"', dom)}
    assert width["table"] <= width["wrap"] + 1 and width["page"] <= width["viewport"], width
    # files are named relative to their common directory, whole (wrapped, not cut)
    names = re.findall(r'<td class="file"[^>]*><a href="[^"]*">([^<]*)</a>', dom)
    assert sorted(names) == sorted(f"{d}/{n}" for d, n in
                                   [("good", Path(g).name) for g in GOOD]
                                   + [("bad", b) for b in ("syntax.mlir", "unknown_op.mlir",
                                                           "junk.mlir", "empty.mlir")])
    assert str(corpus) in dom  # the common directory, stated once
    # the header names the engine that ran, not only the option
    assert "engine that ran: embedded" in dom or "engine that ran: souffle" in dom
    # plots: labelled with file names and axis ticks
    svg = re.search(r'<svg[^>]*id="svg-copies".*?</svg>', dom, re.S).group(0)
    assert "raw_conflict.mlir" in svg and 'class="tick"' in svg
    time_svg = re.search(r'<svg[^>]*id="svg-time".*?</svg>', dom, re.S).group(0)
    assert "<circle" in time_svg and len(re.findall(r'class="tick"', time_svg)) >= 6
    assert re.search(r'<svg[^>]*id="svg-conflicts"', dom)
    # where the copies come from: bytes by cause and by op pair
    kinds = re.search(r'<svg[^>]*id="svg-kinds".*?</svg>', dom, re.S).group(0)
    assert "read-after-write" in kinds
    assert re.search(r'<svg[^>]*id="svg-pairs"', dom)
    rep = json.loads(re.search(r"const DATA = (\{.*?\});\n", html, re.S).group(1))
    if MLIR_OPT:
        # totals side by side with mlir-opt's and the delta
        assert "<th>mlir-opt</th><th>\u0394 bufferlog \u2212 mlir-opt</th>" in dom
        row = re.search(r"<tr[^>]*><td>copies</td><td>(\d+)</td><td>(\d+)</td><td[^>]*>([^<]*)</td>", dom)
        assert row, "no copies row in the totals"
        mine, theirs, delta = int(row[1]), int(row[2]), row[3]
        assert delta == ("0" if mine == theirs else f"{mine - theirs:+d}")
        # the mlir-opt compared against: binary, version, command lines
        version = subprocess.run([MLIR_OPT, "--version"], capture_output=True, text=True).stdout
        line = next(ln.strip() for ln in version.splitlines() if "version" in ln.lower())
        assert line in dom and shutil.which(MLIR_OPT) in dom
        assert "--buffer-deallocation-pipeline" in dom and "test-analysis-only" in dom
        # rows whose figures differ from mlir-opt's are marked, and a filter shows only them
        differ = {r["name"] for r in rep["rows"] if r.get("differs")}
        expected = {str(Path(r["file"]).relative_to(corpus)) for r in rep["rows"]
                    if B.differs_from_mlir_opt(r)}
        assert differ == expected and differ  # maybe_copy.mlir: mlir-opt deallocates more
        marked = set(re.findall(r'<tr class="row st-\w+ differs">.*?<a href="[^"]*">([^<]*)</a>', dom))
        assert marked == differ
        assert f"show only the {len(differ)} file" in dom and 'id="only-differs"' in dom
    # each file links to its page, which explains every copy
    links = re.findall(r'<a href="(report_files/[^"]+)"', dom)
    assert len(links) == 8 and all((tmp_path / link).is_file() for link in links)
    page_link = next(x for x in links if "maybe_copy" in x)
    page = (tmp_path / page_link).read_text()
    assert "read-after-write" in page and "copy 1" in page
    # the page: the source, bufferlog's output and mlir-opt's side by side, every copy
    # of bufferlog's output marked at its line there and in the source
    pdom = _chromium("--dump-dom", (tmp_path / page_link).as_uri()).stdout
    cols = re.findall(r'<div class="col"><h3>([^<]*)</h3>', pdom)
    assert cols == ["source", "bufferlog output", "mlir-opt output"]
    (maybe,) = [r for r in rep["rows"] if "maybe_copy" in r["file"]]
    ours = re.findall(r'id="bufferlog-output-\d+"><span class="ln">\d+</span><span class="tag">copy (\d+)', pdom)
    assert [int(k) for k in ours] == list(range(1, maybe["copies"] + 1))
    assert re.search(r'id="source-\d+"><span class="ln">\d+</span><span class="tag">copy 1', pdom)
    if MLIR_OPT:
        theirs = re.findall(r'id="mlir-opt-output-\d+"><span class="ln">\d+</span><span class="tag">copy', pdom)
        assert len(theirs) == maybe["mlir_opt_copies"]
        assert " loc(" not in re.search(r'<div class="cols">.*', pdom, re.S).group(0)
    # the screenshots a person would look at: the report, and a file's page
    shot = tmp_path / "report.png"
    _chromium("--hide-scrollbars", f"--screenshot={shot}", out.as_uri())
    assert shot.is_file() and shot.stat().st_size > 10_000
    shutil.copy(shot, Path(tempfile.gettempdir()) / "bufferlog-report.png")
    page_shot = tmp_path / "page.png"
    _chromium("--hide-scrollbars", f"--screenshot={page_shot}", (tmp_path / page_link).as_uri())
    assert page_shot.is_file() and page_shot.stat().st_size > 10_000
    shutil.copy(page_shot, Path(tempfile.gettempdir()) / "bufferlog-report-page.png")


def test_identical_files_keep_their_own_names(tmp_path):
    """The cache keys a row by content; a byte-identical file at another path gets its own
    name in its locations and explanations, not its twin's."""
    d = tmp_path / "c"
    d.mkdir()
    bad = "func.func @f() {\n  %0 = arith.constant 1 : i32\n  return %0 : )\n}\n"
    good = (CORPUS / "seeds" / "raw_conflict.mlir").read_text()
    (d / "a.mlir").write_text(bad)
    (d / "g1.mlir").write_text(good)
    cache = tmp_path / "cache"
    _run([str(d / "a.mlir"), str(d / "g1.mlir"), "--cache-dir", str(cache),
          "--report", str(tmp_path / "first.json")])
    (d / "b.mlir").write_text(bad)
    (d / "g2.mlir").write_text(good)
    _run([str(d / "a.mlir"), str(d / "b.mlir"), str(d / "g1.mlir"), str(d / "g2.mlir"),
          "--cache-dir", str(cache), "--report", str(tmp_path / "second.json")])
    rows = {Path(r["file"]).name: r for r in _report(tmp_path / "second.json")["rows"]}
    assert rows["b.mlir"]["cached"] and rows["g2.mlir"]["cached"]
    assert rows["a.mlir"]["error_loc"] == f"{d / 'a.mlir'}:3:15"
    assert rows["b.mlir"]["error_loc"] == f"{d / 'b.mlir'}:3:15"
    texts = {p.name: p.read_text() for p in (tmp_path / "second_files").glob("*.explain.txt")}
    (g2,) = [t for n, t in texts.items() if "g2.mlir" in n]
    assert f"{d / 'g2.mlir'}:5:3" in g2 and "g1.mlir" not in g2


def test_oneshot_and_planning_options_reach_the_rows(tmp_path):
    """batch takes bufferize's One-Shot and planning options: the rows change as
    bufferize's --stats do."""
    f = CORPUS / "seeds" / "maybe_copy.mlir"
    for flags in (["--copy-before-write"], ["--plan", "none"], ["--analysis-heuristic", "top-down"],
                  ["--one-shot-bufferize=bufferize-function-boundaries copy-before-write"]):
        r = subprocess.run([sys.executable, "-m", "bufferlog", "bufferize", str(f), "--stats", *flags],
                           capture_output=True, text=True, cwd=oracle.REPO)
        stats = dict(kv.split("=", 1) for kv in r.stderr.splitlines()[0].split())
        _run([str(f), "--no-cache", "--report", str(tmp_path / "r.json"), *flags])
        (row,) = _report(tmp_path / "r.json")["rows"]
        for k in ("copies", "allocs", "deallocs", "inplace_operands"):
            assert str(row[k]) == stats[k], (flags, k)
    plain = _report(tmp_path / "r.json")
    assert plain["summary"]["options"]["oneshot"] == "bufferize-function-boundaries copy-before-write"


def test_terminal_ends_with_totals(tmp_path):
    f = CORPUS / "seeds" / "raw_conflict.mlir"
    r = subprocess.run([sys.executable, "-m", "bufferlog", "batch", str(f), "--no-cache", "-j", "1"],
                       capture_output=True, text=True, cwd=oracle.REPO)
    out = r.stdout.splitlines()
    i = out.index("totals:")
    table = dict(re.split(r"\s{2,}", ln.strip())[:2] for ln in out[i + 2:])
    assert table["copies"] == "1" and table["conflicts"] == "1" and table["files"] == "1 (ok 1)"


@pytest.mark.oracle
@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_compare_mlir_opt(corpus, tmp_path):
    f = corpus / "good" / "maybe_copy.mlir"
    _run([str(f), "--no-cache", "--compare", "mlir-opt", "--report", str(tmp_path / "r.json")])
    r = _report(tmp_path / "r.json")["rows"][0]
    assert r["mlir_opt_status"] == "ok"
    text = f.read_text()
    dec = [x for _, vals in oracle.inplace_decisions(oracle.reference_analysis(text))
           for x in vals if x != "none"]
    assert r["mlir_opt_inplace_pct"] == round(100.0 * dec.count("true") / len(dec), 2)
    ref = _oracle_figures(oracle.reference_bufferize(text))
    assert {k: r[f"mlir_opt_{k}"] for k in B.BACKEND_FIGURES} == ref
    assert ref["clones"] >= 1 and ref["dealloc_helper_calls"] >= 1  # non-trivial figures
    # our side of the same row, counted the same way
    assert r["status"] == "ok" and r["clones"] is not None and r["copies"] is not None


def test_bad_arguments():
    from bufferlog.core import UserError

    with pytest.raises(UserError):
        B.discover(["/nonexistent/dir/x.mlir"])
    assert main(["batch", "-q", "/nonexistent/x.mlir"]) == 1
    assert main(["batch", "-q", str(CORPUS), "--report", "out.xml"]) == 1
    assert os.path.exists(str(CORPUS))


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux /proc")
def test_max_memory_kills_only_that_worker(corpus, tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    for g in ("raw_conflict.mlir", "maybe_copy.mlir"):
        shutil.copy(corpus / "good" / g, d / g)
    shutil.copy(corpus / "good" / "raw_conflict.mlir", d / "aa_big.mlir")  # runs first
    out = tmp_path / "r.json"
    rc = _run([str(d), "-j", "1", "--no-cache", "--max-memory", "500M", "--debug-alloc",
               "aa_big*", "900", "--report", str(out)])
    rows = _rows(_report(out))
    assert rc == 1
    assert rows["aa_big.mlir"]["status"] == "out-of-memory"
    assert "over --max-memory 500 MiB" in rows["aa_big.mlir"]["error"]
    assert rows["aa_big.mlir"]["error_loc"].endswith("aa_big.mlir")
    # the pool survived: the same single worker slot went on with the other files
    assert rows["raw_conflict.mlir"]["status"] == rows["maybe_copy.mlir"]["status"] == "ok"


def test_internal_error_row_is_located_and_never_cached(monkeypatch, tmp_path):
    from bufferlog import api

    f = tmp_path / "deep.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")

    def too_deep(*a, **k):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(api, "analyze", too_deep)
    row = B.analyze_file(str(f))
    assert row["status"] == "internal_error" and "RecursionError" in row["error"]
    assert row["error_loc"] == str(f)
    cache = B.ResultCache(tmp_path / "cache")
    cache.put("k" * 64, row)
    assert cache.get("k" * 64) is None
    monkeypatch.undo()
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  foo.bar\n}\n")
    row = B.analyze_file(str(bad))
    assert row["status"] == "error" and row["error_loc"] == f"{bad}:2:3"
    cache.put("e" * 64, row)
    assert cache.get("e" * 64) == row  # the input's own fault is cached


def test_local_workers_take_the_largest_file_first(tmp_path):
    """A worker gets the largest pending file (a big file started last would hold up the
    end of the batch); the rows still come back in input order."""
    sizes = [1, 40, 7, 300]
    files = []
    for k, n in enumerate(sizes):
        p = tmp_path / f"f{k}.mlir"
        p.write_text("".join(f"// {'x' * 70}\n" for _ in range(n)) + "func.func @f() {\n  return\n}\n")
        files.append(str(p))
    ex = B.LocalExecutor(1)
    done = [task.path for task, _ in ex.run([B.Task(i, f) for i, f in enumerate(files)],
                                            B.BatchOptions())]
    assert done == [files[3], files[1], files[2], files[0]]
    res = B.run_batch(files, B.BatchOptions(), B.LocalExecutor(2))
    assert [r["file"] for r in res.rows] == files


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_idle_worker_exits_when_the_batch_is_killed(tmp_path):
    """Workers forked from the batch process must not hold each other's pipes: killed
    with SIGKILL (no clean-up), the batch leaves a worker waiting for work, which must
    see its parent gone and exit, even while another worker still runs a file."""
    quick = tmp_path / "a_quick.mlir"  # the largest: the first worker takes it
    quick.write_text("// " + "x" * 4000 + "\nfunc.func @f() {\n  return\n}\n")
    slow = tmp_path / "b_slow.mlir"  # the second worker sleeps on it
    slow.write_text("func.func @g() {\n  return\n}\n")
    p = subprocess.Popen([sys.executable, "-m", "bufferlog.cli", "batch", str(quick), str(slow),
                          "-j", "2", "--no-cache", "--debug-sleep", "b_slow*", "60"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the quick file done: its worker now waits
            line = p.stderr.readline()
            if not line or "a_quick" in line:
                break
        time.sleep(0.5)
        kids = _children(p.pid)
        assert len(kids) >= 2, kids
        p.kill()
        p.wait(10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and sum(map(_alive, kids)) > 1:
            time.sleep(0.2)
        assert sum(map(_alive, kids)) <= 1  # only the sleeping one may remain
    finally:
        p.kill()
        for k in kids:
            try:
                os.kill(k, signal.SIGKILL)
            except OSError:
                pass

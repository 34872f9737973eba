"""benchmarks/README.md from benchmarks/results/*.json (``python -m benchmarks.report``;
``make bench`` runs it last). The text around the tables is in README_HEAD / README_TAIL
below; every number comes from the JSON files."""

from __future__ import annotations

import json
import sys
from typing import Any

from benchmarks.measure import RESULTS, ROOT

README = ROOT / "benchmarks" / "README.md"


def load(name: str) -> dict | None:
    p = RESULTS / f"{name}.json"
    return json.loads(p.read_text()) if p.is_file() else None


def sec(r: dict | None) -> str:
    if not r:
        return "not run"
    if str(r.get("status")).startswith("not run"):
        return r["status"]
    if r.get("status") == "timeout":
        return f"timeout ({r['s']:.0f} s)"
    if r.get("status") not in (None, "ok"):
        return r.get("status", "?")
    s = r.get("s")
    return "?" if s is None else f"{s:.3g} s" if s < 100 else f"{s:.0f} s"


def mb(r: dict | None) -> str:
    return "-" if not r or r.get("rss_mb") is None else f"{r['rss_mb']:.0f} MB"


def num(x: Any, suffix: str = "") -> str:
    return "-" if x is None else f"{x:.3g}{suffix}"


def load_text(span: list | None) -> str:
    """A load average span as the tables print it."""
    if not span:
        return "load not recorded"
    lo, hi = span
    return f"load {lo:.2g}" if lo == hi else f"load {lo:.2g}-{hi:.2g}"


def le(x: float | None, bound: float) -> bool | None:
    return None if x is None else x <= bound


def verdict(ok: bool | None) -> str:
    return "not measured" if ok is None else "**met**" if ok else "not met"


def target_rows() -> list[str]:
    rows = ["| workload | bufferlog | mlir-opt | ratio | target | |", "|---|---|---|---|---|---|"]
    sc, pf, ba, st = load("scaling"), load("per_file"), load("batch"), load("stress")

    def add(name: str, ours: str, theirs: str, ratio: str, target: str, ok: bool | None) -> None:
        rows.append(f"| {name} | {ours} | {theirs} | {ratio} | {target} | {verdict(ok)} |")

    if sc:
        ch = sc["chain_analysis"]["sizes"]
        for n in ("10000", "20000"):
            r = ch.get(n)
            if r is None:
                add(f"analysis, {int(n):,}-op chain", "not run (`--full`)", "", "", "", None)
                continue
            runs = r["bufferlog"].get("runs", 1)
            add(f"analysis, {int(n):,}-op chain" + (f" (median of {runs} interleaved runs each)"
                                                    if runs > 1 else ""),
                sec(r["bufferlog"]), sec(r["mlir_opt"]),
                num(r["ratio"]), "≤ 0.1" if n == "10000" else "",
                None if r["ratio"] is None else r["ratio"] <= 0.1 if n == "10000" else None)
        sizes = sorted(int(n) for n in ch)
        e1, e2 = sc["chain_analysis"]["exponent_bufferlog"], sc["chain_analysis"]["exponent_mlir_opt"]
        add(f"growth exponent, chain {sizes[0]:,} to {sizes[-1]:,} ops", num(e1), num(e2), "",
            "linear (≤ 1.15)", None if e1 is None else e1 <= 1.15)
        for shape, what in (("for_body", "ops in one `scf.for` body"),
                            ("alias_writes", "writes into one alias set"),
                            ("small_funcs", "MB of small functions")):
            g = sc.get(shape)
            if g is None:
                continue
            ns = list(g["sizes"])
            e1, e2 = g["exponent_bufferlog"], g["exponent_mlir_opt"]
            add(f"growth exponent, {float(ns[0]):,g} to {float(ns[-1]):,g} {what}", num(e1),
                num(e2), "", "linear (≤ 1.15)", None if e1 is None else e1 <= 1.15)
    if pf and "claimed" in pf:
        dwb = "set" if pf.get("pythondontwritebytecode") else "not set"
        last = pf["passes"][-1]["summary"]
        b = pf["claimed"].get("bufferize")
        if b:
            s = last["bufferize"]
            loads = "; ".join(load_text(x["load"]) for x in b["passes"])
            add(f"`bufferize` per corpus file, cold (PYTHONDONTWRITEBYTECODE {dwb}; median "
                f"over {s['files']} files; worst of {len(b['passes'])} passes; {loads})",
                num(s["median_cold_s"], " s"), num(s["median_mlir_opt_s"], " s"),
                num(b["median_cold_ratio"]), "≤ 2", le(b["median_cold_ratio"], 2))
            add(f"`bufferize` per corpus file, warm (through `bufferlog serve`; {loads})",
                num(s["median_warm_s"], " s"), num(s["median_mlir_opt_s"], " s"),
                num(b["median_warm_ratio"]), "≤ 1", le(b["median_warm_ratio"], 1))
        o = pf["claimed"].get("optimal_over_oneshot")
        if o:
            worst = o["passes"][-1]["worst_file"]
            add(f"`bufferize --strategy optimal` over oneshot, every corpus file (worst: "
                f"{worst}; {'; '.join(load_text(x['load']) for x in o['passes'])})", "", "",
                num(o["max_ratio"]), "≤ 1.5", le(o["max_ratio"], 1.5))
    if ba and "claimed" in ba:
        c, j = ba["claimed"], ba["jobs"]
        p = ba["passes"][-1]
        loads = "; ".join(load_text(x["load"]) for x in ba["passes"])
        for side, target in (("cold", 1), ("warm", 2)):
            add(f"`batch --jobs {j}` over {ba['files']} files, {side}, against `xargs -P {j}` "
                f"of mlir-opt (worst of {len(ba['passes'])} passes; {loads})",
                num(p[side]["files_per_s"], " files/s"),
                num(p["mlir_opt_xargs"]["files_per_s"], " files/s"),
                num(c[f"{side}_vs_mlir_opt_xargs"]), f"≥ {target}",
                None if c[f"{side}_vs_mlir_opt_xargs"] is None
                else c[f"{side}_vs_mlir_opt_xargs"] >= target)
            add(f"`batch --jobs {j}`, {side}, against a sequential loop of mlir-opt",
                num(p[side]["files_per_s"], " files/s"),
                num(p["mlir_opt_loop"]["files_per_s"], " files/s"),
                num(c[f"{side}_vs_mlir_opt_loop"]), "", None)
    if sc:
        r = sc["insert_chain_10000"]
        ok = r["bufferlog"]["status"] == "ok" and r["bufferlog"]["s"] < 10
        add("analysis, chain of 10,000 `tensor.insert`", sec(r["bufferlog"]), sec(r["mlir_opt"]),
            num(r["ratio"]), "< 10 s", ok)
        b = sc["bufferize_chain_5000"]
        add("`bufferize` (with dealloc) of the 5,000-op chain", sec(b["bufferlog"]),
            sec(b["mlir_opt"]), f"{num(b['over_own_analysis'])} × its analysis"
            + (f" ({sec(b['analysis'])})" if "analysis" in b else ""),
            "≤ 2 × analysis", None if b["over_own_analysis"] is None
            else b["over_own_analysis"] <= 2)
        c = sc.get("certificate_chain_5000")
        if c:
            add("certificate (the rules' re-check), share of the 5,000-op chain's analysis",
                "-" if c["share"] is None else f"{c['share']:.0%} ({c['certificate_s']:.3g} s "
                f"of {c['analysis_s']:.3g} s)", "", "", "< 20%",
                None if c["share"] is None else c["share"] < 0.2)
        c = sc.get("output_certificate_chain_5000")
        if c:
            add("certificate of the output, share of the 5,000-op chain's `bufferize`",
                "-" if c["share"] is None else f"{c['share']:.0%} ({c['output_certificate_s']:.3g} s "
                f"of {c['bufferize_s']:.3g} s)", "", "", "< 20%",
                None if c["share"] is None else c["share"] < 0.2)
        o = sc["optimal_chain_5000"]
        add("`--strategy optimal`, 5,000-op chain", sec(o["bufferlog_optimal"]), "",
            f"{num(o['over_oneshot'])} × oneshot ({sec(o['bufferlog_oneshot'])})",
            "≤ 1.5 × oneshot", None if o["over_oneshot"] is None else o["over_oneshot"] <= 1.5)
    if st:
        cases = st["cases"]
        for key, label in (("nested_if 1000", "1,000 nested `scf.if`"),
                           ("nested_if 2000", "2,000 nested `scf.if`")):
            c = cases.get(key)
            if c is None:
                continue
            for cmd in ("print", "analyze", "bufferize"):
                r = c[cmd]
                add(f"{label}: {cmd}", sec(r["bufferlog"]), sec(r["mlir_opt"]), num(r["ratio"]),
                    "completes", r["bufferlog"]["status"] == "ok")
        for key, label in (("dense_mb 20", "20 MB dense literal"),
                           ("small_funcs_mb 5", "5 MB of small functions"),
                           ("small_funcs_mb 1", "1 MB of small functions"),
                           ("dense_mb 50", "50 MB dense literal"),
                           ("small_funcs_mb 50", "50 MB of small functions")):
            c = cases.get(key)
            if c is None:
                add(f"{label}", "not run (`--full`)", "", "", "completes", None)
                continue
            for cmd in [k for k in ("print", "facts", "analyze", "bufferize") if k in c]:
                r = c[cmd]
                # the memory target covers every command on the 20 MB literal and the 5 MB
                # of small functions; the 1 MB and 50 MB inputs must complete
                big = "50" in key or key == "small_funcs_mb 1"
                target = "completes" if big else "peak RSS ≤ 2 × mlir-opt"
                ok = r["bufferlog"]["status"] == "ok" and (
                    big or (r["rss_ratio"] is not None and r["rss_ratio"] <= 2))
                add(f"{label}: {cmd}", f"{sec(r['bufferlog'])}, {mb(r['bufferlog'])}",
                    f"{sec(r['mlir_opt'])}, {mb(r['mlir_opt'])}",
                    f"time {num(r['ratio'])}, RSS {num(r['rss_ratio'])}", target, ok)
        c = cases.get("slices above 2^31")
        if c:
            for cmd in ("analyze", "bufferize"):
                r = c[cmd]
                add(f"slice sizes and offsets above 2^31: {cmd}", sec(r["bufferlog"]),
                    sec(r["mlir_opt"]), num(r["ratio"]), "works",
                    r["bufferlog"]["status"] == "ok")
    return rows


def per_file_rows() -> list[str]:
    pf = load("per_file")
    if not pf or "passes" not in pf:
        return ["not run"]
    last = pf["passes"][-1]
    rows = [f"Last of {len(pf['passes'])} passes, {pf['repeat']} interleaved runs of each side "
            "per file; cold: a new process per file; warm: through `bufferlog serve`.", "",
            "| command | mlir-opt job | median cold | median warm | median mlir-opt | "
            "median cold ratio | median warm ratio | load |", "|---|---|---|---|---|---|---|---|"]
    for c, s in last["summary"].items():
        job = " ".join(pf["mlir_jobs"][c]) or "(parse + print)"
        rows.append(f"| `{c}` | `{job}` | {num(s['median_cold_s'], ' s')} | "
                    f"{num(s['median_warm_s'], ' s')} | {num(s['median_mlir_opt_s'], ' s')} | "
                    f"{num(s['median_cold_ratio'])} | {num(s['median_warm_ratio'])} | "
                    f"{load_text(s['load'])} |")
    cmds = list(last["summary"])
    rows += ["", "| file | " + " | ".join(f"{c} (cold / warm / mlir-opt)" for c in cmds) + " |",
             "|---" * (1 + len(cmds)) + "|"]
    for f in last["files"]:
        cells = [f"{sec(f[c]['cold'])} / {sec(f[c]['warm'])} / {sec(f[c]['mlir_opt'])}"
                 for c in cmds]
        rows.append(f"| {f['file']} | " + " | ".join(cells) + " |")
    if pf.get("optimal"):
        rows += ["", "| file | `bufferize` | `--strategy optimal` | ratio |", "|---|---|---|---|"]
        for r in pf["optimal"][-1]["files"]:
            rows.append(f"| {r['file']} | {sec(r['oneshot'])} | {sec(r['optimal'])} | "
                        f"{num(r['ratio'])} |")
    return rows


def startup_rows() -> list[str]:
    su = load("startup")
    if not su:
        return ["not run"]
    rows = [f"`python -c pass`: {su['python_pass_s']:.3g} s.", "",
            "| command (two-op file) | bufferlog | mlir-opt | imports | z3 / clingo / dask / "
            "rich / lark imported | heaviest imports |", "|---|---|---|---|---|---|"]
    for c, r in su["runs"].items():
        im = su["imports"][c]
        which = ", ".join(k for k, v in im["imported"].items() if v) or "none"
        heavy = ", ".join(f"{k} {v:.0f} ms" for k, v in list(im["heaviest_ms"].items())[:4])
        rows.append(f"| `{c}` | {sec(r['bufferlog'])} | {sec(r['mlir_opt'])} | "
                    f"{im['total_ms']:.0f} ms | {which} | {heavy} |")
    return rows


def growth_rows() -> list[str]:
    sc = load("scaling")
    if not sc:
        return ["not run"]
    rows = ["| shape | size | bufferlog | mlir-opt | ratio |", "|---|---|---|---|---|"]
    for shape in ("chain_analysis", "for_body", "alias_writes", "small_funcs"):
        g = sc.get(shape)
        if g is None:
            continue
        unit = " MB" if shape == "small_funcs" else ""
        for n, r in g["sizes"].items():
            rows.append(f"| {shape} | {float(n):,g}{unit} | {sec(r['bufferlog'])} | "
                        f"{sec(r['mlir_opt'])} | {num(r['ratio'])} |")
        rows.append(f"| {shape} | exponent | {num(g['exponent_bufferlog'])} | "
                    f"{num(g['exponent_mlir_opt'])} | |")
    return rows


def _load1(avgs: list | None) -> str:
    """The 1-minute load average of ``os.getloadavg()``'s triple."""
    return f"load {avgs[0]:.2g}" if avgs else "load not recorded"


def shapes_rows() -> list[str]:
    """Nesting, small functions and the 10,000-op chain (bench_shapes: CPU time and peak
    memory, each against mlir-opt's, with the targets of each)."""
    sh = load("shapes")
    if not sh:
        return ["Not measured (`python -m benchmarks.run_all bench_shapes`)."]

    def cells(r: dict) -> str:
        b, m = r["bufferlog"], r["mlir_opt"]
        return (f"{num(b.get('cpu'), ' s')}, {num(b.get('rss_mb'), ' MB')} | "
                f"{num(m.get('cpu'), ' s')}, {num(m.get('rss_mb'), ' MB')} | "
                f"{num(r.get('cpu_ratio'))} | {num(r.get('rss_ratio'))} | {_load1(r.get('load_before'))}")

    out = [f"CPU seconds (user + sys) and peak RSS per process, median of {sh.get('repeat')} "
           "interleaved round(s) per row.", "",
           "| input | command | bufferlog (CPU, peak) | mlir-opt (CPU, peak) | CPU ratio | memory ratio | load |",
           "|---|---|---|---|---|---|---|"]
    nest = sh.get("nesting", {})
    for n, by in sorted(nest.get("depths", {}).items(), key=lambda kv: int(kv[0])):
        for c, r in by.items():
            out.append(f"| {n} nested `scf.if` (target: CPU ≤ 1, memory ≤ 2) | `{c}` | {cells(r)} |")
    for key, by in sorted(sh.get("functions", {}).items()):
        for c, r in by.items():
            if isinstance(r, dict) and "bufferlog" in r:
                out.append(f"| {key} ({by.get('functions')} functions; target: CPU ≤ 2, "
                           f"memory ≤ 1.5) | `{c}` | {cells(r)} |")
    if "chain_10000" in sh:
        out.append(f"| 10,000-op chain (target: CPU ≤ 0.1) | `analyze` | {cells(sh['chain_10000'])} |")
    exps = [f"`{c}` {tool}: CPU {e.get('cpu')}, memory {e.get('rss')}"
            for c in ("analyze", "bufferize") for tool in ("bufferlog", "mlir_opt")
            if (e := nest.get(f"{c}_{tool}_exponent"))]
    if exps:
        out += ["", "Growth exponents over the three depths (target ≤ 1.2 for bufferlog): "
                + "; ".join(exps) + "."]
    return out


def machine_line() -> str:
    """The machine, and when each result file was written (with its load at the start):
    rows from an older run say so by their file's date."""
    line, runs = "", []
    for name in ("per_file", "batch", "shapes", "scaling", "stress", "startup"):
        d = load(name)
        if not d:
            continue
        m = d["machine"]
        if not line:
            line = (f"Measured on {m['platform']}, {m['cpus']} CPUs, Python {m['python']}, "
                    f"{m['mlir_opt']}.")
        when = m.get("measured_at", "an earlier run, date not recorded")
        runs.append(f"`{name}` {when} (load at the start {m['load_avg_at_start'][0]})")
    if runs:
        line += " Result files, each from its own run: " + "; ".join(runs) + "."
    return line


def main(argv: list[str] | None = None) -> int:
    text = README_HEAD + machine_line() + "\n\n" + "\n".join(target_rows()) + "\n\n"
    text += "## Per file (shared corpus)\n\n" + "\n".join(per_file_rows()) + "\n\n"
    text += "## Nesting, small functions, the chain (bench_shapes)\n\n" + "\n".join(shapes_rows()) + "\n\n"
    text += "## Start-up\n\n" + "\n".join(startup_rows()) + "\n\n"
    text += "## Growth\n\n" + "\n".join(growth_rows()) + "\n" + README_TAIL
    README.write_text(text)
    print(f"wrote {README}")
    return 0


README_HEAD = """# Benchmarks

`make bench` runs every benchmark here at its default sizes (about 15 minutes) and
regenerates this file; `make bench FULL=1` adds the 20,000-op chain, the 2,000-deep
nesting and the 50 MB inputs. Each benchmark is also a module of its own
(`python -m benchmarks.bench_scaling --full`, ...); `python -m benchmarks.report`
rebuilds this file from `benchmarks/results/*.json`.

How everything is timed (`benchmarks/measure.py`): whole processes, for both tools. A
bufferlog measurement is one `bufferlog <command> FILE` process from spawn to exit
(interpreter start-up, imports and parser tables included; Python's bytecode caching
on, as in an installed copy); the baseline is the one `mlir-opt-22` process a user
would run instead: `mlir-opt-22 F` for `print`, One-Shot with `test-analysis-only
print-conflicts` for `analyze`, One-Shot (`bufferize-function-boundaries
function-boundary-type-conversion=identity-layout-map`) plus
`--buffer-deallocation-pipeline` for `bufferize`. Peak memory is each process's maximum
resident set size as the kernel accounts it (`wait4`; what `/usr/bin/time -v` prints).
The two tools run alternately on each input and the ratio is bufferlog / mlir-opt from
that one run; the batch benchmark runs every file once (nothing replicated) and times
mlir-opt per file directly, not through the batch's comparison code. The machine is
shared (2 cores): absolute times move with its load, ratios less.

## Speed targets

"""

README_TAIL = """
## Inputs

`benchmarks/gen_stress.py SHAPE N` writes each stress input (`chain`: the shared
`oracle/gen_chain.py`; `insert_chain`, `nested_if`, `dense_mb`, `dense_hex_mb`,
`small_funcs_mb`, `for_body`, `alias_writes`). Every one is accepted by mlir-opt-22's
full pipeline at small sizes.

Other benchmarks kept here: `bench_engine` (embedded engine against Soufflé when
installed: `results/engine.json`), `bench_quality` (copies, allocations and
deallocations of bufferlog's output against mlir-opt's: `results/quality.md`) and
`bench_dealloc_cost` (what deallocation costs at run time, bytes allocated and copied and
checks executed, counted under mlir-runner against mlir-opt's pipeline:
`results/dealloc_cost.md`).
"""


if __name__ == "__main__":
    sys.exit(main())

"""Growth on long inputs: the speed targets about chains and loops.

    python -m benchmarks.bench_scaling [--full] [--timeout S]

* analysis (``bufferlog analyze`` vs mlir-opt's ``test-analysis-only``) of
  ../shared/oracle/gen_chain.py chains: 1,000 / 5,000 / 10,000 ops (``--full``: and
  20,000; the 10,000-op chain three times each, interleaved, medians), and the growth exponent of each tool (least-squares slope of log time over
  log size);
* a chain of 10,000 ``tensor.insert`` into one tensor (benchmarks/gen_stress.py; mlir-opt
  on it only with ``--full``: minutes);
* ``bufferize`` (with deallocation) of the 5,000-op chain against its own analysis and
  against mlir-opt's full pipeline, and ``analyze --strategy optimal`` of it against
  oneshot: the three bufferlog commands alternate, three rounds, median of each (their
  ratios come from the same rounds); mlir-opt's pipeline once;
* the certificate's share of the 5,000-op chain's analysis (target: under 20%), from
  ``analyze --timing``;
* long ``scf.for`` bodies, many writes into one alias set, and many small functions
  (1 and 2 MB; ``--full``: and 4 MB) at two or three sizes (growth).

Each process once unless said (these take seconds to minutes), bufferlog and mlir-opt alternating;
a process past its time limit is reported as "timeout". Writes
benchmarks/results/scaling.json."""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import gen_stress
from benchmarks import measure as M


def exponent(points: list[tuple[int, float | None]]) -> float | None:
    """Slope of log(time) over log(size) (None with fewer than two measured sizes)."""
    pts = [(math.log(n), math.log(s)) for n, s in points if s]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return round(sum((x - mx) * (y - my) for x, y in pts) / den, 2) if den else None


def write(tmp: Path, shape: str, n: int) -> Path:
    p = tmp / f"{shape}_{n}.mlir"
    if not p.exists():
        p.write_text(gen_stress.SHAPES[shape](n))
    return p


def phase_share(path: Path, timeout: float) -> dict:
    """``bufferlog analyze --timing`` of ``path``: the certificate's and the whole
    analysis's wall seconds, and the certificate's share of the analysis."""
    r = subprocess.run([M.BUFFERLOG, "analyze", str(path), "--timing"], capture_output=True,
                       text=True, timeout=timeout, env=M.env())
    secs = {m[2]: float(m[1]) for m in re.finditer(r"^\s*([\d.]+) \(\s*[\d.]+%\)\s+(\S.*?)\s*$",
                                                   r.stderr, re.M)}
    cert, analysis = secs.get("certificate"), secs.get("analysis")
    return {"certificate_s": cert, "analysis_s": analysis,
            "share": round(cert / analysis, 3) if cert and analysis else None}


def output_share(path: Path, timeout: float) -> dict:
    """``bufferlog bufferize --timing`` of ``path``: the certificate of the output's wall
    seconds and its share of the command's top-level phases."""
    r = subprocess.run([M.BUFFERLOG, "bufferize", str(path), "--timing", "-o", os.devnull],
                       capture_output=True, text=True, timeout=timeout, env=M.env())
    return top_share(r.stderr, "output certificate")


def top_share(report: str, phase: str) -> dict:
    """``phase``'s wall seconds in a ``--timing`` report and its share of the report's
    total (the top-level phases, ``Total`` itself not among them)."""
    top = {m[3]: float(m[1]) for m in re.finditer(
        r"^\s*([\d.]+) \(\s*[\d.]+%\)( +)(\S.*?)\s*$", report, re.M)
        if len(m[2]) <= 2 and m[3] != "Total"}
    total = sum(top.values())
    cert = top.get(phase)
    return {"output_certificate_s": cert, "bufferize_s": round(total, 3),
            "share": round(cert / total, 3) if cert and total else None}


def growth(tmp: Path, shape: str, sizes: list[int], timeout: float, their: float,
           repeat: dict[int, int] | None = None) -> dict:
    """Each size's analysis by both tools, interleaved; ``repeat``: sizes run more than
    once (the median run of each tool kept)."""
    rows = {}
    for n in sizes:
        rows[n] = M.compare("analyze", write(tmp, shape, n), (repeat or {}).get(n, 1),
                            timeout=timeout, their_timeout=their)
        print(shape, n, rows[n]["bufferlog"]["s"], rows[n]["mlir_opt"]["s"], flush=True)
    return {"sizes": {str(n): r for n, r in rows.items()},
            "exponent_bufferlog": exponent([(n, r["bufferlog"]["s"] if r["bufferlog"]["status"]
                                              == "ok" else None) for n, r in rows.items()]),
            "exponent_mlir_opt": exponent([(n, r["mlir_opt"]["s"] if r["mlir_opt"]["status"]
                                            == "ok" else None) for n, r in rows.items()])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_scaling")
    ap.add_argument("--full", action="store_true", help="also the 20,000-op chain")
    ap.add_argument("--timeout", type=float, default=120, help="per bufferlog process, s")
    ap.add_argument("--mlir-timeout", type=float, default=None,
                    help="per mlir-opt process, s (default 150, with --full 600)")
    a = ap.parse_args(argv)
    their = a.mlir_timeout or (600 if a.full else 150)
    sizes = [1000, 5000, 10000] + ([20000] if a.full else [])
    out: dict = {"full": a.full, "timeout_s": a.timeout, "mlir_timeout_s": their}
    with tempfile.TemporaryDirectory(prefix="bench_scaling_") as d:
        tmp = Path(d)
        # the 10,000-op row holds a target: three interleaved runs of each tool, medians
        # (single runs of either moved by a fifth between runs on this shared machine)
        out["chain_analysis"] = growth(tmp, "chain", sizes, a.timeout, their, {10000: 3})
        inserts = write(tmp, "insert_chain", 10000)
        out["insert_chain_10000"] = M.compare("analyze", inserts, timeout=a.timeout,
                                              their_timeout=their) if a.full else \
            {"bufferlog": M.ours("analyze", inserts, timeout=a.timeout),
             "mlir_opt": {"s": None, "rss_mb": None, "status": "not run (--full)"},
             "ratio": None}
        print("insert chain", out["insert_chain_10000"]["bufferlog"], flush=True)
        chain5k = write(tmp, "chain", 5000)
        five = M.interleaved({
            "analyze": lambda: M.ours("analyze", chain5k, timeout=a.timeout),
            "bufferize": lambda: M.ours("bufferize", chain5k, timeout=a.timeout),
            "optimal": lambda: M.ours("analyze", chain5k, "--strategy", "optimal",
                                      timeout=a.timeout)}, repeat=3)
        theirs = M.theirs("bufferize", chain5k, timeout=their)
        buf = {"bufferlog": five["bufferize"], "mlir_opt": theirs,
               "ratio": M.ratio(five["bufferize"], theirs),
               "rss_ratio": M.ratio(five["bufferize"], theirs, "rss_mb"),
               "analysis": five["analyze"],
               "over_own_analysis": M.ratio(five["bufferize"], five["analyze"])}
        out["bufferize_chain_5000"] = buf
        print("bufferize 5k", buf["bufferlog"], "analyze 5k", five["analyze"], flush=True)
        out["optimal_chain_5000"] = {"bufferlog_optimal": five["optimal"],
                                     "bufferlog_oneshot": five["analyze"],
                                     "over_oneshot": M.ratio(five["optimal"], five["analyze"])}
        print("optimal 5k", five["optimal"], flush=True)
        out["certificate_chain_5000"] = phase_share(chain5k, a.timeout)
        print("certificate 5k", out["certificate_chain_5000"], flush=True)
        out["output_certificate_chain_5000"] = output_share(chain5k, a.timeout)
        print("output certificate 5k", out["output_certificate_chain_5000"], flush=True)
        out["for_body"] = growth(tmp, "for_body", [250, 1000], a.timeout, their)
        out["alias_writes"] = growth(tmp, "alias_writes", [100, 400], a.timeout, their)
        out["small_funcs"] = growth(tmp, "small_funcs_mb", [1, 2] + ([4] if a.full else []),
                                    a.timeout, their)
    print(f"wrote {M.save('scaling', out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

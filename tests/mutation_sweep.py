"""The mutation test at scale: invalid (and some valid) mutants of the corpus and of the
test programs, each judged by mlir-opt-22 and by bufferlog's parser and verifier.

``python -m tests.mutation_sweep [--seeds 1:4] [--per-group 200] [--structural 40]``

* literal and attribute groups (tests/literal_mutations.py: dense literals and their
  brackets, integer ranges, strings, brackets, linalg permutations and attributes,
  ranks, slices, tensor.pad, expand_shape, concat, the resources section, affine maps
  and affine ops): up to ``--per-group`` mutants per group and seed;
* structural mutants (tests/test_verify.py ``_mutants``: a line deleted, swapped or
  duplicated, a token dropped, a name replaced by another of its kind): ``--structural``
  per file and seed, from each file as written and as mlir-opt prints it in generic form.

Prints per group how many mutants both tools reject, both accept, and disagree on (an
allowed disagreement matches ``MISSED_OK`` / ``LITERAL_MISSED_OK`` of test_verify.py, each
with its reason), then the totals; exits 1 on any disagreement not allowed. The test
suite runs a sample of the same (``test_mutants_agree_with_mlir_opt``,
``test_literal_mutants_agree_with_mlir_opt``)."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import literal_mutations  # noqa: E402
import oracle  # noqa: E402
import test_verify as tv  # noqa: E402

#: files whose structure is mutated: the corpus and the test programs (not snippets of
#: invalid input)
STRUCTURAL_DIRS = ("parity", "coverage", "bufferize", "vector", "affine", "transform")


def _seeds(spec: str) -> range:
    a, _, b = spec.partition(":")
    return range(int(a), int(b)) if b else range(int(a), int(a) + 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1:4", help="a:b (half-open) or one seed")
    ap.add_argument("--per-group", type=int, default=200)
    ap.add_argument("--structural", type=int, default=20, help="mutants per file and seed")
    args = ap.parse_args(argv)
    mlir_opt = oracle.MLIR_OPT
    totals: dict[str, dict[str, int]] = {}
    bad: list[str] = []
    files = [*tv.CORPUS_FILES, *(p for d in STRUCTURAL_DIRS for p in sorted((HERE / d).glob("*.mlir")))]
    for seed in _seeds(args.seeds):
        rng = random.Random(seed)
        for group, mutate in literal_mutations.GROUPS.items():
            found = [(p.name, d, t) for p in tv.LITERAL_SOURCES for d, t in mutate(p.read_text(), rng)]
            rng.shuffle(found)
            counts, wrong = tv._judge(mlir_opt, found[:args.per_group], tv.LITERAL_MISSED_OK,
                                      tv.LITERAL_REJECTED_OK)
            _add(totals, group, counts)
            bad += [f"[{group}, seed {seed}] {b}" for b in wrong]
        if args.structural:
            mutants = []
            for p in files:
                text = p.read_text()
                mutants += [(p.name, d, t) for d, t in tv._mutants(text, rng, args.structural)]
                generic = subprocess.run([mlir_opt, "--allow-unregistered-dialect",
                                          "--mlir-print-op-generic", str(p)],
                                         capture_output=True, text=True, timeout=60).stdout
                if generic:
                    mutants += [(f"{p.name} (generic)", d, t)
                                for d, t in tv._mutants(generic, rng, max(1, args.structural // 3))]
            counts, wrong = tv._judge(mlir_opt, mutants, tv.MISSED_OK, tv.REJECTED_OK)
            _add(totals, "structural", counts)
            bad += [f"[structural, seed {seed}] {b}" for b in wrong]
    n = agree = allowed = 0
    for group, c in totals.items():
        g = sum(c.values())
        n += g
        agree += c["both reject"] + c["both accept"]
        allowed += c["missed (allowed)"] + c["rejected (allowed)"]
        print(f"{group:14} {g:6} mutants: {c['both reject']} both reject, {c['both accept']} "
              f"both accept, {c['missed (allowed)'] + c['rejected (allowed)']} allowed "
              "disagreements")
    n += len(bad)
    print(f"total: {n} mutants, {agree} judged alike ({agree / max(n, 1):.2%}), {allowed} "
          f"allowed disagreements, {len(bad)} not allowed")
    for b in bad:
        print(b)
    return 1 if bad else 0


def _add(totals: dict[str, dict[str, int]], group: str, counts: dict[str, int]) -> None:
    t = totals.setdefault(group, dict.fromkeys(counts, 0))
    for k, v in counts.items():
        t[k] += v


if __name__ == "__main__":
    sys.exit(main())

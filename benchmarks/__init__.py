"""Benchmarks: run with ``python -m benchmarks.<name>`` from the repository root.

``SHARED`` is the team's shared folder (corpus, oracle scripts), found the same way as the
tests find it (``tests/oracle.py shared_dir``)."""

from tests.oracle import shared_dir

SHARED = shared_dir()

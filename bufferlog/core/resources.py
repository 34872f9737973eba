"""Where bufferlog's files live: the per-user cache directory, and the shipped data once
installed. The rule files are package data of
``bufferlog.rules`` (the repository's ``rules/`` folder), found next to that package's
``__init__.py`` whether bufferlog runs from a checkout, an editable install or a wheel
(``importlib.resources`` would say the same and cost ~9 ms of every start-up)."""

from __future__ import annotations

import importlib
import os
from functools import cache
from pathlib import Path


@cache
def rules_dir() -> Path:
    """The directory of the shipped ``*.dl`` files."""
    init = Path(importlib.import_module("bufferlog.rules").__file__ or "")
    root = init.parent
    if not (root / "analysis.dl").is_file():  # e.g. a zip import: the engines need files
        raise RuntimeError(f"bufferlog's rules are not on the file system ({root}); "
                           "install bufferlog unzipped")
    return root


def rules_file(name: str) -> Path:
    """A shipped rule file, e.g. ``rules_file("analysis.dl")``."""
    return rules_dir() / name


def cache_dir() -> Path:
    """Where bufferlog keeps what it computes once for many processes (parser tables,
    checked rules, compiled regexes): ``$BUFFERLOG_CACHE_DIR``, else the XDG cache
    directory's ``bufferlog``."""
    env = os.environ.get("BUFFERLOG_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "bufferlog"

"""Where the shipped data lives once installed: the rule files are package data of
``bufferlog.rules`` (the repository's ``rules/`` folder), found next to that package's
``__init__.py`` whether bufferlog runs from a checkout, an editable install or a wheel
(``importlib.resources`` would say the same and cost ~9 ms of every start-up)."""

from __future__ import annotations

import importlib
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

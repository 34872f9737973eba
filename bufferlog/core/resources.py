"""Where the shipped data lives once installed: the rule files are package data of
``bufferlog.rules`` (the repository's ``rules/`` folder), found through
``importlib.resources`` whether bufferlog runs from a checkout, an editable install or
a wheel."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def rules_dir() -> Path:
    """The directory of the shipped ``*.dl`` files."""
    root = files("bufferlog.rules")
    if not isinstance(root, Path):  # a zip import: the engines need real files
        raise RuntimeError(f"bufferlog's rules are not on the file system ({root}); "
                           "install bufferlog unzipped")
    return root


def rules_file(name: str) -> Path:
    """A shipped rule file, e.g. ``rules_file("analysis.dl")``."""
    return rules_dir() / name

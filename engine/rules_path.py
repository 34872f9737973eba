"""Where the shipped rule files are."""

from __future__ import annotations

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


def rules_file(name: str) -> Path:
    return RULES_DIR / name

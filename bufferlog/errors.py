"""User-facing errors. Anything raised as a ``UserError`` is printed by the CLI as
``file:line:col: error: message`` (or ``error: message`` without a location), exit 1."""

from __future__ import annotations


class UserError(Exception):
    def __init__(self, message: str, loc: object | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc  # anything whose str() is "file:line:col", or None

    def __str__(self) -> str:
        return f"{self.loc}: error: {self.message}" if self.loc else f"error: {self.message}"


class CertificateError(Exception):
    """The rules' re-check of a finished assignment failed: a bufferlog bug, never the
    input's fault (the CLI reports it as an internal error, exit 2, and prints no IR)."""

"""The error types of bufferlog, shared by every layer (frontend, engine, backend, app,
API and CLI).

* :class:`UserError` — bad input: MLIR text, rule files, facts, options. The CLI prints it
  as ``file:line:col: error: message`` (or ``error: message`` without a location) with
  the source line and a caret, and exits 1.
* Its stage subclasses, raised by the Python API (``bufferlog.parse`` and friends) so a
  script can tell where its input was rejected: :class:`ParseError`,
  :class:`AnalysisError`, :class:`BufferizeError`, :class:`DeallocError`.
* :class:`InternalError` — a bufferlog bug met while handling valid input (exit 2 in the
  CLI); ``__cause__`` holds the original exception. :class:`CertificateError`: the rules'
  re-check of the decisions failed.
"""

from __future__ import annotations


class BufferlogError(Exception):
    """Base of every error bufferlog raises on purpose."""


class UserError(BufferlogError):
    def __init__(self, message: str, loc: object | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc  # anything whose str() is "file:line:col", or None

    def __str__(self) -> str:
        return f"{self.loc}: error: {self.message}" if self.loc else f"error: {self.message}"


class ParseError(UserError):
    """The MLIR text was rejected by the parser or the verifier."""


class AnalysisError(UserError):
    """The in-place analysis rejected the input (or the rule files it runs)."""


class BufferizeError(UserError):
    """The tensor-to-memref rewrite rejected the input."""


class DeallocError(UserError):
    """Deallocation insertion rejected the memref IR."""


class InternalError(BufferlogError):
    """A bufferlog bug; ``__cause__`` is the original exception."""


class CertificateError(InternalError):
    """The rules' re-check of a finished assignment failed (engine/certify.py): a bufferlog
    bug, never the input's fault; reported as an internal error (exit 2), with no IR."""

"""The small core every layer may import (it imports no other part of bufferlog):
error types and the lookup of the shipped rule files."""

from .errors import (
    AnalysisError,
    BufferizeError,
    BufferlogError,
    CertificateError,
    DeallocError,
    InternalError,
    ParseError,
    UserError,
)
from .resources import rules_dir, rules_file

__all__ = ["AnalysisError", "BufferizeError", "BufferlogError", "CertificateError", "DeallocError", "InternalError",
           "ParseError", "UserError", "rules_dir", "rules_file"]

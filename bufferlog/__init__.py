"""bufferlog: MLIR bufferization as declarative rules.

The Python API (see :mod:`bufferlog.api`)::

    import bufferlog
    m = bufferlog.parse(pathlib.Path("f.mlir"))      # or MLIR text
    a = bufferlog.analyze(m)                         # decisions, conflicts, figures
    b = bufferlog.bufferize(m, analysis=a)           # memref IR + deallocations
    print(b.text, b.figures.copies)
"""

__version__ = "0.1.0"

from bufferlog.api import (  # noqa: E402  (after __version__, which the app layer reads)
    Analysis,
    AnalysisFigures,
    Bufferized,
    Conflict,
    Copy,
    CopyListing,
    Deallocated,
    DeallocStats,
    Decision,
    Explanation,
    OperandRef,
    OutputFigures,
    ValueRef,
    analyze,
    bufferize,
    deallocate,
    explain,
    explain_copies,
    parse,
)
from bufferlog.core.errors import (  # noqa: E402
    AnalysisError,
    BufferizeError,
    BufferlogError,
    DeallocError,
    InternalError,
    ParseError,
    UserError,
)

__all__ = [
    "Analysis", "AnalysisError", "AnalysisFigures", "Bufferized", "BufferizeError",
    "BufferlogError", "Conflict", "Copy", "CopyListing", "DeallocError", "DeallocStats",
    "Deallocated", "Decision", "Explanation", "InternalError", "OperandRef", "OutputFigures",
    "ParseError", "UserError", "ValueRef", "__version__", "analyze", "bufferize", "deallocate",
    "explain", "explain_copies", "parse", "OneShotOptions",
]


def __getattr__(name: str):
    if name == "OneShotOptions":  # mlir-opt's One-Shot options; loaded on first use
        from bufferlog.engine.options import OneShotOptions

        return OneShotOptions
    raise AttributeError(f"module 'bufferlog' has no attribute '{name}'")

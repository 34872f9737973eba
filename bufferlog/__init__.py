"""bufferlog: MLIR bufferization as declarative rules.

The Python API (see :mod:`bufferlog.api`)::

    import bufferlog
    m = bufferlog.parse(pathlib.Path("f.mlir"))      # or MLIR text
    a = bufferlog.analyze(m)                         # decisions, conflicts, figures
    b = bufferlog.bufferize(m, analysis=a)           # memref IR + deallocations
    print(b.text, b.figures.copies)
"""

__version__ = "0.1.0"

#: the public names and the module each comes from, imported on first use: the
#: ``bufferlog`` executable's first step (bufferlog/client.py) imports this package and
#: must not pay for the API's imports when a server answers the command
_API = ("Analysis", "AnalysisFigures", "Bufferized", "Conflict", "Copy", "CopyListing",
        "Deallocated", "DeallocStats", "Decision", "Explanation", "OperandRef",
        "OutputFigures", "ValueRef", "analyze", "bufferize", "deallocate", "explain",
        "explain_copies", "parse")
_ERRORS = ("AnalysisError", "BufferizeError", "BufferlogError", "DeallocError",
           "InternalError", "ParseError", "UserError")
_LAZY = {**dict.fromkeys(_API, "bufferlog.api"), **dict.fromkeys(_ERRORS, "bufferlog.core.errors"),
         "OneShotOptions": "bufferlog.engine.options"}

__all__ = [*_API, *_ERRORS, "__version__", "OneShotOptions"]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bufferlog' has no attribute '{name}'")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})

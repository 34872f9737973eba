"""bufferlog: MLIR bufferization as declarative rules."""

__version__ = "0.1.0"

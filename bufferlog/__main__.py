"""``python -m bufferlog``: the command line."""

from bufferlog.cli import entry

entry()

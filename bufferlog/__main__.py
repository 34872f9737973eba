"""``python -m bufferlog``: the command line (through a running server when there is one)."""

from bufferlog.client import entry

entry()

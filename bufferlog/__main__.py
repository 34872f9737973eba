"""``python -m bufferlog``: the command line."""

import sys

from bufferlog.cli import main

sys.exit(main())

"""``bufferlog serve [--detach | --stop | --status] [--workers N] [--idle-timeout S]``:
keep bufferlog loaded in a server, so that every ``bufferlog`` command of this user and
this installation is answered in the time of its own work (bufferlog/serve.py)."""

from __future__ import annotations

import os
import sys
import time

from bufferlog.commands import COMMANDS
from bufferlog.core import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help=COMMANDS["serve"],
        description="Run a server that keeps the parser tables, the rules and the engine "
                    "loaded. While it runs, every bufferlog command of this user for this "
                    "installation is answered by it, with the same output and exit code as "
                    "a command run on its own (BUFFERLOG_NO_SERVER=1 runs one without it). "
                    "Without --detach it runs in the foreground until Ctrl-C.")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--detach", action="store_true",
                      help="start the server in the background and return once it answers")
    what.add_argument("--stop", action="store_true", help="stop the running server")
    what.add_argument("--status", action="store_true",
                      help="say whether a server is running (exit 0) or not (exit 3)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="processes kept ready for a command (default: CPU count)")
    p.add_argument("--idle-timeout", type=float, default=None, metavar="S",
                   help="stop after S seconds without a command (default: never)")
    p.set_defaults(func=run)


def _describe(status: dict) -> str:
    up = time.time() - status["started"]
    return (f"server {status['pid']} on {status['socket']}: {status['workers']} workers, "
            f"{status.get('commands', 0)} commands in {up:.0f} s")


def run(args) -> int:
    from bufferlog import client, serve

    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    if args.idle_timeout is not None and args.idle_timeout <= 0:
        raise UserError("--idle-timeout must be positive")
    ident = client.identity()
    try:
        if args.status:
            status = serve.request(ident, "status")
            if status is None:
                print("no server running for this installation")
                return 3
            print(_describe(status))
            return 0
        if args.stop:
            if not serve.stop(ident):
                print("no server running for this installation")
                return 0
            print("server stopped")
            return 0
        if args.detach:
            status = serve.start_detached(ident, args.workers, args.idle_timeout)
            print(("already running: " if status.get("already") else "started ")
                  + _describe(status))
            return 0
        print(f"bufferlog serve: loading ({client.socket_path(ident)})", file=sys.stderr)
        try:
            return serve.serve(args.workers, args.idle_timeout)
        except KeyboardInterrupt:
            return 0
    except serve.ServeError as e:
        raise UserError(f"serve: {e}") from None

"""``bufferlog serve``: a server that keeps bufferlog loaded, so that a command is answered
in the time of its own work (mypy's dmypy is the model).

How it works:

* The server process imports everything a command runs and runs every command once on
  small samples (:func:`warm_up`): the parser tables, the rule programs (each translated
  for the engine, the lines parsed by clingo, ...) and the batch's worker code are loaded
  and their caches filled. Whatever program a command runs, it is warm, because the
  warm-up runs the commands themselves, not a list of programs.
* It listens on a Unix socket in a folder only its user can enter
  (:func:`bufferlog.client.run_dir`), named by the installed code's identity
  (:func:`bufferlog.client.identity`). A connecting process must be the same user (the
  kernel's peer credentials are checked on both sides).
* It keeps ``workers`` processes forked from itself waiting for a command. Each takes one
  connection, runs that one command and exits: every command starts from the same warm
  state and leaves nothing behind, as a new process would. The process receives the
  client's standard streams and working directory as file descriptors, its arguments,
  environment and umask, sets them as its own, then runs :func:`bufferlog.cli.main`
  exactly as a cold process does: same output, same exit code, same files. A busy
  worker is replaced at once by a new one (at most ``4 * workers`` commands run at a
  time; further clients wait their turn).
* It stops on SIGTERM / Ctrl-C / ``bufferlog serve --stop``, after ``--idle-timeout``
  seconds without a command, or when the installed code changes (checked every few
  seconds): a client of the new code looks for a socket of another name and runs cold
  until a new server is started.

The client side is :mod:`bufferlog.client`."""

from __future__ import annotations

import io
import os
import signal
import sys
import time

from bufferlog import client

#: seconds between two checks of the installed code (and of the socket file)
CHECK_EVERY = 3.0

#: the flag of a worker's note that its connection is a command (bit 31 of the pid)
_COMMAND = 1 << 31


class ServeError(Exception):
    pass


# ---------------------------------------------------------------------------------
# Starting, stopping, status
# ---------------------------------------------------------------------------------


def prepare_dir(d: str) -> None:
    """Create the socket folder (mode 0700) or check that it is this user's alone."""
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
    except OSError as e:
        raise ServeError(f"cannot create {d}: {e.strerror or e}") from None
    if not client.private_dir(d):
        raise ServeError(f"{d} must be a folder of this user that no one else can enter "
                         "(mode 0700)")


def request(ident: str, kind: str) -> dict | None:
    """Send a control request (``status``, ``stop``) to the server of ``ident``: its
    answer, or None when none is up."""
    import marshal

    s = client.connect(ident)
    if s is None:
        return None
    try:
        body = marshal.dumps({"protocol": client.PROTOCOL, "kind": kind})
        s.sendall(len(body).to_bytes(4, "little") + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        return None
    finally:
        s.close()
    try:
        return marshal.loads(data) if data else None
    except (EOFError, ValueError, TypeError):
        return None


def start_detached(ident: str, workers: int, idle_timeout: float | None,
                   wait: float = 120.0) -> dict:
    """Start a server in the background and wait until it answers; its status."""
    import subprocess

    status = request(ident, "status")
    if status is not None:
        return {**status, "already": True}
    d = client.run_dir()
    prepare_dir(d)
    log = os.path.join(d, f"{ident}.log")
    # the server imports bufferlog from where this process did (-P: not from the
    # working directory, which may hold another copy of it)
    cmd = [sys.executable, "-P", "-m", "bufferlog", "serve", "--workers", str(workers)]
    if idle_timeout:
        cmd += ["--idle-timeout", str(idle_timeout)]
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(client.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([here, *filter(None, [env.get("PYTHONPATH")])])
    with open(os.devnull, "rb") as null, open(log, "ab") as out:
        p = subprocess.Popen(cmd, stdin=null, stdout=out, stderr=out, start_new_session=True,
                             close_fds=True, env=env)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        status = request(ident, "status")
        if status is not None:
            return status
        if p.poll() is not None:
            raise ServeError(f"the server exited with code {p.returncode}; see {log}")
        time.sleep(0.05)
    raise ServeError(f"the server did not answer within {wait:g} s; see {log}")


def stop(ident: str, wait: float = 30.0) -> bool:
    """Ask the server of ``ident`` to stop and wait until it is gone: its socket, and its
    lock, which its forked workers hold too until they have exited (so that a server
    started right after does not find the old one still running); whether one was
    running."""
    import fcntl

    answer = request(ident, "stop")
    if answer is None:
        return False
    path = client.socket_path(ident)
    deadline = time.monotonic() + wait
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        fd = os.open(client.lock_path(ident), os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return True
    try:
        while time.monotonic() < deadline:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                time.sleep(0.02)
    finally:
        os.close(fd)
    return True


# ---------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------

_TENSOR_SAMPLE = """\
func.func private @callee(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}
func.func @f(%a: tensor<4xf32>, %i: index, %c: i1) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %y = tensor.insert %f into %e[%i] : tensor<4xf32>
  %z = linalg.fill ins(%f : f32) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %s = tensor.extract_slice %z[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %u = tensor.insert_slice %s into %z[2] [2] [1] : tensor<2xf32> into tensor<4xf32>
  %w = scf.if %c -> (tensor<4xf32>) {
    %k = func.call @callee(%u) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %k : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %r = scf.for %k = %c0 to %i step %c1 iter_args(%t = %w) -> (tensor<4xf32>) {
    %v = tensor.insert %f into %t[%k] : tensor<4xf32>
    scf.yield %v : tensor<4xf32>
  }
  %g = tensor.extract %u[%c1] : tensor<4xf32>
  return %r, %x : tensor<4xf32>, f32
}
"""

_MEMREF_SAMPLE = """\
func.func @g(%n: index, %c: i1) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = scf.if %c -> (memref<?xf32>) {
    scf.yield %a : memref<?xf32>
  } else {
    %d = memref.alloc(%n) : memref<?xf32>
    scf.yield %d : memref<?xf32>
  }
  return %b : memref<?xf32>
}
"""


def warm_up() -> None:
    """Run every command a client may send on the samples, output thrown away, so that
    what they load (modules, parser tables, rule programs, engine caches) is loaded once
    in the server, before its workers are forked. An error here only costs warmth."""
    import tempfile

    from bufferlog import cli

    _memoize_parsers(cli)
    with tempfile.TemporaryDirectory(prefix="bufferlog-warm-") as tmp:
        tensor = os.path.join(tmp, "t.mlir")
        memref = os.path.join(tmp, "m.mlir")
        with open(tensor, "w", encoding="utf-8") as f:
            f.write(_TENSOR_SAMPLE)
        with open(memref, "w", encoding="utf-8") as f:
            f.write(_MEMREF_SAMPLE)
        runs = [["print", tensor], ["analyze", tensor], ["bufferize", tensor],
                ["bufferize", tensor, "--strategy", "optimal"],
                ["bufferize", tensor, "--plan", "all"],
                ["analyze", tensor, "--strategy", "optimal"],
                ["explain", tensor, "--op", "10"], ["explain", tensor, "--alloc", "8"],
                ["dealloc", memref],
                ["facts", tensor, "-o", os.path.join(tmp, "facts")], ["rules", "check"]]
        with _quiet():
            for argv in runs:
                try:
                    cli.main(argv)
                except BaseException:  # SystemExit from a usage error, or a bug: go on
                    pass
            try:
                import bufferlog.app.batch_worker  # noqa: F401  (warms the batch's code)
            except Exception:
                pass
            for argv in runs:  # once more: what only a second run takes from the caches
                try:
                    cli.main(argv)
                except BaseException:
                    pass


def prefault() -> None:
    """In a new worker, before it takes a command: bufferize the sample once. The pages a
    command writes (reference counts of the loaded state, the allocator's arenas) are
    shared with the server after the fork and copied on the first write: here, while the
    worker waits, not during the command (a command then takes ~4 times fewer page
    faults and ~7% less time)."""
    try:
        from bufferlog import api

        with _quiet():
            api.bufferize(api.parse(_TENSOR_SAMPLE, "<prefault>")).print()
    except BaseException:  # only warmth is lost
        pass


def _memoize_parsers(cli) -> None:
    """In the server only: each command's argument parser is built once (by the warm-up)
    and reused by every worker, instead of once per command. (Not in ``bufferlog.cli``
    itself: a parser keeps the ``run`` function it was built with.)"""
    build = cli.build_parser
    built: dict = {}

    def build_parser(argv=None):
        chosen = next((a for a in argv or () if not a.startswith("-")), None)
        key = chosen if argv is not None and chosen in cli.commands.COMMANDS else None
        parser = built.get(key)
        if parser is None:
            parser = built[key] = build(argv)
        return parser

    cli.build_parser = build_parser


class _quiet:
    """Standard output and error sent to /dev/null (file descriptors and Python's
    streams) for the warm-up."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.saved = (os.dup(1), os.dup(2), sys.stdout, sys.stderr)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        sys.stderr = sys.stdout
        return self

    def __exit__(self, *exc):
        sys.stdout.close()
        out, err, sys.stdout, sys.stderr = self.saved
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)


class Server:
    """The listening process: forks the workers, replaces those that took a command, stops
    when asked, idle or out of date."""

    def __init__(self, ident: str, roots: list[str], workers: int = 2,
                 idle_timeout: float | None = None, log=None):
        self.ident, self.roots = ident, roots
        self.workers = max(1, workers)
        self.max_busy = 4 * self.workers
        self.idle_timeout = idle_timeout
        self.log = log or sys.stderr
        self.dir = client.run_dir()
        self.path = client.socket_path(ident, self.dir)
        self.idle: set[int] = set()  # forked, waiting in accept()
        self.busy: set[int] = set()  # running a command
        self.served = 0  # connections taken
        self.commands = 0  # of which commands run
        self.cpu = 0.0  # user + system seconds of the workers that served, as they exited
        self.stats_stale = True
        self.stats_path = os.path.join(self.dir, f"{ident}.stats")
        self.started = time.time()
        self.last_active = time.monotonic()
        self.stopping = False
        self.failed = 0  # workers in a row that died idle
        self.sock = None
        self.lock_fd = -1
        self.inode = None

    def say(self, text: str) -> None:
        try:
            self.log.write(f"bufferlog serve [{os.getpid()}] {time.strftime('%H:%M:%S')}: "
                           f"{text}\n")
            self.log.flush()
        except (OSError, ValueError):
            pass

    # -- set-up ----------------------------------------------------------------------
    def lock(self) -> None:
        """Take the server's lock: one server per code and user."""
        import fcntl

        prepare_dir(self.dir)
        lock = client.lock_path(self.ident, self.dir)
        self.lock_fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(self.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.lock_fd)
            self.lock_fd = -1
            raise ServeError(f"a server for this code is already running ({self.path})") \
                from None

    def listen(self) -> None:
        """Listen on the socket (mode 0600, in the private folder)."""
        import socket

        try:
            os.unlink(self.path)  # a socket left by a server that was killed
        except FileNotFoundError:
            pass
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        os.set_inheritable(s.fileno(), False)
        old = os.umask(0o077)
        try:
            s.bind(self.path)
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        s.listen(64)
        self.sock = s
        self.inode = os.stat(self.path).st_ino

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> int:
        import select

        status_r, status_w = os.pipe()
        wake_r, wake_w = os.pipe()
        for fd in (wake_r, wake_w, status_r):
            os.set_blocking(fd, False)
        self.status_w = status_w
        self.pipes = (status_r, wake_r, wake_w)
        stop_signals = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
        for sig in stop_signals:
            signal.signal(sig, self._stop_signal)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wake_w)
        self.say(f"listening on {self.path} ({self.workers} workers)")
        next_check = time.monotonic() + CHECK_EVERY
        poller = select.poll()
        poller.register(status_r, select.POLLIN)
        poller.register(wake_r, select.POLLIN)
        try:
            while not self.stopping:
                self._reap()
                while len(self.idle) < self.workers and len(self.busy) < self.max_busy \
                        and not self.stopping:
                    self._fork_worker()
                timeout = max(0.0, next_check - time.monotonic())
                for fd, _ in poller.poll(timeout * 1000):
                    if fd == wake_r:
                        _drain(wake_r)
                    elif fd == status_r:
                        self._busy_notes(status_r)
                if self.stats_stale:
                    self._write_stats()
                if time.monotonic() >= next_check:
                    next_check = time.monotonic() + CHECK_EVERY
                    self._check()
        finally:
            self._shutdown()
        return 0

    def stats(self) -> dict:
        return {"pid": os.getpid(), "socket": self.path, "identity": self.ident,
                "workers": self.workers, "started": self.started, "served": self.served,
                "commands": self.commands,
                "worker_cpu_s": round(self.cpu, 6), "python": sys.executable}

    def _write_stats(self) -> None:
        """The counts a status request reports (answered by a worker, which was forked
        before them)."""
        import marshal

        self.stats_stale = False
        tmp = f"{self.stats_path}.tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(marshal.dumps(self.stats()))
            os.replace(tmp, self.stats_path)
        except OSError:
            pass

    def _stop_signal(self, signum, _frame) -> None:
        self.stopping = True

    def _fork_worker(self) -> None:
        pid = os.fork()
        if pid == 0:
            code = 2
            try:
                code = self._worker()
            except BaseException:  # never return into the server's loop
                try:
                    import traceback

                    traceback.print_exc()
                except BaseException:
                    pass
            finally:
                os._exit(code)
        self.idle.add(pid)

    def _busy_notes(self, fd: int) -> None:
        """A worker's notes: its pid when it takes a connection, the pid with bit 31 set
        when the connection is a command (not a status or stop request)."""
        data = _drain(fd)
        for i in range(0, len(data) - len(data) % 4, 4):
            pid = int.from_bytes(data[i:i + 4], "little")
            if pid & _COMMAND:
                self.commands += 1
                self.stats_stale = True
            elif pid in self.idle:
                self.idle.discard(pid)
                self.busy.add(pid)
                self.served += 1
                self.stats_stale = True
                self.last_active = time.monotonic()

    def _reap(self) -> None:
        while True:
            try:
                pid, _, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid in self.busy:
                self.cpu += usage.ru_utime + usage.ru_stime
                self.busy.discard(pid)
                self.stats_stale = True
                self.last_active = time.monotonic()
                self.failed = 0
            elif pid in self.idle and not self.stopping:  # died before taking a command
                self.idle.discard(pid)
                self.failed += 1
                if self.failed >= 10:
                    self.say("workers die before taking a command; stopping")
                    self.stopping = True

    def _check(self) -> None:
        """Stop when the code changed, the socket file is gone or replaced, or idle too
        long."""
        try:
            same_socket = os.stat(self.path).st_ino == self.inode
        except OSError:
            same_socket = False
        if not same_socket:
            self.say("the socket file was removed; stopping")
            self.stopping = True
        elif client.identity(self.roots) != self.ident:
            self.say("the installed code changed; stopping")
            self.stopping = True
        elif self.idle_timeout and not self.busy and \
                time.monotonic() - self.last_active > self.idle_timeout:
            self.say(f"idle for {self.idle_timeout:g} s; stopping")
            self.stopping = True

    def _shutdown(self) -> None:
        """Stop listening, end the idle workers; busy ones finish their command."""
        try:
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        except OSError:
            pass
        if self.sock is not None:
            self.sock.close()
        for pid in list(self.idle):
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        deadline = time.monotonic() + 5
        while (self.idle or self.busy) and time.monotonic() < deadline:
            self._reap()
            time.sleep(0.01)
        try:
            os.unlink(self.stats_path)
        except OSError:
            pass
        self.say(f"stopped after {self.served} connections")

    # -- a worker ------------------------------------------------------------------------
    def _worker(self) -> int:
        """In a forked process: wait for one connection and serve it."""
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.set_wakeup_fd(-1)
        for fd in self.pipes:
            os.close(fd)
        os.close(self.lock_fd)
        prefault()
        while True:
            try:
                conn, _ = self.sock.accept()
            except InterruptedError:
                continue
            except OSError:
                return 0
            break
        self.sock.close()
        os.write(self.status_w, os.getpid().to_bytes(4, "little"))
        try:
            return serve_connection(conn, self)
        finally:
            conn.close()


def _drain(fd: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            return out
        if not chunk:
            return out
        out += chunk


# ---------------------------------------------------------------------------------
# One connection
# ---------------------------------------------------------------------------------


def _receive(conn) -> tuple[dict, list[int]]:
    """The request (a ``marshal``-ed dict after its 4-byte length) and the file
    descriptors sent with it."""
    import _socket
    import array
    import marshal

    fds = array.array("i")
    data = b""
    want = None
    while want is None or len(data) < want + 4:
        chunk, anc, _flags, _addr = conn.recvmsg(65536, _socket.CMSG_SPACE(16 * 4))
        for level, kind, payload in anc:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
        if not chunk:
            break
        data += chunk
        if want is None and len(data) >= 4:
            want = int.from_bytes(data[:4], "little")
    if want is None or len(data) < want + 4:
        raise EOFError("incomplete request")
    return marshal.loads(data[4:4 + want]), list(fds)


def serve_connection(conn, server: Server) -> int:
    """Check the peer, read its request, run it. The process exits afterwards."""
    import _socket
    import marshal

    cred = conn.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    if int.from_bytes(cred[4:8], sys.byteorder) != os.getuid():
        return 1
    try:
        req, fds = _receive(conn)
    except (OSError, EOFError, ValueError, TypeError):
        return 1
    if not isinstance(req, dict) or req.get("protocol") != client.PROTOCOL:
        conn.sendall(b"S" + (0).to_bytes(4, "little"))
        return 1
    kind = req.get("kind")
    if kind in ("status", "stop"):
        for fd in fds:
            os.close(fd)
        try:
            with open(server.stats_path, "rb") as f:
                answer = marshal.loads(f.read())
        except (OSError, EOFError, ValueError, TypeError):
            answer = {**server.stats(), "pid": os.getppid()}
        if kind == "stop":
            os.kill(os.getppid(), signal.SIGTERM)
        conn.sendall(marshal.dumps(answer))
        return 0
    if kind != "run" or len(fds) != 4:
        for fd in fds:
            os.close(fd)
        conn.sendall(b"S" + (0).to_bytes(4, "little"))
        return 1
    os.write(server.status_w, (os.getpid() | _COMMAND).to_bytes(4, "little"))
    os.close(server.status_w)
    conn.sendall(b"P" + os.getpid().to_bytes(4, "little", signed=True))
    me, real_exit = os.getpid(), os._exit

    def reply(code: int) -> None:
        try:
            conn.sendall(b"X" + int(code).to_bytes(4, "little", signed=True))
        except (OSError, OverflowError, ValueError):
            pass

    def exit_now(code: int) -> None:
        """``os._exit`` of a command that leaves that way (batch after Ctrl-C): the
        client still gets the code. Processes the command forks leave quietly."""
        if os.getpid() == me:
            reply(code)
        real_exit(code)

    os._exit = exit_now
    code = run_request(req, fds)
    reply(code)
    return code


def run_request(req: dict, fds: list[int]) -> int:
    """Become the client's process (streams, working directory, environment, umask,
    arguments), then run the command as :func:`bufferlog.cli.entry` does."""
    import atexit

    stdin, stdout, stderr, cwd = fds
    for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(fd, target)
        os.close(fd)
    os.fchdir(cwd)
    os.close(cwd)
    os.environ.clear()
    os.environ.update(req["env"])
    os.umask(req["umask"])
    sys.argv = list(req["sys_argv"])
    sys.stdin, sys.stdout, sys.stderr = (_stream(fd, mode, params) for fd, mode, params in
                                         zip((0, 1, 2), "rww", req["streams"], strict=True))
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
    from bufferlog import cli

    try:
        code = cli.main(list(req["argv"]))
    except SystemExit as e:  # as the interpreter ends a process on SystemExit
        code = _exit_code(e.code)
    except KeyboardInterrupt:
        code = 130
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    except OSError:
        pass
    atexit._run_exitfuncs()
    return code


def _exit_code(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if code >= 0 else code
    try:
        sys.stderr.write(f"{code}\n")
    except (OSError, ValueError):
        pass
    return 1


def _stream(fd: int, mode: str, params: tuple):
    """A standard stream over ``fd`` made as Python made the client's."""
    encoding, errors, line_buffering, write_through, unbuffered = params
    raw = io.FileIO(fd, mode, closefd=False)
    if unbuffered and mode == "w":
        buffer = raw
    elif mode == "r":
        buffer = io.BufferedReader(raw)
    else:
        buffer = io.BufferedWriter(raw)
    return io.TextIOWrapper(buffer, encoding=encoding, errors=errors, newline="\n",
                            line_buffering=line_buffering, write_through=write_through)


def serve(workers: int = 2, idle_timeout: float | None = None) -> int:
    """Run a server in this process until it stops (``bufferlog serve``)."""
    roots = client.package_roots()
    ident = client.identity(roots)
    server = Server(ident, roots, workers, idle_timeout)
    server.lock()
    server.say("loading")
    warm_up()
    import gc

    gc.collect()
    gc.freeze()  # the workers' collections never scan (nor copy) the loaded state
    gc.disable()
    server.listen()
    return server.run()

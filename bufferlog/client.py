"""The ``bufferlog`` executable's first step: answer through a running server, else run
the command in this process.

A server (``bufferlog serve``, :mod:`bufferlog.serve`) keeps the parser tables, the rules
and the engine loaded. When one is up for this very installation, this module hands it
the command: the arguments, the working directory, the environment, the umask and the
standard streams themselves (their file descriptors travel over the server's Unix socket,
so the command reads and writes exactly where this process would), then waits for the
exit code and exits with it. Ctrl-C (and SIGTERM, SIGHUP) are passed on to the process
running the command. With no server, or a server that does not answer, the command runs
here as it always did (:func:`bufferlog.cli.entry`); ``BUFFERLOG_NO_SERVER=1`` skips the
server.

It imports nothing but built-in modules (``_socket``, ``marshal``, ``zlib``): a client
costs the interpreter's start-up and about a millisecond.

Two more things happen here, before anything else of bufferlog is imported:

* :func:`identity` names the installed code: a checksum of the path, size and
  modification time of every file of the package (Python modules, rules, grammar). The
  server's socket is named by it, so a server started before the code changed (an
  upgrade, an edit of an editable install) is never asked; it notices the change itself
  and stops.
* :func:`ensure_bytecode`: with ``PYTHONDONTWRITEBYTECODE`` set, Python never writes the
  ``.pyc`` files of a package whose install did not (an editable install) and compiles
  every module from source on every run (~140 ms). When the package's bytecode is
  missing or older than its sources, it is written once, if the package's folder is
  writable.
"""

from __future__ import annotations

import os
import sys

#: version of the request and reply format between client and server
PROTOCOL = 1

#: the package's source files that make its identity
_SUFFIXES = (".py", ".dl", ".lark", ".html")

#: the sub-packages an editable install may map to folders outside the package's own
_MAPPED = ("frontend", "engine", "backend", "rules")

_STAMP = "bufferlog-bytecode.stamp"


def entry() -> None:
    """The ``bufferlog`` executable (and ``python -m bufferlog``)."""
    _start(sys.argv[1:])


def opt_entry() -> None:
    """The ``bufferlog-opt`` executable: ``bufferlog opt`` under mlir-opt's name, for command
    lines written for mlir-opt (``bufferlog-opt f.mlir -one-shot-bufferize=...``)."""
    _start(["opt", *sys.argv[1:]])


def _start(argv: list[str]) -> None:
    """Answer ``argv`` through a warm server when one is up, else run it here."""
    roots = package_roots()
    ident = identity(roots)
    if argv[:1] != ["serve"] and not os.environ.get("BUFFERLOG_NO_SERVER"):
        code = ask_server(argv, ident)
        if code is not None:
            os._exit(code)
    if sys.dont_write_bytecode:
        ensure_bytecode(roots, ident)
    from bufferlog.cli import _run_and_exit

    _run_and_exit(argv)


# ---------------------------------------------------------------------------------
# The installed code
# ---------------------------------------------------------------------------------


def package_roots() -> list[str]:
    """The folders holding the package's files: the package's own, and those of the
    sub-packages an editable install maps elsewhere (found by the import system's
    finders, without importing them)."""
    here = os.path.dirname(os.path.abspath(__file__))
    roots = [here]
    import bufferlog

    for name in _MAPPED:
        spec = _find_spec(f"bufferlog.{name}", bufferlog.__path__)
        locations = getattr(spec, "submodule_search_locations", None) or ()
        for loc in locations:
            loc = os.path.abspath(loc)
            if loc != here and not loc.startswith(here + os.sep) and loc not in roots:
                roots.append(loc)
    return roots


def _find_spec(name: str, path: list[str]):
    """``importlib.util.find_spec`` without importing importlib.util (~1 ms)."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec = find(name, path)
        except Exception:
            continue
        if spec is not None:
            return spec
    return None


def _files(roots: list[str]) -> list[tuple[str, int, int]]:
    """(path, size, modification time in ns) of every source file under ``roots``."""
    out: list[tuple[str, int, int]] = []
    todo = list(roots)
    while todo:
        d = todo.pop()
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            name = e.name
            if name.endswith(_SUFFIXES):
                try:
                    st = e.stat()
                except OSError:
                    continue
                out.append((e.path, st.st_size, st.st_mtime_ns))
            elif name != "__pycache__" and "." not in name and e.is_dir():
                todo.append(e.path)
    out.sort()
    return out


def identity(roots: list[str] | None = None) -> str:
    """A name for the installed code: 16 hex digits checksumming the interpreter and the
    path, size and modification time of every source file of the package."""
    import zlib

    text = "\n".join([sys.version, sys.executable, *(f"{p}\0{s}\0{m}" for p, s, m in
                                                       _files(roots or package_roots()))])
    data = text.encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def ensure_bytecode(roots: list[str], ident: str) -> None:
    """Write the package's missing or stale ``.pyc`` files once (``py_compile`` writes
    whatever ``PYTHONDONTWRITEBYTECODE`` says), noted by a stamp holding the code's
    :func:`identity`; nothing when the stamp matches or the folder is read-only."""
    stamp = os.path.join(roots[0], "__pycache__", _STAMP)
    try:
        with open(stamp, encoding="utf-8") as f:
            if f.read() == ident:
                return
    except OSError:  # no stamp: compiled by its installer (a regular pip install)?
        if _fresh_bytecode(os.path.join(roots[0], "cli.py")):
            return  # then nothing is written into the installed package
    if not os.access(roots[0], os.W_OK):
        return
    compile_package(roots)
    try:
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        tmp = f"{stamp}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(ident)
        os.replace(tmp, stamp)
    except OSError:
        pass


def _fresh_bytecode(source: str) -> bool:
    """Whether ``source`` has a ``.pyc`` that Python would use as it is (the header's
    magic number, source time and size; as ``importlib`` checks them)."""
    import _frozen_importlib_external as bootstrap

    try:
        st = os.stat(source)
        with open(bootstrap.cache_from_source(source), "rb") as f:
            head = f.read(16)
    except (OSError, NotImplementedError, ValueError):
        return False
    if len(head) < 16 or head[:4] != bootstrap.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(head[4:8], "little")
    if flags & 1:  # hash-based: valid by construction when unchecked, else by its hash
        return not flags & 2
    return (int.from_bytes(head[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(head[12:16], "little") == st.st_size & 0xFFFFFFFF)


def precompile() -> None:
    """Write the package's bytecode and its stamp now (``make venv`` after installing)."""
    roots = package_roots()
    stamp = os.path.join(roots[0], "__pycache__", _STAMP)
    try:
        os.unlink(stamp)
    except OSError:
        pass
    ensure_bytecode(roots, identity(roots))


def compile_package(roots: list[str]) -> None:
    """Compile every module under ``roots`` whose ``.pyc`` is missing or stale."""
    import compileall

    for root in roots:
        try:
            compileall.compile_dir(root, quiet=2, workers=1)
        except Exception:  # a module that does not compile shows its error when imported
            pass


# ---------------------------------------------------------------------------------
# Where a server listens
# ---------------------------------------------------------------------------------


def run_dir() -> str:
    """The folder of this user's server sockets: ``$BUFFERLOG_RUN_DIR``, else
    ``$XDG_RUNTIME_DIR/bufferlog``, else ``$TMPDIR/bufferlog-<uid>`` (``/tmp``)."""
    d = os.environ.get("BUFFERLOG_RUN_DIR")
    if d:
        return d
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "bufferlog")
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"bufferlog-{os.getuid()}")


def private_dir(d: str) -> bool:
    """Whether ``d`` is a real folder (not a link) of this user that no one else may
    enter or write."""
    try:
        st = os.lstat(d)
    except OSError:
        return False
    return (st.st_mode & 0o170000) == 0o040000 and st.st_uid == os.getuid() \
        and (st.st_mode & 0o077) == 0


def socket_path(ident: str, d: str | None = None) -> str:
    """The socket of the server for the code named ``ident``."""
    return os.path.join(d or run_dir(), f"{ident}.sock")


def lock_path(ident: str, d: str | None = None) -> str:
    """The lock file of the server for the code named ``ident`` (held by it and its
    workers while any of them runs)."""
    return os.path.join(d or run_dir(), f"{ident}.lock")


# ---------------------------------------------------------------------------------
# Asking the server
# ---------------------------------------------------------------------------------


def connect(ident: str):
    """A socket connected to this user's server for this code, or None."""
    import _socket

    d = run_dir()
    if not private_dir(d):
        return None
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        s.connect(socket_path(ident, d))
        cred = s.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
        if int.from_bytes(cred[4:8], sys.byteorder) != os.getuid():
            raise OSError("the server is another user's")
    except OSError:
        s.close()
        return None
    return s


def _stream_params(stream) -> tuple | None:
    """How Python set up a standard stream: (encoding, errors, line buffering, write
    through, unbuffered binary layer); None when the stream is missing."""
    if stream is None:
        return None
    try:
        return (stream.encoding, stream.errors, stream.line_buffering, stream.write_through,
                type(stream.buffer).__name__ == "FileIO")
    except AttributeError:
        return None


def ask_server(argv: list[str], ident: str) -> int | None:
    """Run ``argv`` in the server: its exit code, or None when no server took the command
    (it then runs here)."""
    s = connect(ident)
    if s is None:
        return None
    try:
        return _exchange(s, argv)
    finally:
        s.close()


def _exchange(s, argv: list[str]) -> int | None:
    import _socket
    import marshal

    streams = [_stream_params(x) for x in (sys.stdin, sys.stdout, sys.stderr)]
    if None in streams:
        return None
    try:
        cwd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
        umask = os.umask(0o022)
        os.umask(umask)
        request = marshal.dumps({"protocol": PROTOCOL, "kind": "run", "argv": argv,
                                 "sys_argv": sys.argv, "env": dict(os.environ),
                                 "umask": umask, "streams": streams})
        data = len(request).to_bytes(4, "little") + request
        fds = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2, cwd))
        sent = s.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
        if sent < len(data):
            s.sendall(data[sent:])
    except OSError:
        return None
    finally:
        os.close(cwd)
    return _wait(s)


def _wait(s) -> int | None:
    """The server's replies: ``P`` + the pid of the process running the command (signals
    are passed on to it from then on), then ``X`` + the exit code. A connection closed
    before ``P`` means the command did not start: None. ``S``: the server refused it
    (e.g. it is stopping): None."""
    import _signal

    pid = None
    caught: list[int] = []

    def forward(signum, _frame):
        caught.append(signum)
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    buf = b""
    while True:
        try:
            chunk = s.recv(64)
        except InterruptedError:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            break
        buf += chunk
        while len(buf) >= 5:
            tag, value, buf = buf[:1], int.from_bytes(buf[1:5], "little", signed=True), buf[5:]
            if tag == b"P" and pid is None:
                pid = value
                for sig in (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP):
                    _signal.signal(sig, forward)
            elif tag == b"X" and pid is not None:
                return value
            elif tag == b"S" and pid is None:
                return None
    if pid is None:
        return None
    # the process running the command died without an exit code: killed by a signal
    if caught:  # one we passed on: end as the command itself would have
        _signal.signal(caught[-1], _signal.SIG_DFL)
        os.kill(os.getpid(), caught[-1])
    os.write(2, b"bufferlog: internal error: the server's process running this command "
                b"died (rerun with BUFFERLOG_NO_SERVER=1)\n")
    return 2

"""``bufferlog serve``: a command answered by the server is the command run on its own,
byte for byte (standard output, standard error, exit code, files written), on the whole
shared corpus and in the corners where a server could differ from a new process (input
on stdin, relative paths, the environment, user rules edited between two commands,
errors, Ctrl-C); a server is used only when it is this user's and this code's, and a
client with none runs the command itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CORPUS_FILES

from bufferlog import client, serve

#: the client with the environment of each test (its private run directory)
CLIENT = [sys.executable, "-m", "bufferlog"]


def run(args, env, cwd=None, stdin=None, timeout=300):
    return subprocess.run([*CLIENT, *args], capture_output=True, env=env, cwd=cwd,
                          input=stdin, timeout=timeout)


def cold_env(env: dict) -> dict:
    return {**env, "BUFFERLOG_NO_SERVER": "1"}


def served(env) -> int:
    status = subprocess.run([*CLIENT, "serve", "--status"], capture_output=True, text=True,
                            env=env, timeout=60)
    assert status.returncode == 0, status.stdout + status.stderr
    return int(status.stdout.split(" commands")[0].rsplit(" ", 1)[1])


@pytest.fixture(scope="module")
def server_env(tmp_path_factory):
    """A server of this checkout in a private run directory, for the module's tests."""
    run_dir = tmp_path_factory.mktemp("run") / "sockets"
    env = {**os.environ, "BUFFERLOG_RUN_DIR": str(run_dir)}
    env.pop("BUFFERLOG_NO_SERVER", None)
    r = subprocess.run([*CLIENT, "serve", "--detach", "--workers", "2"], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    yield env
    subprocess.run([*CLIENT, "serve", "--stop"], env=env, timeout=60)


def answered_since(env, before: int) -> bool:
    """Whether the server ran a command since its count was ``before`` (status requests
    are not counted; the count is the server's, updated as its loop sees the worker's
    note: waited for, not timed)."""
    deadline = time.monotonic() + 60
    while served(env) <= before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def same(args, env, **kw):
    """Run ``args`` through the server and cold; both results (asserted equal)."""
    before = served(env)
    warm = run(args, env, **kw)
    assert answered_since(env, before), "the server did not answer"
    cold = run(args, cold_env(env), **kw)
    assert (warm.returncode, warm.stdout, warm.stderr) == \
        (cold.returncode, cold.stdout, cold.stderr), args
    return warm


@pytest.mark.parametrize("command", [["analyze"], ["bufferize"],
                                     ["bufferize", "--strategy", "optimal"], ["print"]],
                         ids=["analyze", "bufferize", "optimal", "print"])
def test_the_corpus_through_the_server_is_byte_for_byte_a_cold_run(server_env, command):
    assert CORPUS_FILES
    env = server_env
    cold_env_ = cold_env(env)
    before = served(env)
    for f in CORPUS_FILES:
        args = [*command, str(f)]
        warm = run(args, env)
        cold = run(args, cold_env_)
        assert (warm.returncode, warm.stdout, warm.stderr) == \
            (cold.returncode, cold.stdout, cold.stderr), f
    assert answered_since(env, before + len(CORPUS_FILES) - 1)


def test_stdin_relative_paths_and_output_files(server_env, tmp_path):
    src = Path(CORPUS_FILES[0])
    work = tmp_path / "work"
    work.mkdir()
    (work / "in.mlir").write_bytes(src.read_bytes())
    same(["bufferize", "-"], server_env, stdin=src.read_bytes())
    same(["analyze", "in.mlir"], server_env, cwd=work)
    warm = same(["bufferize", "in.mlir", "-o", "out.mlir"], server_env, cwd=work)
    assert warm.returncode == 0
    written = (work / "out.mlir").read_bytes()
    (work / "out.mlir").unlink()
    run(["bufferize", "in.mlir", "-o", "out.mlir"], cold_env(server_env), cwd=work)
    assert (work / "out.mlir").read_bytes() == written


def test_errors_and_exit_codes(server_env, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    assert same(["analyze", str(bad)], server_env).returncode == 1
    assert same(["analyze", str(tmp_path / "missing.mlir")], server_env).returncode == 1
    assert same(["bogus", "x.mlir"], server_env).returncode == 1
    assert same(["--version"], server_env).returncode == 0
    assert same(["analyze", "--help"], {**server_env, "COLUMNS": "50"}).returncode == 0
    same(["analyze", "-"], server_env, stdin=b"\xff\xfe not utf-8\n")


def test_the_environment_is_the_clients(server_env, tmp_path):
    """BUFFERLOG_DEBUG (read when a command fails) and the cache folder come from the
    client's environment, not the server's."""
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    env = {**server_env, "BUFFERLOG_CACHE_DIR": str(tmp_path / "cache")}
    # a first cold run builds the new cache folder's parser tables and says so on stderr;
    # the server, whose tables are loaded, has nothing to build: compare after it
    run(["print", str(CORPUS_FILES[0])], cold_env(env))
    same(["analyze", str(bad)], env)
    same(["print", str(CORPUS_FILES[0])], env)


def test_user_rules_edited_between_two_commands(server_env, tmp_path):
    """A --rules folder is read by each command: an edit shows in the next answer."""
    prog = tmp_path / "f.mlir"
    prog.write_text(
        "func.func @f(%x: f32, %v: f32, %i: index, %j: index) -> (f32, tensor<3xf32>) {\n"
        "  %t = tensor.from_elements %x, %x, %x : tensor<3xf32>\n"
        "  %w = tensor.insert %v into %t[%i] : tensor<3xf32>\n"
        "  %r = tensor.extract %t[%j] : tensor<3xf32>\n"
        "  return %r, %w : f32, tensor<3xf32>\n}\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    rule = rules / "mine.dl"
    rule.write_text("// nothing yet\n")
    first = same(["analyze", str(prog), "--rules", str(rules)], server_env)
    rule.write_text("no_conflict(r, 0, w, 1) :- op_loc(r, _, 4, _), op_loc(w, _, 3, _).\n")
    second = same(["analyze", str(prog), "--rules", str(rules)], server_env)
    assert first.stdout != second.stdout


@pytest.mark.xfail(strict=False, reason="open: under load (the whole suite beside benchmarks) the "
                   "interrupted batch printed nothing on stderr; passes when run alone")
def test_ctrl_c_reaches_the_command(server_env, tmp_path):
    """SIGINT to the client interrupts the command in the server, which ends as a cold
    one does (exit 130, the batch's partial report)."""
    f = tmp_path / "slow.mlir"
    f.write_bytes(Path(CORPUS_FILES[0]).read_bytes())
    results = []
    for k, env in enumerate((server_env, cold_env(server_env))):
        mark = tmp_path / f"sleeping-{k}"
        p = subprocess.Popen([*CLIENT, "batch", str(f), "--jobs", "1", "--no-cache", "-q",
                              "--debug-sleep", "slow.mlir", "60", "--debug-sleep-mark", str(mark)],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # past the start-up, in the file's sleep (waited for, not timed: a loaded machine
        # may take longer than any fixed pause to get there)
        deadline = time.monotonic() + 120
        while not mark.exists() and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.05)
        assert mark.exists(), "the batch never reached the file's sleep"
        time.sleep(0.5)  # the worker is inside time.sleep now
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        lines = err.decode().strip().splitlines()
        assert lines, ("server" if k == 0 else "cold", p.returncode, out.decode()[-2000:])
        results.append((p.returncode, lines[-1]))
    assert results[0] == results[1]
    assert results[0][0] == 130


def test_without_a_server_the_client_runs_the_command(tmp_path):
    run_dir = tmp_path / "sockets"
    env = {**os.environ, "BUFFERLOG_RUN_DIR": str(run_dir)}
    env.pop("BUFFERLOG_NO_SERVER", None)
    r = run(["print", str(CORPUS_FILES[0])], env)
    assert r.returncode == 0 and r.stdout
    # a socket file nobody listens on (a server that was killed): the same
    run_dir.mkdir(mode=0o700)
    import socket

    s = socket.socket(socket.AF_UNIX)
    s.bind(client.socket_path(client.identity(), str(run_dir)))
    s.close()
    assert run(["print", str(CORPUS_FILES[0])], env).stdout == r.stdout


def test_a_server_can_start_right_after_one_stopped(tmp_path):
    # `--stop` returns once the old server is gone, workers included (they hold its
    # lock): a `--detach` right after must not find it "already running"
    env = {**os.environ, "BUFFERLOG_RUN_DIR": str(tmp_path / "sockets")}
    env.pop("BUFFERLOG_NO_SERVER", None)
    for _ in range(2):
        up = subprocess.run([*CLIENT, "serve", "--detach", "--workers", "2"],
                            capture_output=True, text=True, env=env, timeout=300)
        assert up.returncode == 0, up.stdout + up.stderr
        assert run(["print", str(CORPUS_FILES[0])], env).returncode == 0
        down = subprocess.run([*CLIENT, "serve", "--stop"], capture_output=True, text=True,
                              env=env, timeout=120)
        assert down.returncode == 0, down.stdout + down.stderr


def test_a_run_directory_others_can_enter_is_not_used(tmp_path):
    run_dir = tmp_path / "open"
    run_dir.mkdir()
    run_dir.chmod(0o755)
    assert not client.private_dir(str(run_dir))
    env = {**os.environ, "BUFFERLOG_RUN_DIR": str(run_dir)}
    r = subprocess.run([*CLIENT, "serve", "--detach"], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 1 and "mode 0700" in r.stderr
    run_dir.chmod(0o700)
    assert client.private_dir(str(run_dir))
    link = tmp_path / "link"
    link.symlink_to(run_dir)
    assert not client.private_dir(str(link))


def test_the_identity_changes_with_any_source_file(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "r.dl").write_text("a(1).\n")
    (pkg / "notes.txt").write_text("not code\n")
    first = client.identity([str(pkg)])
    assert client.identity([str(pkg)]) == first
    (pkg / "notes.txt").write_text("still not code\n")
    assert client.identity([str(pkg)]) == first
    (pkg / "sub" / "r.dl").write_text("a(2).\n")
    os.utime(pkg / "sub" / "r.dl", ns=(1, 1))
    second = client.identity([str(pkg)])
    assert second != first
    (pkg / "b.py").write_text("")
    assert client.identity([str(pkg)]) != second


def test_a_server_stops_when_its_code_changes(tmp_path, monkeypatch):
    """The server's periodic check: another identity of the installed code stops it (a
    client of the new code asks another socket meanwhile)."""
    monkeypatch.setenv("BUFFERLOG_RUN_DIR", str(tmp_path / "sockets"))
    s = serve.Server("0123456789abcdef", [str(tmp_path)])
    s.lock()
    s.listen()
    try:
        monkeypatch.setattr(client, "identity", lambda roots=None: "0123456789abcdef")
        s._check()
        assert not s.stopping
        monkeypatch.setattr(client, "identity", lambda roots=None: "fedcba9876543210")
        s._check()
        assert s.stopping
    finally:
        s._shutdown()
    assert not os.path.exists(s.path)


def test_bytecode_is_written_once_when_python_writes_none(tmp_path):
    """With PYTHONDONTWRITEBYTECODE set, ensure_bytecode compiles the package's stale
    modules and leaves a stamp; with the stamp current it compiles nothing."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text("VALUE = 1\n")
    ident = client.identity([str(pkg)])
    client.ensure_bytecode([str(pkg)], ident)
    pyc = next((pkg / "__pycache__").glob("m.*.pyc"))
    stamp = pkg / "__pycache__" / client._STAMP
    assert stamp.read_text() == ident
    pyc.unlink()
    client.ensure_bytecode([str(pkg)], ident)  # stamp current: nothing to do
    assert not list((pkg / "__pycache__").glob("m.*.pyc"))
    (pkg / "m.py").write_text("VALUE = 2\n")
    client.ensure_bytecode([str(pkg)], client.identity([str(pkg)]))
    assert list((pkg / "__pycache__").glob("m.*.pyc"))


def test_a_package_compiled_by_its_installer_is_left_alone(tmp_path):
    """A regular pip install writes the bytecode itself: no stamp, nothing written into
    the installed package."""
    import py_compile

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "cli.py").write_text("VALUE = 1\n")
    (pkg / "other.py").write_text("VALUE = 2\n")
    py_compile.compile(str(pkg / "cli.py"))
    client.ensure_bytecode([str(pkg)], client.identity([str(pkg)]))
    assert not (pkg / "__pycache__" / client._STAMP).exists()
    assert not list((pkg / "__pycache__").glob("other.*.pyc"))
    (pkg / "cli.py").write_text("VALUE = 3  # edited: the bytecode is stale now\n")
    os.utime(pkg / "cli.py", ns=(10**9, 10**9))
    client.ensure_bytecode([str(pkg)], client.identity([str(pkg)]))
    assert (pkg / "__pycache__" / client._STAMP).exists()
    assert list((pkg / "__pycache__").glob("other.*.pyc"))

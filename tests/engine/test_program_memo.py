"""Program.load is memoised per process (a batch loads the same rules once per file);
an edited, added or removed rules file must still be seen by the next load."""

from __future__ import annotations

from bufferlog.engine.program import Program
from bufferlog.engine.run import run

MAIN = """.decl e(x: number)
.input e
.decl p(x: number)
.output p
p(x) :- e(x).
"""


def _p(prog) -> set:
    return run(prog, {"e": [(1,), (2,)]}, engine="embedded").relations["p"]


def test_unchanged_rules_are_loaded_once(tmp_path):
    (tmp_path / "main.dl").write_text(MAIN)
    a = Program.load(tmp_path / "main.dl")
    assert Program.load(tmp_path / "main.dl") is a


def test_edits_are_seen(tmp_path):
    main = tmp_path / "main.dl"
    main.write_text(MAIN)
    assert _p(Program.load(main)) == {(1,), (2,)}
    main.write_text(MAIN.replace("p(x) :- e(x).", "p(x) :- e(x), x > 1."))
    assert _p(Program.load(main)) == {(2,)}


def test_overlay_added_and_removed_files_are_seen(tmp_path):
    main, over = tmp_path / "main.dl", tmp_path / "over"
    main.write_text(MAIN)
    over.mkdir()
    assert _p(Program.load(main, over)) == {(1,), (2,)}
    extra = over / "extra.dl"
    extra.write_text("p(7).\n")
    assert _p(Program.load(main, over)) == {(1,), (2,), (7,)}
    extra.unlink()
    assert _p(Program.load(main, over)) == {(1,), (2,)}


def test_a_broken_program_is_not_memoised(tmp_path):
    main = tmp_path / "main.dl"
    main.write_text(MAIN + "p(x :- e(x).\n")
    assert Program.load(main).errors
    main.write_text(MAIN)
    assert not Program.load(main).errors


def _in_new_process(tmp_path, main, cache) -> str:
    import os
    import subprocess
    import sys

    code = ("import sys; from bufferlog.engine.program import Program; "
            "from bufferlog.engine.run import run; p = Program.load(sys.argv[1]); "
            "p.require_valid(); "
            "print(sorted(run(p, {'e': [(1,), (2,)]}, engine='embedded').relations['p']))")
    env = {**os.environ, "BUFFERLOG_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", code, str(main)], env=env, text=True,
                          capture_output=True, check=True).stdout.strip()


def test_checked_programs_are_kept_across_processes_and_edits_are_seen(tmp_path):
    """A checked program is cached on disk for the next process (the shipped rules cost
    ~0.5 s to parse and check); an edited file is reloaded, not taken from the cache."""
    main, cache = tmp_path / "main.dl", tmp_path / "cache"
    main.write_text(MAIN)
    assert _in_new_process(tmp_path, main, cache) == "[(1,), (2,)]"
    assert len(list((cache / "rules").glob("*.pickle"))) == 1
    assert _in_new_process(tmp_path, main, cache) == "[(1,), (2,)]"  # from the cache
    main.write_text(MAIN.replace("p(x) :- e(x).", "p(x) :- e(x), x > 1."))
    assert _in_new_process(tmp_path, main, cache) == "[(2,)]"


def test_settled_files_are_stamped_by_their_times_and_changes_still_seen(tmp_path, monkeypatch):
    """Past the racy window a file is not read again to check it: its size, times and inode
    stand for it. A rewrite that keeps size and modification time (cp -p, os.utime) still
    changes the change time, so it is seen."""
    import os

    from bufferlog.engine import program

    main = tmp_path / "main.dl"
    main.write_text(MAIN)
    monkeypatch.setattr(program, "RACY_SECONDS", -1.0)  # every file settled
    a = Program.load(main)
    reads = []
    real = type(main).read_bytes
    monkeypatch.setattr(type(main), "read_bytes", lambda p: reads.append(p) or real(p))
    assert Program.load(main) is a and not reads  # stat only
    before = main.stat()
    main.write_text(MAIN.replace("p(x) :- e(x).", "p(2) :- e(x)."))  # same size
    os.utime(main, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert main.stat().st_size == before.st_size
    assert _p(Program.load(main)) == {(2,)}


def test_a_just_changed_file_is_stamped_by_content(tmp_path):
    from bufferlog.engine import program

    main = tmp_path / "main.dl"
    main.write_text(MAIN)
    (stamp,) = program._stamp([main], None)
    assert len(stamp) == 2 and isinstance(stamp[1], bytes)  # (path, SHA-1)


def test_a_cached_program_runs_without_unpickling_its_rules(tmp_path):
    """A process whose programs come from the disk cache analyses and bufferizes a module
    with the rules' engine text and compiled forms alone: the rule trees (most of the cache's
    load time) stay pickled. A run that reads ``Program.rules`` (e.g. the analysis's
    shared runs once did, ~16 ms) fails this."""
    import os
    import subprocess
    import sys

    code = """
from bufferlog import api
from bufferlog.engine.interface import load
text = '''func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %v into %t[%c0] : tensor<4xf32>
  %e = tensor.extract %t[%c0] : tensor<4xf32>
  %s = tensor.insert %e into %r[%c0] : tensor<4xf32>
  return %s : tensor<4xf32>
}
'''
api.bufferize(api.parse(text, "<t>"), engine="embedded")
print(["_rules_blob" in load(n).__dict__ for n in ("analysis.dl", "dealloc.dl")])
"""
    env = {**os.environ, "BUFFERLOG_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> str:
        return subprocess.run([sys.executable, "-c", code], env=env, text=True,
                              capture_output=True, check=True).stdout.strip()

    run()  # fills the cache
    assert run() == "[True, True]"

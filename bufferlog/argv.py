"""mlir-opt's command-line habits on top of argparse.

mlir-opt (LLVM's option library) takes long options with one dash or two
(``-split-input-file`` = ``--split-input-file``), gives an optional value only after
``=`` (``--split-input-file=MARKER``), and never glues a value to a one-letter option
(``-ofile`` is an error, ``-o file`` and ``-o=file`` are not). argparse does otherwise:
``-one-shot-bufferize=...`` would read as ``-o`` with the value ``ne-shot-bufferize=...``.
:func:`normalize` rewrites a command line into argparse's terms before it is parsed:

* ``-name[=value]`` becomes ``--name[=value]`` when ``--name`` is an option of the
  command; any other single-dash word is an error naming it, with the closest option;
* ``--name`` of an option whose value is optional (``nargs="?"``) becomes
  ``--name=CONST``, so the next word (the input file) is never taken as its value;
* the value of an option that takes one is left alone (``-o -`` is stdout).

:func:`suggest` finds the option closest to a misspelt one, for usage errors.
"""

from __future__ import annotations

import argparse

from bufferlog.core import UserError

#: one-letter options whose value may be glued to them (Soufflé's ``-Ffacts``, ``-j2``)
GLUED = ("-j", "-F", "-D", "-I")


def options_of(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Every option string of ``parser`` with its action."""
    return {s: a for a in parser._actions for s in a.option_strings}


def subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser | None:
    """The sub-command parser ``name`` of ``parser``, if it has one."""
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            return a.choices.get(name)
    return None


def command_parser(parser: argparse.ArgumentParser, argv: list[str]
                   ) -> tuple[argparse.ArgumentParser, int]:
    """The innermost (sub-)command parser ``argv`` selects, and the index of the first
    word after the command name(s)."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        i += 1  # options before the command (--version, --help)
    p = parser
    while i < len(argv):
        sub = subparser(p, argv[i])
        if sub is None:
            break
        p, i = sub, i + 1
        while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
            if subparser(p, argv[i]) is not None:
                break
            # options between a command and its action are left to argparse
            i += 1 + _takes_value(options_of(p).get(argv[i].split("=", 1)[0]), argv[i])
    return p, i


def _takes_value(action: argparse.Action | None, word: str) -> int:
    """How many of the following words ``word`` (an option) consumes: 1 for an option
    that takes one value not given after ``=``, else 0."""
    if action is None or "=" in word:
        return 0
    return 1 if action.nargs is None or action.nargs == 1 else 0


def normalize(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """``argv`` with mlir-opt's spellings rewritten into argparse's (module doc). Raises a
    :class:`UsageError` for a single-dash word that is no option of the command."""
    p, start = command_parser(parser, argv)
    opts = options_of(p)
    out = list(argv[:start])
    i = start
    while i < len(argv):
        word = argv[i]
        i += 1
        if word == "--":
            out += argv[i - 1:]
            break
        if word == "-" or not word.startswith("-") or _is_number(word):
            out.append(word)
            continue
        name, eq, value = word.partition("=")
        if not word.startswith("--"):
            if "--" + name[1:] in opts:
                name = "--" + name[1:]
            elif name in opts and (eq or len(name) == 2):
                pass  # -o FILE, -o=FILE, -j 2
            elif word[:2] in opts and word[:2] in GLUED:
                out.append(word)
                continue
            else:
                raise unknown_option(p, word)
        action = opts.get(name)
        if action is not None and action.nargs == "?" and not eq:
            out.append(f"{name}={action.const}")
            continue
        out.append(name + eq + value)
        if action is not None and not eq and _takes_value(action, word):
            if i < len(argv) and argv[i].startswith("-") and argv[i] != "-" \
                    and not _is_number(argv[i]):
                raise UsageError(p, f"option '{word}' needs a value, not the option "
                                 f"'{argv[i].split('=', 1)[0]}'")
            out += argv[i:i + 1]
            i += 1
    return out


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def unknown_option(parser: argparse.ArgumentParser, word: str) -> UsageError:
    """The usage error of an option ``parser`` does not have: an mlir-opt pass is named as
    one (``bufferlog opt`` runs the ones bufferlog implements); else the closest option is
    suggested."""
    from bufferlog.app.pipeline import PASSES, unknown_pass

    name = word.split("=", 1)[0]
    key = name.lstrip("-")
    is_opt = parser.prog.endswith(" opt")
    if key in PASSES and not is_opt:
        return UsageError(parser, f"'{name}' is an mlir-opt pass: run it with `bufferlog opt` "
                                  "(or bufferlog-opt)")
    hint = suggest(parser, word)
    if is_opt and hint is None:
        return UsageError(parser, unknown_pass(key).message)
    if hint is None and word[:2] in options_of(parser) and len(word) > 2:
        hint = word[:2]
    return UsageError(parser, f"unknown option '{name}'", hint)


def suggest(parser: argparse.ArgumentParser, word: str) -> str | None:
    """The option of ``parser`` closest to ``word`` (with or without its dashes)."""
    from difflib import get_close_matches

    key = word.split("=", 1)[0].lstrip("-")
    longs = {s.lstrip("-"): s for s in options_of(parser) if s.startswith("--")}
    near = get_close_matches(key, list(longs), n=1, cutoff=0.6)
    return longs[near[0]] if near else None


class UsageError(UserError):
    """A command line the command's parser rejects: printed with that command's usage."""

    def __init__(self, parser: argparse.ArgumentParser, message: str, hint: str | None = None):
        if hint:
            message += f" (did you mean '{hint}'?)"
        super().__init__(message)
        self.parser = parser

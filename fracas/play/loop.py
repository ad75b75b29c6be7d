"""``fracas play``: the prompt at the table.

A thin face over :mod:`fracas.play.commands` (what a line means) and the table
service (:class:`~fracas.table.Table`: the engine kept in step with the store, the
permissions, what may be done now). The prompt acts as the game master.
Every action is stored, durably, before its lines are printed; every error is
one line (``error: code: message``), after which the session goes on with
nothing written. Input is read with the standard library's ``input`` (GNU
readline where there is one: tab completion, history); tables print through rich.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import yaml
from rich.table import Table as RichTable

from fracas.errors import FracasError
from fracas.io.store import EncounterStore, MovedOn
from fracas.lab.advisor import advice_lines
from fracas.play.choices import completions
from fracas.play.commands import Act, Entry, Meta, OddsOf, parse
from fracas.play.dice import AskedDice
from fracas.play.view import (
    combatant_table,
    encounters_table,
    help_lines,
    now_line,
    odds_lines,
    record_lines,
    status_table,
)
from fracas.table import Act as TableAct
from fracas.table import Dice, Identity, Redo, StoreLost, Table, TableService, Undo
from fracas.words.console import SafeConsole, printable

__all__ = ["Prompt", "Terminal", "TextTerminal", "play"]

RECENT = 6
"""Records shown when an encounter is resumed."""
HINTS = 3
"""Choices ``hint`` shows unless told how many."""


class Terminal(Protocol):
    """Where the prompt reads and writes."""

    def ask(self, question: str, *, complete: bool = True) -> str:
        """One line of input (EOFError at the end, KeyboardInterrupt on Ctrl-C);
        ``complete``: tab completes commands (not while a die is asked for)."""
        ...

    def say(self, line: str) -> None:
        """Print one line at once."""
        ...

    def show(self, table: RichTable) -> None:
        """Print a table."""
        ...


class TextTerminal:
    """The real terminal: ``input`` with readline completion where there is one."""

    def __init__(self, complete: Callable[[str], list[str]] | None = None) -> None:
        self._console = SafeConsole(highlight=False)
        self._complete = complete
        self._matches: list[str] = []
        self._completing = True
        try:
            import readline
        except ImportError:  # no readline: plain input, no completion
            return
        readline.set_completer_delims(" \t\n")
        readline.set_completer(self._completer)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
            readline.parse_and_bind("set enable-bracketed-paste off")

    def _completer(self, text: str, index: int) -> str | None:
        if index == 0:
            self._matches = []
            if self._completing and self._complete is not None:
                import readline

                line = readline.get_line_buffer()[: readline.get_endidx()]
                try:  # a finished word takes a space after it; `key=` waits for its value
                    self._matches = [
                        m if m.endswith("=") else m + " " for m in self._complete(line)
                    ]
                except Exception:  # a completion must never break the prompt
                    self._matches = []
        return self._matches[index] if index < len(self._matches) else None

    def ask(self, question: str, *, complete: bool = True) -> str:
        self._completing = complete
        try:
            return input(printable(question))
        finally:
            self._completing = True

    @property
    def width(self) -> int:
        """The terminal's columns (the status table leaves out a column when narrow)."""
        return self._console.width

    def say(self, line: str) -> None:
        print(printable(line), flush=True)

    def show(self, table: RichTable) -> None:
        self._console.print(table)
        sys.stdout.flush()


class Prompt:
    """The loop: read a line, do it, print what happened (once it is stored)."""

    def __init__(
        self,
        session: Table,
        terminal: Terminal,
        *,
        manual: bool = False,
        identity: Identity | None = None,
        service: TableService | None = None,
    ) -> None:
        self.session = session
        self.service = service or TableService(session.store)
        self.identity = identity or Identity.gm()
        self.terminal = terminal
        self.manual = manual

    def prompt(self) -> str:
        state = self.session.state
        return f"r{state.round} {state.turn.actor}> "

    def run(self) -> int:
        """Read and do commands until ``quit`` or the end of input; the exit status."""
        while True:
            try:
                line = self.terminal.ask(self.prompt())
            except EOFError:
                self.terminal.say("")
                return 0
            except KeyboardInterrupt:
                self.terminal.say("^C")
                continue
            try:
                if not self.handle(line):
                    return 0
            except KeyboardInterrupt:
                self.terminal.say("^C: interrupted; the encounter is as stored")
            except StoreLost as exc:  # the store cannot be read back: stop, do not guess
                self._error(exc)
                return 1
            except Exception as exc:  # a bug: say so in one line, go on from the store
                self.terminal.say(
                    f"error: internal_error: {type(exc).__name__}: {exc} (a bug in fracas; "
                    "the encounter is as stored, `log` shows it)"
                )
                try:
                    self.session.reload()
                except FracasError as lost:
                    self._error(lost)
                    return 1

    def handle(self, line: str) -> bool:
        """Do one line; False when the player leaves. A FracasError is one line."""
        try:
            return self._handle(line)
        except StoreLost:
            raise
        except FracasError as exc:
            self._error(exc)
            return True

    def _handle(self, line: str) -> bool:
        session = self.session
        command = parse(line, session.file, session.state)
        if command is None:
            return True
        if isinstance(command, Act):
            act = TableAct(command.action, self._dice(command.action))
            self._change(lambda: session.submit(act, self.identity))
        elif isinstance(command, OddsOf):
            self._odds(command.action)
        else:
            return self._meta(command)
        return True

    # --- changes: stored first, then shown ------------------------------------------

    def _dice(self, action: Entry) -> Dice | None:
        if not self.manual:
            return None
        return AskedDice(
            lambda q: self.terminal.ask(q, complete=False),
            self.terminal.say,
            self.session.state,
            str(action["actor"]),
        )

    def _change(self, do: Callable[[], object]) -> None:
        session = self.session
        seq = session.seq
        try:
            do()
        except MovedOn as exc:
            self._error(exc)
            self._show_since(exc.expected)
        except StoreLost:
            raise
        except FracasError as exc:
            self._error(exc)
            if session.seq != seq:  # a failed append: the store had moved on anyway
                self._show_since(seq)
            return
        except KeyboardInterrupt:
            if session.seq > seq:
                self.terminal.say("interrupted, but it was stored:")
                self._show_since(seq)
            raise
        else:
            self._show_since(seq)

    def _show_since(self, seq: int) -> None:
        snap = self.session.snapshot()
        log = snap.log
        for i in range(seq, len(log)):
            for line in record_lines(log, snap.before[i], log[i]):
                self.terminal.say(line)
        self.terminal.say(now_line(snap.state))

    def _error(self, exc: FracasError) -> None:
        self.terminal.say(f"error: {exc.code}: {exc.message}")

    # --- the rest ---------------------------------------------------------------------

    def _odds(self, action: Entry) -> None:
        try:
            question = self.session.odds_question(action, self.identity)
            result = question.answer()
        except FracasError as exc:
            self._error(exc)
            return
        for line in odds_lines(question.state, question.action, result):
            self.terminal.say(line)

    def _meta(self, command: Meta) -> bool:
        session, say = self.session, self.terminal.say
        name, args = command.name, command.args
        if name == "quit":
            return False
        if name == "status":
            if args:
                self.terminal.show(combatant_table(session.ruleset, session.state, args[0]))
            else:
                width = getattr(self.terminal, "width", None)
                self.terminal.show(status_table(session.ruleset, session.state, width))
        elif name == "undo":
            self._change(lambda: session.submit(Undo(), self.identity))
        elif name == "redo":
            self._change(lambda: session.submit(Redo(), self.identity))
        elif name == "log":
            snap = session.snapshot()
            log = snap.log
            first = max(0, len(log) - int(args[0])) if args else 0
            for i in range(first, len(log)):
                for line in record_lines(log, snap.before[i], log[i]):
                    say(line)
            say(now_line(snap.state))
        elif name == "dice":
            self.manual = args[0] == "manual"
            say(
                "dice: manual (fracas asks for every die; `cancel` abandons the action)"
                if self.manual
                else "dice: auto (fracas rolls what is not given as label=N)"
            )
        elif name == "save":
            try:
                n = save(session.export(self.identity), args[0])
            except FracasError as exc:
                self._error(exc)
            else:
                say(f"saved {n} actions, with their dice, to {args[0]} (fracas run replays it)")
        elif name == "list":
            self.terminal.show(
                encounters_table(self.service.list(), session.name, self.service.store.location)
            )
        elif name == "delete":
            self._delete(args[0])
        elif name == "help":
            for line in help_lines(session, args[0] if args else None):
                say(line)
        elif name == "hint":
            try:
                advice = session.advice_question(self.identity, session.seq).answer()
            except FracasError as exc:
                self._error(exc)
            else:
                for line in advice_lines(advice, int(args[0]) if args else HINTS):
                    say(line)
        return True

    def _delete(self, name: str) -> None:
        session, say = self.session, self.terminal.say
        if name == session.name:
            say(f"error: in_play: {name!r} is the encounter being played here; quit first")
            return
        infos = {i.name: i for i in self.service.list()}
        if name not in infos:
            valid = ", ".join(sorted(infos)) or "none"
            say(f"error: unknown_encounter: no encounter called {name!r}; stored: {valid}")
            return
        try:
            question = f"delete {name!r} and its {infos[name].records} records? [y/N] "
            answer = self.terminal.ask(question, complete=False)
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            say("not deleted")
            return
        try:
            self.service.delete(name)
        except FracasError as exc:
            self._error(exc)
            return
        say(f"deleted {name!r}")


def play(
    store: EncounterStore,
    target: str,
    terminal: Terminal | None = None,
    *,
    name: str | None = None,
    seed: int | None = None,
    manual: bool = False,
) -> int:
    """Open ``target`` (a file: a new encounter; a name: a stored one) and run the prompt."""
    service = TableService(store)
    session, new = service.open_or_create(target, name=name, seed=seed)
    if terminal is None:
        terminal = TextTerminal(
            lambda line: completions(line, session.file, session.state, _names(store))
        )
    snap = session.snapshot()
    log = snap.log
    if new:
        terminal.say(
            f"new encounter {session.name!r} ({session.file.ruleset.about.name}) in "
            f"{store.location}; `fracas play {session.name}` resumes it; live dice "
            f"from seed {session.seed} (`--seed N` picks one)"
        )
        first = 0
    else:
        terminal.say(
            f"resumed {session.name!r} ({session.file.ruleset.about.name}, {len(log)} records) "
            f"from {store.location}"
        )
        first = max(0, len(log) - RECENT)
    for i in range(first, len(log)):
        for line in record_lines(log, snap.before[i], log[i]):
            terminal.say(line)
    terminal.say(now_line(snap.state))
    terminal.say("`help` lists what the current actor may do now, and the commands")
    return Prompt(session, terminal, manual=manual, service=service).run()


def save(data: dict[str, Any], path: str | Path) -> int:
    """Write an exported encounter to ``path`` (JSON for ``.json``, else YAML), replacing
    it whole; returns the number of actions written."""
    p = Path(path).expanduser()
    if p.suffix == ".json":
        text = json.dumps(data, indent=2) + "\n"
    else:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    tmp = p.with_name(f".{p.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(p)
    except OSError as exc:
        raise FracasError("save_failed", f"cannot write {str(p)!r}: {exc.strerror}") from None
    return len(data["actions"])


def _names(store: EncounterStore) -> Callable[[], Sequence[str]]:
    return lambda: [i.name for i in store.list()]

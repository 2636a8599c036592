"""Terminal play: any mix of humans and bots, moves read with ``input()``.

Humans type a decision or a ``+``-joined turn at a prompt named after their side, or one of
the commands in :data:`HELP`. Humans see only their own view of a game with hidden
information, and in hotseat play the terminal (screen and scrollback) is cleared when it is
handed over. Undo replays the record from the start, so it is exact for every game.

With a save target the record is rewritten atomically after every turn, so quitting, a closed
terminal or a killed process keeps the game up to its last turn; ``--resume`` goes on from
there. Nothing hidden from a human seat is ever written: while a deployment is secret, saves
write the game only up to the last point every human may see.
"""

from __future__ import annotations

import random
import sys
import threading

from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.cli.saving import RecordKeeper
from boardlab.cli.signals import Stopped
from boardlab.core.errors import BoardlabError, BotError, OptionError, RecordError, one_line
from boardlab.core.game import Game
from boardlab.core.outcome import Outcome
from boardlab.core.records import Record, load_record
from boardlab.core.state import State

HELP = """\
Commands:
  MOVE        play a decision, or a whole turn as decisions joined by '+'
  moves       list the legal moves
  preset NAME play a whole setup at once where the game offers presets (e.g. a Cyvasse
              lineup: `preset classic`, or `preset random` for a seeded random one)
  savepreset NAME
              save your setup on the board as a preset for later games
  undo        take back your own last turn (and the bot turns after it)
  save FILE   save the game record to FILE
  resign      give up the game
  quit        leave the game unfinished (resume it later with `boardlab play --resume FILE`)
  help        this help and the legal moves"""

COMMANDS = ("moves", "preset", "savepreset", "undo", "save", "resign", "quit", "help")
LEAVE_WORDS = ("exit", "q", "bye", "stop")

# Clear the screen, move home, and clear the scrollback (xterm's "E3"), so the player taking
# the terminal cannot scroll back to the previous player's hidden deployment.
CLEAR_SCREEN = "\033[H\033[2J\033[3J"

THINKING_AFTER = 0.5
"""Seconds a bot may think before the terminal says it is thinking."""


class _Quit(Exception):
    """The human left the game (``quit`` or end of input)."""


class TerminalGame:
    """One game played in the terminal, from the given start, until it ends or is left."""

    def __init__(
        self,
        game: Game,
        players: list[str],
        start: str | None = None,
        seed: int | None = None,
        record: Record | None = None,
    ) -> None:
        self.game = game
        self.names = game.player_names
        self.record = record or Record(game, start, list(players))
        self.record.players = list(players)
        self.state = self.record.replay()
        rng = random.Random(seed) if seed is not None else None
        self.rng = random.Random(rng.randrange(2**31) if rng else None)
        self.bots: list[Bot | None] = [
            make_bot(spec, game, rng.randrange(2**31) if rng else None) for spec in players
        ]
        self.humans = [seat for seat, bot in enumerate(self.bots) if bot is None]
        self.hotseat_hidden = game.has_hidden_information and len(self.humans) > 1
        self.viewer: int | None = None
        self.keeper = RecordKeeper(self.record, self._hiding())
        self.announced: int | None = None

    @classmethod
    def resume(
        cls,
        game_id: str,
        path: str,
        players: list[str] | None,
        seed: int | None,
        save: str | None,
        force: bool,
    ) -> TerminalGame:
        """The unfinished game saved in ``path``, ready to go on (and keep saving)."""
        record, final = load_record(path)
        if record.game.id != game_id:
            raise RecordError(f"{path} holds a {record.game.id} game, not {game_id}")
        outcome = record.outcome(final)
        if outcome is not None:
            raise RecordError(f"{path} holds a finished game; `boardlab replay {path}` shows it")
        specs = players or record.players
        if len(specs) != record.game.num_players or "unknown" in specs:
            raise OptionError(
                f"give one --player per seat ({', '.join(record.game.player_names)}) "
                "to resume this record"
            )
        session = cls(record.game, list(specs), record.start, seed, record)
        session.target(save or path, force or save is None)
        print(f"Resumed {path}: {len(record.turns)} turn(s) played")
        return session

    def target(self, path: str | None, force: bool) -> None:
        """Check the save target before the first move (see :class:`RecordKeeper`)."""
        if path is not None:
            can_ask = sys.stdin.isatty() and bool(self.humans)
            self.keeper.target(path, force, self._ask_once if can_ask else None)

    def _ask_once(self, question: str) -> str:
        try:
            return input(question)
        except EOFError:
            return ""

    def run(self) -> int:
        """Play to the end (or until a human leaves); returns the exit code."""
        code = 0
        try:
            while self.outcome is None:
                seat = self.state.current_player
                bot = self.bots[seat]
                if bot is None:
                    self._human_decision(seat)
                else:
                    self._bot_decision(seat, bot)
        except _Quit:
            pass
        except Stopped:
            # A hang-up or kill request: save and go; the terminal may be gone, so print nothing.
            self._autosave()
            raise
        except KeyboardInterrupt:
            print("\ninterrupted")
            code = 130
        self._finish()
        return code

    @property
    def outcome(self) -> Outcome | None:
        """The result so far: by the rules, or by a resignation."""
        return self.state.outcome or self.record.resigned

    # -- bots ---------------------------------------------------------------------------

    def _bot_decision(self, seat: int, bot: Bot) -> None:
        thinking = threading.Timer(THINKING_AFTER, self._say_thinking, (seat,))
        thinking.daemon = True
        thinking.start()
        try:
            action = bot.choose(self.state.view_state(seat))
        except Exception as error:
            # Said as one line (the game so far is kept by the autosave): no move stands in.
            raise BotError(f"the bot {bot.spec} could not move: {one_line(str(error))}") from error
        finally:
            thinking.cancel()
        text = self.state.action_to_str(action)
        first = self.state.turn_start
        self._apply(action)
        if not self._hiding():
            print(f"{self.names[seat]} plays {text}")
        elif first or self.announced != seat:
            # A secret deployment is announced once per turn, without its notation.
            print(f"{self.names[seat]} plays (hidden)")
        self.announced = seat if self._hiding() else None

    def _say_thinking(self, seat: int) -> None:
        print(f"{self.names[seat]} is thinking…", flush=True)

    def _hiding(self) -> bool:
        """True while some human's view leaves out part of the position."""
        text = self.state.position_text()
        return any(self.state.view_text(human) != text for human in self.humans)

    def _apply(self, action: int) -> None:
        self.record.add(self.state, action)
        self.state.apply_action(action)
        self.keeper.seen(self._hiding())
        if self.state.turn_start or self.state.is_terminal():
            self._autosave()

    # -- humans -------------------------------------------------------------------------

    def _view(self, seat: int) -> State:
        return self.state.view_state(seat) if self.game.has_hidden_information else self.state

    def _ask(self, prompt: str) -> str:
        try:
            return input(prompt)
        except EOFError:
            print()
            raise _Quit from None

    def _human_decision(self, seat: int) -> None:
        name = self.names[seat]
        if self.hotseat_hidden and self.viewer != seat and self._hiding():
            if sys.stdout.isatty():
                print(CLEAR_SCREEN, end="", flush=True)
            self._ask(f"Pass the terminal to {name} and press Enter ")
            if sys.stdout.isatty():
                print(CLEAR_SCREEN, end="", flush=True)
        self.viewer = seat
        print()
        print(self._view(seat).render().rstrip("\n"))
        presets = self._presets()
        if presets:
            print(f"Presets: {' '.join(presets)} (type `preset NAME` to set up at once)")
        while not self._command(seat, self._ask(f"{name}> ").strip()):
            pass

    def _command(self, seat: int, line: str) -> bool:
        """Carry out one line typed by ``seat``; True when the turn passed on (or ended)."""
        command, _, argument = line.partition(" ")
        argument = argument.strip()
        if not line:
            return False
        if command in ("help", "?"):
            print(HELP)
            self._print_moves()
        elif command == "moves":
            self._print_moves()
        elif command == "undo":
            return self._undo(seat)
        elif command == "preset" and argument:
            return self._play_preset(argument)
        elif command == "savepreset" and argument:
            self._save_preset(seat, argument)
        elif command == "save":
            self._save_command(argument)
        elif command == "resign":
            self._resign(seat)
            return True
        elif command == "quit":
            raise _Quit
        else:
            try:
                self._play_turn(line)
            except BoardlabError as error:
                print(one_line(str(error)) + _hint(line))
                return False
            return True
        return False

    def _resign(self, seat: int) -> None:
        """``seat`` gives up: the game ends, or (in a game that allows it) the seat leaves."""
        if not self.state.turn_start and self.record.turns:
            # A turn begun and then given up is taken back first; the record stays whole.
            self.record.turns.pop()
            self.state = self.record.replay()
        after = self.record.resign(seat, self.state)
        if after is not None:
            self.state = after
            print(f"{self.names[seat]} resigns and leaves the game; the others play on")
        self.keeper.seen(self._hiding())
        self._autosave()

    def _presets(self) -> list[str]:
        try:
            return self.state.presets()
        except BoardlabError as error:
            print(f"presets unavailable: {error}")
            return []

    def _play_preset(self, name: str) -> bool:
        try:
            actions = self.state.preset_actions(name, self.rng.randrange(2**31))
        except BoardlabError as error:
            print(one_line(str(error)))
            return False
        for action in actions:
            self._apply(action)
        print(f"set up with preset {name}")
        return True

    def _save_preset(self, seat: int, name: str) -> None:
        try:
            where = self.state.save_preset(name, seat)
        except (BoardlabError, OSError) as error:
            print(f"cannot save preset {name}: {one_line(str(error))}")
            return
        print(f"saved preset {name} to {where}")

    def _print_moves(self) -> None:
        print("Legal moves: " + " ".join(self.state.legal_moves()))

    def _play_turn(self, text: str) -> None:
        """Play one decision or several of the same turn, all or none."""
        for action in self.state.parse_turn(text):
            self._apply(action)

    def _undo(self, seat: int) -> bool:
        """Take back ``seat``'s own last turn and the bot turns after it, never another
        human's turn (in hotseat play that would be the other player's move)."""
        turns = self.record.turns
        index = len(turns) - 1
        while index >= 0 and self.bots[turns[index].seat] is not None:
            index -= 1
        if index < 0:
            print("nothing to undo")
            return False
        if turns[index].seat != seat:
            owner = self.names[turns[index].seat]
            print(f"cannot undo: the last turn was {owner}'s; you can only take back your own")
            return False
        self.record.turns = turns[:index]
        self.state = self.record.replay()
        self.keeper.seen(self._hiding())
        self._autosave()
        print(f"took back {len(turns) - index} turn(s)")
        return True

    # -- saving -------------------------------------------------------------------------

    def _autosave(self) -> None:
        """Rewrite the save target (if any) with everything every human may see."""
        problem = self.keeper.autosave(self.state, self._hiding())
        if problem:
            print(problem, flush=True)

    def _save_command(self, path: str) -> None:
        """``save FILE`` typed at the prompt: refused while something is hidden."""
        if not path:
            print("usage: save FILE")
        elif self._hiding():
            print(
                "cannot save now: a deployment is hidden from a player; "
                "save again once both deployments are done"
            )
        else:
            print(self.keeper.save_to(path, self.state, False, self._ask)[1])

    # -- the end ------------------------------------------------------------------------

    def _finish(self) -> None:
        self._autosave()
        print()
        outcome = self.outcome
        said = "" if outcome is None else outcome.describe(self.names)
        # Some boards already state the result; it is said once, on the "Game over" line.
        drawing = self.state.render().rstrip("\n").splitlines()
        print(
            "\n".join(line for line in drawing if line.strip() not in (said, f"Game over: {said}"))
        )
        print("Game left unfinished." if outcome is None else f"Game over: {said}")
        path = self.keeper.path
        if path is not None:
            hidden = " up to the hidden deployment" if self._hiding() else ""
            print(f"saved the record to {path}{hidden}")
            if outcome is None:
                print(f"resume it with: boardlab play {self.game.id} --resume {path}")
        elif self.humans and self.record.turns:
            self._offer_save()

    def _offer_save(self) -> None:
        """Ask for a file until the record is saved or the player presses Enter."""
        while True:
            try:
                path = input("Save the record to FILE (Enter to skip): ").strip()
            except (EOFError, KeyboardInterrupt):
                print()
                return
            if not path:
                return
            saved, said = self.keeper.save_to(path, self.state, self._hiding(), self._ask)
            print(said)
            if saved:
                return


def _hint(line: str) -> str:
    """A pointer to ``help`` when the line looks like a command word rather than a move."""
    word = line.split(" ")[0].lower()
    if word in COMMANDS or word in LEAVE_WORDS or (line.isalpha() and len(line) > 2):
        return " (type `help` for the commands)"
    return ""

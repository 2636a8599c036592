"""Terminal play: any mix of humans and bots, moves read with ``input()``.

Humans type a decision or a ``+``-joined turn at a prompt named after their side, or one of
the commands in :data:`HELP`. Humans see only their own view of a game with hidden
information, and in hotseat play the terminal is handed over between them with the screen
cleared. Undo replays the record from the start, so it is exact for every game.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.core.errors import BoardlabError
from boardlab.core.game import Game
from boardlab.core.outcome import Outcome
from boardlab.core.records import Record
from boardlab.core.state import State

HELP = """\
Commands:
  MOVE        play a decision, or a whole turn as decisions joined by '+'
  moves       list the legal moves
  preset NAME play a whole setup at once where the game offers presets (e.g. a Cyvasse
              lineup: `preset classic`, or `preset random` for a seeded random one)
  savepreset NAME
              save your setup on the board as a preset for later games
  undo        take back your last turn and the bot turns after it
  save FILE   save the game record to FILE
  resign      give up the game
  quit        leave the game unfinished
  help        this help and the legal moves"""

CLEAR_SCREEN = "\033[2J\033[H"


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
        save_path: str | None = None,
    ) -> None:
        self.game = game
        self.names = game.player_names
        self.record = Record(game, start, list(players))
        self.state = self.record.start_state()
        rng = random.Random(seed) if seed is not None else None
        self.rng = random.Random(rng.randrange(2**31) if rng else None)
        self.bots: list[Bot | None] = [
            make_bot(spec, game, rng.randrange(2**31) if rng else None) for spec in players
        ]
        self.humans = [seat for seat, bot in enumerate(self.bots) if bot is None]
        self.hotseat_hidden = game.has_hidden_information and len(self.humans) > 1
        self.save_path = save_path
        self.viewer: int | None = None

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
        action = bot.choose(self.state.view_state(seat))
        text = self.state.action_to_str(action)
        self._apply(action)
        # A decision the humans may not see (a secret deployment) is announced without notation.
        print(f"{self.names[seat]} plays {'(hidden)' if self._hiding() else text}")

    def _hiding(self) -> bool:
        """True while some human's view leaves out part of the position."""
        text = self.state.position_text()
        return any(self.state.view_text(human) != text for human in self.humans)

    def _apply(self, action: int) -> None:
        self.record.add(self.state, action)
        self.state.apply_action(action)

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
                print(CLEAR_SCREEN, end="")
            self._ask(f"Pass the terminal to {name} and press Enter ")
        self.viewer = seat
        print()
        print(self._view(seat).render().rstrip("\n"))
        presets = self._presets()
        if presets:
            print(f"Presets: {' '.join(presets)} (type `preset NAME` to set up at once)")
        while True:
            line = self._ask(f"{name}> ").strip()
            command, _, argument = line.partition(" ")
            if not line:
                continue
            if command in ("help", "?"):
                print(HELP)
                self._print_moves()
            elif command == "moves":
                self._print_moves()
            elif command == "undo":
                if self._undo():
                    return
            elif command == "preset" and argument.strip():
                if self._play_preset(argument.strip()):
                    return
            elif command == "savepreset" and argument.strip():
                self._save_preset(seat, argument.strip())
            elif command == "save":
                self._save(argument.strip())
            elif command == "resign":
                self.record.resign(seat)
                return
            elif command == "quit":
                raise _Quit
            else:
                try:
                    self._play_turn(seat, line)
                except BoardlabError as error:
                    print(error)
                    continue
                return

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
            print(error)
            return False
        for action in actions:
            self._apply(action)
        print(f"set up with preset {name}")
        return True

    def _save_preset(self, seat: int, name: str) -> None:
        try:
            where = self.state.save_preset(name, seat)
        except (BoardlabError, OSError) as error:
            print(f"cannot save preset {name}: {error}")
            return
        print(f"saved preset {name} to {where}")

    def _print_moves(self) -> None:
        print("Legal moves: " + " ".join(self.state.legal_moves()))

    def _play_turn(self, seat: int, text: str) -> None:
        """Play one decision or several of the same turn, all or none."""
        for action in self.state.parse_turn(text):
            self._apply(action)

    def _undo(self) -> bool:
        turns = self.record.turns
        for index in range(len(turns) - 1, -1, -1):
            if self.bots[turns[index].seat] is None:
                self.record.turns = turns[:index]
                self.state = self.record.replay()
                print(f"took back {len(turns) - index} turn(s)")
                return True
        print("nothing to undo")
        return False

    def _save(self, path: str) -> bool:
        if not path:
            print("usage: save FILE")
            return False
        try:
            self.record.save(path, self.state)
        except OSError as error:
            print(f"cannot save to {path}: {error.strerror or error}")
            return False
        print(f"saved the record to {path}")
        return True

    # -- the end ------------------------------------------------------------------------

    def _finish(self) -> None:
        print()
        print(self.state.render().rstrip("\n"))
        outcome = self.outcome
        if outcome is None:
            print("Game left unfinished.")
        else:
            print(f"Game over: {outcome.describe(self.names)}")
        if self.save_path is not None:
            self._save(self.save_path)
        elif self.humans and self.record.turns:
            try:
                path = input("Save the record to FILE (Enter to skip): ").strip()
            except (EOFError, KeyboardInterrupt):
                print()
                return
            if path:
                self._save(str(Path(path)))

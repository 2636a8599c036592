"""The five games as OpenSpiel Python games (``pyspiel.register_game``).

:func:`register_openspiel_games` registers ``boardlab_carnyx``, ``boardlab_murus_gallicus``,
``boardlab_colosseum_offcuts``, ``boardlab_anacund`` and ``boardlab_cyvasse``; then
``pyspiel.load_game("boardlab_cyvasse", {"max_plies": 60})`` makes one, with the game's options
as parameters. Boardlab's chance (Anacund's random layout, Cyvasse's random first tie) is drawn
from the game's ``seed`` option when the game is made, so in OpenSpiel these games are
deterministic for a given ``seed`` parameter (default 0): there are no chance nodes. Cyvasse
with its hidden deployment is an imperfect-information game; its information-state string is
the list of the seat's own views of every position so far, and its observations come from the
seat's view, so the other seat's hidden deployment is not in them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ModuleNotFoundError as error:
    raise ModuleNotFoundError(
        "boardlab.rl.openspiel_game needs OpenSpiel: pip install 'boardlab[rl]'", name="pyspiel"
    ) from error

from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.registry import game_class, game_ids, make
from boardlab.core.state import State
from boardlab.rl.fast import observation_encoder
from boardlab.rl.observation import ObservationEncoder

PREFIX = "boardlab_"
DECISIONS_PER_PLY = 3
"""No turn of any game has more decisions than this (Anacund's three placements)."""
SETUP_DECISIONS = 100
"""More than the decisions of any setup phase (a Cyvasse deployment is at most 2 x 40)."""


def short_name(game_id: str) -> str:
    """OpenSpiel's name of a game, e.g. ``boardlab_murus_gallicus``."""
    return PREFIX + game_id.replace("-", "_")


def _parameters(game_id: str) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters with their defaults (seed defaults to 0)."""
    game = make(game_id, **({SEED: 0} if SEED in _defaults(game_id) else {}))
    return {key: value for key, value in game.options.items() if value is not None}


def _defaults(game_id: str) -> dict[str, Any]:
    """The game's option defaults."""
    return {spec.key: spec.default for spec in game_class(game_id).OPTIONS}


def _hidden(game: Game) -> bool:
    """True when some seat may not see all of the position (Cyvasse's hidden setup)."""
    return game.has_hidden_information and game.options.get("hidden_setup", True) is not False


def _game_type(game: Game, players: tuple[int, int], parameters: dict[str, Any]) -> Any:
    """OpenSpiel's description of ``game`` (seat range ``players``, its parameters)."""
    two = game.num_players == 2
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"Boardlab {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=(
            information.IMPERFECT_INFORMATION if _hidden(game) else information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def max_game_length(game: Game) -> int:
    """An upper bound on the decisions of one game, as OpenSpiel asks for.

    The ply cap bounds a game that has one; Colosseum Offcuts (no cap) ends after its
    no-capture rounds, and there are at most ``4n`` captures; Anacund (no cap) ends after its
    36 placements, well inside its action count.
    """
    players = game.num_players
    if game.max_plies:
        return DECISIONS_PER_PLY * game.max_plies + SETUP_DECISIONS
    rounds = game.options.get("no_capture_rounds")
    if isinstance(rounds, int) and rounds:
        return (4 * players + 1) * (rounds + 1) * players * DECISIONS_PER_PLY + SETUP_DECISIONS
    return game.num_actions + SETUP_DECISIONS


class BoardlabSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One Boardlab game with its options, as an OpenSpiel game; one subclass per game id."""

    game_id: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_id = self.game_id
        options = {**_parameters(game_id), **(params or {})}
        self.boardlab_game = game = make(game_id, **options)
        cls = type(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if game.num_players == 2 else None,
            max_game_length=max_game_length(game),
        )
        kind = _game_type(game, (cls.min_players, cls.max_players), _parameters(game_id))
        super().__init__(kind, info, options)
        self.encoder = observation_encoder(game)

    def new_initial_state(self) -> BoardlabSpielState:
        """The state before the first decision."""
        return BoardlabSpielState(self, self.boardlab_game.new_initial_state())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BoardlabObserver:
        """An observer of the planes; with perfect recall, of the information state."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return BoardlabObserver(self.encoder, recall, _hidden(self.boardlab_game))


class BoardlabSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """One position of a Boardlab game as an OpenSpiel state."""

    def __init__(self, game: BoardlabSpielGame, state: State) -> None:
        super().__init__(game)
        self.boardlab_state = state
        self._game = game
        self._recall = _hidden(game.boardlab_game)
        players = game.boardlab_game.num_players
        self.views: list[list[str]] = (
            [[state.view_text(seat)] for seat in range(players)] if self._recall else []
        )

    def current_player(self) -> int:
        """The seat to decide, or ``TERMINAL``."""
        state = self.boardlab_state
        return int(pyspiel.PlayerId.TERMINAL) if state.is_terminal() else state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        """Legal action ids in ascending order."""
        return sorted(self.boardlab_state.legal_actions())

    def _apply_action(self, action: int) -> None:
        """Play a legal action and, for hidden information, remember each seat's view."""
        state = self.boardlab_state
        state.apply_action(action)
        for seat, seen in enumerate(self.views):
            seen.append(state.view_text(seat))

    def _action_to_string(self, player: int, action: int) -> str:
        """The decision in the game's notation where it is legal here, else its id."""
        if action in self.boardlab_state.legal_actions():
            return self.boardlab_state.action_to_str(action)
        return f"action {action}"

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.boardlab_state.is_terminal()

    def returns(self) -> list[float]:
        """+1 win, 0 draw, -1 loss per seat at the end; zeros before."""
        return list(self.boardlab_state.returns())

    def __deepcopy__(self, memo: dict[int, Any]) -> BoardlabSpielState:
        """A copy through Boardlab's cheap clone (OpenSpiel clones Python states this way)."""
        new = BoardlabSpielState.__new__(BoardlabSpielState)
        pyspiel.State.__init__(new, self._game)
        new.boardlab_state = self.boardlab_state.clone()
        new._game = self._game
        new._recall = self._recall
        new.views = [list(seen) for seen in self.views]
        return new

    def __str__(self) -> str:
        """The terminal drawing of the position."""
        return self.boardlab_state.render()


class BoardlabObserver:
    """OpenSpiel's PyObserver: planes from a seat's view, and strings of what it knows.

    With perfect recall (the information state) it gives strings only: the games declare
    ``provides_information_state_tensor=False``, as the planes are not a perfect-recall
    encoding, so asking for that tensor raises.
    """

    def __init__(self, encoder: ObservationEncoder, recall: bool, hidden: bool) -> None:
        self.encoder = encoder
        self.recall = recall
        self.hidden = hidden
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        self.tensor: np.ndarray[Any, Any] | None = None
        if not recall:
            self.dict["observation"] = np.zeros(encoder.shape, dtype=np.float32)
            self.tensor = self.dict["observation"].reshape(-1)

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        """Fill the planes with ``player``'s observation of ``state``."""
        if self.recall:
            raise NotImplementedError(
                f"{state.get_game()} provides no information-state tensor "
                "(provides_information_state_tensor is False); use information_state_string"
            )
        self.dict["observation"][...] = self.encoder.encode(state.boardlab_state, player)

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        """``player``'s view as position text; with perfect recall, all it has seen so far."""
        if not self.recall:
            return state.boardlab_state.view_text(player)
        if self.hidden:
            return "\n".join(state.views[player])
        return " ".join(str(action) for action in state.history())


def _game_classes() -> dict[str, type[BoardlabSpielGame]]:
    """One ``BoardlabSpielGame`` subclass per game id, named ``<Title>SpielGame``.

    They are attributes of this module, so pickle finds them by name (OpenSpiel's
    serialisation and ``copy`` pickle Python games). OpenSpiel must be given a class: a
    function as the factory makes the interpreter abort at exit (pyspiel 2.0.2).
    """
    classes = {}
    for game_id in game_ids():
        title = "".join(word.title() for word in game_id.split("-")) + "SpielGame"
        cls = type(title, (BoardlabSpielGame,), {"game_id": game_id, "__module__": __name__})
        globals()[title] = classes[game_id] = cls
    return classes


GAME_CLASSES = _game_classes()
"""The OpenSpiel game class of each game id."""


def register_openspiel_games() -> list[str]:
    """Register every game with OpenSpiel (once); returns the short names."""
    registered = set(pyspiel.registered_names())
    names = []
    for game_id, factory in GAME_CLASSES.items():
        name = short_name(game_id)
        names.append(name)
        if name in registered:
            continue
        probe = make(game_id, **({SEED: 0} if SEED in _defaults(game_id) else {}))
        cls = type(probe)
        kind = _game_type(probe, (cls.min_players, cls.max_players), _parameters(game_id))
        pyspiel.register_game(kind, factory)
    return names

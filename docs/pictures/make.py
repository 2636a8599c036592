"""Make the board pictures of the docs: every game at the start and in mid-game.

Mid-game positions come from seeded games of two greedy bots (the same pictures every run),
with the last turn marked. Each picture is written as SVG (the renderer's own output) and as
PNG (through cairosvg, the ``png`` extra). Run from the repository root::

    .venv/bin/pip install -e '.[png]'
    .venv/bin/python docs/pictures/make.py

The same pictures come from the command line, e.g. ``boardlab show cyvasse --svg board.svg``
for a start position, or ``boardlab replay GAME.txt --svg DIR`` for every turn of a record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from boardlab.ai.players import make_bot
from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.registry import game_class, make
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.render.files import svg_to_png, write_picture
from boardlab.render.svg import render_svg

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Picture:
    """One picture: a game, how many turns the bots play, and whose view is drawn."""

    name: str
    game: str
    turns: int = 0
    options: dict[str, str] = field(default_factory=dict)
    decisions: int = 0
    """Further decisions played inside the next turn (a deployment under way)."""
    view: int | None = None
    seed: int = 7


PICTURES = [
    Picture("carnyx-start", "carnyx"),
    Picture("carnyx-mid", "carnyx", turns=16),
    Picture("murus-gallicus-start", "murus-gallicus"),
    Picture("murus-gallicus-mid", "murus-gallicus", turns=24),
    Picture("colosseum-offcuts-start", "colosseum-offcuts"),
    Picture("colosseum-offcuts-mid", "colosseum-offcuts", turns=16),
    Picture("colosseum-offcuts-4-mid", "colosseum-offcuts", turns=24, options={"players": "4"}),
    Picture("colosseum-offcuts-5-mid", "colosseum-offcuts", turns=30, options={"players": "5"}),
    Picture("anacund-start", "anacund"),
    Picture("anacund-mid", "anacund", turns=6),
    Picture("cyvasse-start", "cyvasse"),
    Picture("cyvasse-mid", "cyvasse", turns=30),
    # North deploys behind the screen; South's view shows North's zone as hidden.
    Picture("cyvasse-deployment", "cyvasse", turns=1, decisions=9, view=0),
]


def position(picture: Picture, game: Game) -> RenderModel:
    """The picture's model after the bots' turns, with the last turn's click paths."""
    bots = [make_bot("greedy", game, picture.seed + seat) for seat in range(game.num_players)]
    state = game.new_initial_state()
    last: list[ClickPath] = []
    turn: list[ClickPath] = []
    played = 0
    while not state.is_terminal() and played < picture.turns + (picture.decisions > 0):
        if played == picture.turns and len(turn) == picture.decisions:
            break
        bot = bots[state.current_player]
        assert bot is not None
        action = bot.choose(state)
        turn.append(state.click_path(action))
        state.apply_action(action)
        if state.is_terminal() or state.turn_start:
            last, turn = turn, []
            played += 1
    return state.render_model(view=picture.view, last_turn=last or turn)


def game_of(picture: Picture) -> Game:
    """The picture's game; a game with chance gets the picture's seed, so reruns agree."""
    options: dict[str, object] = dict(picture.options)
    if any(spec.key == SEED for spec in game_class(picture.game).OPTIONS):
        options[SEED] = picture.seed
    return make(picture.game, **options)


def main() -> None:
    """Write every picture beside this script."""
    for picture in PICTURES:
        svg = render_svg(position(picture, game_of(picture)))
        write_picture(HERE / f"{picture.name}.svg", svg)
        write_picture(HERE / f"{picture.name}.png", svg_to_png(svg))
        print(f"{picture.name}: {HERE / picture.name}.svg and .png")


if __name__ == "__main__":
    main()

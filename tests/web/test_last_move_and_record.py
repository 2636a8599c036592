"""What a player sees of a finished turn: the last-move mark on every board that may show it,
and the downloaded record of a resigned match, which says who won and why."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.conftest import Server
from tests.web.test_api import MURUS_HOT_SEAT, create, replayed, turn
from tests.web.test_api_hidden import preset


def marked(svg: str) -> set[str]:
    """The cells the picture marks as part of the last turn."""
    return set(re.findall(r'<g class="[^"]*\blast\b[^"]*" data-id="([^"]+)"', svg))


def test_every_seat_and_spectators_see_the_last_move_marked(shared_server: Server) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    start = shared_server.get(f"/api/matches/{match}")[1]
    assert marked(start["svg"]) == set()
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    for token in (romans, gauls, None):
        assert marked(shared_server.get(f"/api/matches/{match}", token)[1]["svg"]) == {"d1", "d3"}
    turn(shared_server, match, gauls, 1, 1, "a7-a5")
    for token in (romans, gauls, None):
        assert marked(shared_server.get(f"/api/matches/{match}", token)[1]["svg"]) == {"a7", "a5"}
    # Stepping back through the move list shows each turn marked, and none at the start.
    positions = [
        shared_server.get(f"/api/matches/{match}/position?at={at}", gauls)[1]["svg"]
        for at in range(3)
    ]
    assert [marked(svg) for svg in positions] == [set(), {"d1", "d3"}, {"a7", "a5"}]


def test_a_hidden_deployment_is_unmarked_until_revealed_then_marked(
    shared_server: Server,
) -> None:
    match, (south, north) = create(
        shared_server, {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    )
    preset(shared_server, match, south, 0, 0, "classic")
    own = marked(shared_server.get(f"/api/matches/{match}", south)[1]["svg"])
    assert len(own) == 19  # South sees its own deployment marked
    assert marked(shared_server.get(f"/api/matches/{match}", north)[1]["svg"]) == set()
    assert marked(shared_server.get(f"/api/matches/{match}")[1]["svg"]) == set()
    preset(shared_server, match, north, 1, 1, "classic")
    after = [
        marked(shared_server.get(f"/api/matches/{match}", token)[1]["svg"])
        for token in (south, north, None)
    ]
    # Once nothing is hidden, everyone sees North's deployment marked, on North's side.
    assert len(after[0]) == 19 and after[0] == after[1] == after[2] and not after[0] & own
    # Stepping back, South sees its own deployment marked; the others see ply 1 as they saw
    # it then, South's pieces unseen and so unmarked.
    pictures = [
        shared_server.get(f"/api/matches/{match}/position?at=1", token)[1]["svg"]
        for token in (south, north, None)
    ]
    assert [marked(svg) for svg in pictures] == [own, set(), set()]


def test_the_record_of_a_resigned_match_names_the_winner(
    shared_server: Server, tmp_path: Path
) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    assert shared_server.post(f"/api/matches/{match}/resign", {"seat": 1}, gauls)[0] == 200
    for token in (romans, gauls, None):
        status, record = shared_server.get(f"/api/matches/{match}/record", token)
        assert status == 200
        assert "\nResult: Romans=win Gauls=loss\nTermination: resignation\n" in record
        assert record.endswith("\n1 Romans: d1-d3\n")
    shown = replayed(record, tmp_path)
    assert "Romans won" in shown and "resign" in shown

"""``POST /api/mine`` against a real server: a browser's own matches, and its bad requests
refused with one sentence."""

from __future__ import annotations

from tests.web.browser_play import create_match
from tests.web.conftest import Server


def test_only_matches_the_tokens_hold_are_listed(shared_server: Server) -> None:
    created = create_match(shared_server, "carnyx", [{"kind": "human"}, {"kind": "invite"}])
    token, invited = (seat["token"] for seat in created["seats"])
    other = create_match(shared_server, "carnyx", [{"kind": "human"}, {"kind": "human"}])
    body = {"matches": {created["id"]: [token], other["id"]: [token], "z" * 16: [token]}}
    status, answer = shared_server.post("/api/mine", body)
    assert status == 200, answer
    (entry,) = answer["matches"]
    assert entry["id"] == created["id"] and entry["you"] == [0] and entry["to_move"] == 0
    assert entry["state"] == "your turn" and entry["players"] == ["Dark", "Light"]
    status, answer = shared_server.post("/api/mine", {"matches": {created["id"]: [invited]}})
    assert status == 200 and answer["matches"][0]["state"] == "in progress", answer


def test_bad_requests_are_refused_with_a_sentence(shared_server: Server) -> None:
    many: dict[str, list[str]] = {f"{n:016d}": [] for n in range(101)}
    for body, words in [
        ({}, "'matches' must map"),
        ({"matches": []}, "'matches' must map"),
        ({"matches": many}, "at most 100"),
        ({"matches": {"short": []}}, "malformed match id"),
        ({"matches": {"a" * 16: "token"}}, "tokens must be a list"),
        ({"matches": {"a" * 16: ["bad token!"]}}, "a token is malformed"),
    ]:
        status, answer = shared_server.post("/api/mine", body)
        assert status == 400 and words in answer["error"], (body, answer)

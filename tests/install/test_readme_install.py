"""The README's installs, tried as a new user would (issue 35, item 4).

README command 1's install (read from README.md) must bring the compiled engine: every game
runs on it, every level of every game decides legally within its time budget, ``medium`` beats
``random``, and ``boardlab serve`` plays a bot turn at every level through the HTTP API with
nothing failing in its log. A bare ``pip install .`` (no extras, so no NumPy) must run the
reference engine, every search level included. Everything runs with the venv's own Python in
a subprocess; the test process only judges.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.ai.levels import LEVELS, level_spec
from boardlab.ai.players import parse_spec
from boardlab.core.registry import make
from tests.install.conftest import ROOT, Install, readme_command
from tests.install.levels_check import CONFIGS
from tests.web.conftest import UNLIMITED, free_port, json_request, unexpected_problems

GAMES = ("carnyx", "murus-gallicus", "colosseum-offcuts", "anacund", "cyvasse")
SLACK = 1.0
"""Seconds a bot's turn may take beyond its decisions' time budgets."""
ANSWER_SECONDS = 60.0
"""How long the server may take to answer at all."""
READY_SECONDS = 600.0
"""How long the server may take to prepare its bots (compiling them cold on a busy machine)."""
TURN_SECONDS = 120.0
"""How long a test waits for one bot turn before it gives up (the budget is checked after)."""
LEVELS_SCRIPT = Path(__file__).with_name("levels_check.py")
MEDIUM_SCORE = {2: 0.85, 5: 0.55}
"""The least score of ``medium`` against ``random`` (win 1, draw 1/2) per seat count: medium
scored 1.0 at 2 seats and 0.7-0.9 at 5 seats (random about 0.3 there) when this was written."""


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def engines(listing: str) -> dict[str, str]:
    """Each game's engine in the output of ``boardlab games`` (the first word of its
    ``engine:`` line, which may go on to explain it)."""
    found: dict[str, str] = {}
    game = ""
    for line in listing.splitlines():
        if line and not line[0].isspace():
            game = line.split()[0]
        elif line.strip().startswith("engine:"):
            found[game] = line.partition(":")[2].split()[0]
    return found


def check_engines(venv: Install, engine: str) -> None:
    """``boardlab games`` (and its ``--json``) name ``engine`` for every game."""
    boardlab = venv.bin / "boardlab"
    listed = venv.run([boardlab, "games"])
    assert listed.returncode == 0, listed.stderr
    assert engines(listed.stdout) == dict.fromkeys(GAMES, engine), listed.stdout
    listed = venv.run([boardlab, "games", "--json"])
    assert listed.returncode == 0, listed.stderr
    assert {game["id"]: game.get("engine") for game in json.loads(listed.stdout)} == dict.fromkeys(
        GAMES, engine
    )


def level_problems(venv: Install, engine: str, args: list[str]) -> list[str]:
    """Run levels_check.py with ``args`` in ``venv`` and list what is wrong in its reports:
    another engine, an illegal decision, a decision over budget, ``medium`` not beating
    ``random``. Prints the figures."""
    started = time.monotonic()
    done = venv.run([venv.python, LEVELS_SCRIPT, *args], timeout=900)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    print(f"\nlevels_check.py {' '.join(args)}: {time.monotonic() - started:.1f} s")
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(report["game"], report["seats"]) for report in reports] == list(CONFIGS)
    problems = []
    for report in reports:
        name = f"{report['game']} at {report['seats']} seats"
        if report["engine"] != engine:
            problems.append(f"{name}: engine {report['engine']}, not {engine}")
        for level, figures in report["levels"].items():
            print(
                f"  {name} {level} ({figures['spec']}): warm-up {figures['warm_up']} s, "
                f"then {figures['seconds']} s"
            )
            if not figures["legal"]:
                problems.append(f"{name}: level {level} chose an illegal decision")
            slow = [took for took in figures["seconds"] if took > figures["budget"] + SLACK]
            if slow:
                problems.append(f"{name}: level {level} took {slow} s ({figures['spec']})")
        duel = report.get("medium_vs_random")
        if duel is not None:
            print(f"  {name} medium-random: {duel}")
            least = MEDIUM_SCORE[report["seats"]]
            if (
                duel["illegal"]
                or duel["score"] < least
                or duel["score"] <= duel["best_random_score"]
            ):
                problems.append(f"{name}: medium does not beat random (at least {least}): {duel}")
    return problems


# -- README command 1 ------------------------------------------------------------------------


def test_readme_command_1_is_an_install_then_boardlab_serve() -> None:
    command = readme_command(readme())
    assert "pip install" in command.install
    assert Path(command.serve[0]).name == "boardlab" and command.serve[1:] == ["serve"]


def test_the_readme_install_runs_every_game_on_the_compiled_engine(readme_venv: Install) -> None:
    check_engines(readme_venv, "compiled")


@dataclass
class BotTurn:
    """One bot turn seen through the API."""

    phase: str
    turn: str
    seconds: float


class EndedEarly(AssertionError):
    """A match ended before its bot played a turn of the game's play phase."""


def bot_turns_to_play(
    url: str, game: str, seats: int, level: str, rng: random.Random
) -> list[BotTurn]:
    """:func:`bot_turns` of a match that reaches the bot's play phase: random turns may end a
    game before it (a time-bound bot's setup differs from run to run), and such a match says
    nothing of the bot's time, so another is played, three at most."""
    for _ in range(2):
        try:
            return bot_turns(url, game, seats, level, rng)
        except EndedEarly as ended:
            print(f"  {ended}: another match")
    return bot_turns(url, game, seats, level, rng)


def bot_turns(url: str, game: str, seats: int, level: str, rng: random.Random) -> list[BotTurn]:
    """A match of ``game`` with the bot ``level`` in the first seat and humans in the others,
    played by the humans (random legal turns through the API) until the bot has played a turn
    in the game's ``play`` phase (not a setup); every bot turn, timed from when it began."""
    seat_list = [{"kind": "bot", "bot": f"level:{level}"}] + [{"kind": "human"}] * (seats - 1)
    status, created = json_request(url, "POST", "/api/matches", {"game": game, "seats": seat_list})
    assert status == 201, created
    match = created["id"]
    tokens = ",".join(seat["token"] for seat in created["seats"] if "token" in seat)
    began = time.monotonic()
    turns: list[BotTurn] = []
    for _ in range(200):
        status, view = json_request(url, "GET", f"/api/matches/{match}", None, tokens)
        assert status == 200, view
        if view["status"] != "active":
            raise EndedEarly(f"{game}: the game ended before the bot played in its play phase")
        if view["to_move"] == 0:
            ply = view["ply"]
            after = wait_for_bot(url, match, tokens, ply)
            turns.append(BotTurn(view["phase"], after["moves"][ply]["turn"], 0.0))
            turns[-1].seconds = time.monotonic() - began
            began = time.monotonic()
            if view["phase"] == "play":
                return turns
        else:
            play_human_turn(url, match, tokens, view, rng)
            began = time.monotonic()
    raise AssertionError(f"{game}: the bot never played in the play phase")


def wait_for_bot(url: str, match: str, tokens: str, ply: int) -> Any:
    """Poll the match until the bot's turn at ``ply`` is played, and return the view then;
    fails at once when the server counts a failed bot search."""
    deadline = time.monotonic() + TURN_SECONDS
    checked = time.monotonic()
    while time.monotonic() < deadline:
        status, view = json_request(url, "GET", f"/api/matches/{match}", None, tokens)
        assert status == 200, view
        if view["ply"] > ply:
            return view
        if time.monotonic() - checked > 1:
            health = json_request(url, "GET", "/api/health", None)[1]
            assert health["bots"]["failures"] == 0, f"a bot search failed: {health}"
            checked = time.monotonic()
        time.sleep(0.05)
    raise AssertionError(f"the bot did not play in {TURN_SECONDS} s")


def play_human_turn(url: str, match: str, tokens: str, view: Any, rng: random.Random) -> None:
    """Play a random legal turn for the human seat to move: a preset where there are any (a
    Cyvasse deployment), else decisions one by one through the previews."""
    seat, ply = view["to_move"], view["ply"]
    body: dict[str, Any] = {"seat": seat, "ply": ply}
    if view["presets"]:
        body["preset"] = rng.choice(view["presets"])
    else:
        steps = [rng.choice(view["legal"])["text"]]
        while True:
            status, preview = json_request(
                url, "POST", f"/api/matches/{match}/preview", {"seat": seat, "steps": steps}, tokens
            )
            assert status == 200, preview
            if preview["turn_complete"]:
                break
            steps.append(rng.choice(preview["legal"])["text"])
        body["turn"] = "+".join(steps)
    status, answer = json_request(url, "POST", f"/api/matches/{match}/turn", body, tokens)
    assert status == 200, answer


def wait_until_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> Any:
    """Wait for the server to answer, then for ``bots.ready`` in its health; returns it."""
    deadline = time.monotonic() + ANSWER_SECONDS
    health: Any = None
    while health is None:
        assert process.poll() is None, f"boardlab serve ended:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"no answer in {ANSWER_SECONDS} s:\n{log.read_text()}"
        try:
            status, answer = json_request(url, "GET", "/api/health", None)
            health = answer if status == 200 else None
        except OSError:
            time.sleep(0.1)
    assert isinstance(health.get("bots"), dict), f"/api/health says nothing of the bots: {health}"
    deadline = time.monotonic() + READY_SECONDS
    while not health["bots"]["ready"]:
        failed = [game for game, state in health["bots"]["games"].items() if state == "failed"]
        assert not failed, f"the bots of {failed} could not be prepared:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"bots not ready in {READY_SECONDS} s: {health}"
        time.sleep(1)
        health = json_request(url, "GET", "/api/health", None)[1]
    return health


def test_the_readme_server_plays_a_bot_turn_at_every_level(
    readme_venv: Install, tmp_path: Path
) -> None:
    """``boardlab serve`` as README command 1 starts it (on a free port, its own database and
    no rate limits): once its bots are ready, each level of each game plays a turn within its
    budget; no bot search failed and its log holds no traceback or error."""
    check_engines(readme_venv, "compiled")  # else the rest would only be slow
    command = readme_command(readme())
    program = readme_venv.root / command.serve[0]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    options = ["--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "b.sqlite3")]
    log = tmp_path / "server.log"
    started = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(program), *command.serve[1:], *options, *UNLIMITED],
            cwd=readme_venv.root,
            env=readme_venv.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    problems = []
    try:
        health = wait_until_ready(url, process, log)
        print(f"\nbots ready {time.monotonic() - started:.1f} s after the start: {health['bots']}")
        rng = random.Random(35)
        for game, seats in CONFIGS:
            seated = make(game) if seats == 2 else make(game, players=seats)
            for level in LEVELS:
                _, params = parse_spec(level_spec(seated, level))
                budget = 0.0 if isinstance(params, str) else float(params.get("time", 0.0))
                for turn in bot_turns_to_play(url, game, seats, level, rng):
                    decisions = len(turn.turn.split("+"))
                    allowed = decisions * budget + SLACK
                    print(
                        f"  {game} {seats} {level} {turn.phase}: {decisions} decision(s) "
                        f"in {turn.seconds:.2f} s (budget {allowed:.1f} s)"
                    )
                    if turn.seconds > allowed:
                        problems.append(
                            f"{game} at {seats} seats, {level}: a {turn.phase} turn of "
                            f"{decisions} decision(s) took {turn.seconds:.2f} s > {allowed:.1f} s"
                        )
        health = json_request(url, "GET", "/api/health", None)[1]
        assert health["bots"]["failures"] == 0, health
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)
    print(f"  server test: {time.monotonic() - started:.1f} s")
    output = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in output, output[-5000:]
    assert unexpected_problems(output) == [], output[-5000:]
    workers = [line for line in output.splitlines() if line.startswith("bot worker")]
    assert not problems, "\n".join([*problems, "The workers said:", *workers])


def test_every_level_decides_legally_in_time_and_medium_beats_random(
    readme_venv: Install,
) -> None:
    check_engines(readme_venv, "compiled")  # else the rest would only be slow
    problems = level_problems(readme_venv, "compiled", [])
    assert not problems, "\n".join(problems)


# -- a bare install --------------------------------------------------------------------------


def test_a_bare_install_runs_the_reference_engine_without_numpy(bare_venv: Install) -> None:
    check_engines(bare_venv, "reference")
    found = bare_venv.run(
        [
            bare_venv.python,
            "-c",
            "import importlib.util as u; print([m for m in ('numpy', 'numba') if u.find_spec(m)])",
        ]
    )
    assert found.stdout.strip() == "[]", found.stdout + found.stderr


def test_a_bare_install_plays_a_hard_game(bare_venv: Install) -> None:
    played = bare_venv.run(
        [
            bare_venv.bin / "boardlab",
            "match",
            "murus-gallicus",
            "--player",
            "level:hard",
            "--player",
            "level:hard",
            "--games",
            "1",
            "--option",
            "max_plies=8",
            "--seed",
            "1",
            "--json",
            "--quiet",
        ],
        timeout=300,
    )
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    assert json.loads(played.stdout)["games"] == 1


def test_a_bare_install_decides_at_every_level_below_expert(bare_venv: Install) -> None:
    """One decision per game, seat count and level below expert (which only thinks longer),
    on the reference engine: legal and within budget."""
    args = [
        "--positions",
        "1",
        "--games",
        "0",
        "--multi-games",
        "0",
        "--levels",
        "easy,medium,hard",
    ]
    problems = level_problems(bare_venv, "reference", args)
    assert not problems, "\n".join(problems)

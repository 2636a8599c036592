"""Benchmark: time from a decision posted in one browser to the other browser showing it.

``python -m tests.web.browser_latency [--decisions 200] [--seconds 60] [--background 0]``
starts ``boardlab serve`` on 127.0.0.1 with a temporary store and opens two browser contexts
in Debian's Chromium: the creator of a Murus Gallicus match and the friend who opened its
invite link. They take turns typing a random legal move into the notation box. Each page
stamps the moment its ``fetch`` posts a turn and the moment its own view of a new ply reaches
the page (``body[data-ply]`` changes, after the board is redrawn); a decision's latency is the
other page's stamp minus the poster's. The time its websocket frame arrived is reported too,
which splits server and network from the page's own drawing. ``--background N`` keeps N more
matches going through the JSON API meanwhile, each making a move every ``--pace`` seconds.
Loopback only, bounded by ``--seconds``; prints p50/p99 in ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from tests.chromium import launch
from tests.web.browser_play import create_match, engine_state, open_link, open_match
from tests.web.conftest import Server, start_server

STAMPS = """
const now = () => performance.timeOrigin + performance.now();
window.__posted = [];
window.__shown = {};
window.__received = {};
const realFetch = window.fetch;
window.fetch = (url, options) => {
  if (String(url).endsWith("/turn")) window.__posted.push(now());
  return realFetch(url, options);
};
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const ply = JSON.parse(event.data).view?.ply;
      if (ply !== undefined && !(ply in window.__received)) window.__received[ply] = now();
    });
  }
};
new MutationObserver(() => {
  const ply = document.body?.dataset.ply;
  if (ply !== undefined && !(ply in window.__shown)) {
    window.__shown[ply] = performance.timeOrigin + performance.now();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ply"] });
"""


def background(server: Server, stop: threading.Event, seed: int, pace: float) -> None:
    """Keep one hot-seat match busy through the JSON API, one decision every ``pace`` seconds,
    until ``stop`` is set."""
    rng = random.Random(seed)
    stop.wait(rng.uniform(0, pace))
    while not stop.is_set():
        created = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "human"}])
        tokens = ",".join(seat["token"] for seat in created["seats"])
        path = f"/api/matches/{created['id']}"
        while not stop.is_set():
            status, view = server.get(path, tokens)
            if status != 200 or view["status"] != "active" or not view["legal"]:
                break
            turn = rng.choice(view["legal"])["text"]
            body = {"seat": view["to_move"], "ply": view["ply"], "turn": turn}
            server.post(f"{path}/turn", body, tokens)
            stop.wait(pace)


def new_game(server: Server, contexts: list[Any]) -> tuple[str, list[Page]]:
    """A fresh match between the two contexts: the creator's page and the friend's."""
    created = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    creator = open_match(contexts[0], server, created["id"], {0: created["seats"][0]["token"]})
    friend = open_link(contexts[1], server, created["seats"][1]["link"])
    return created["id"], [creator, friend]


def measure(server: Server, decisions: int, seconds: float) -> tuple[list[float], list[float]]:
    """Latencies in ms of up to ``decisions`` decisions, within ``seconds``: to the frame
    arriving in the other page, and to that page showing it."""
    rng = random.Random(1)
    latencies: list[float] = []
    frames: list[float] = []
    deadline = time.monotonic() + seconds
    with sync_playwright() as driver:
        browser = launch(driver)
        contexts = [browser.new_context() for _ in range(2)]
        for context in contexts:
            context.add_init_script(STAMPS)
        match_id, pages = new_game(server, contexts)
        while len(latencies) < decisions and time.monotonic() < deadline:
            state = engine_state(server, match_id)
            if state.is_terminal():
                for page in pages:
                    page.close()
                match_id, pages = new_game(server, contexts)
                continue
            mover, other = pages[state.current_player], pages[1 - state.current_player]
            after = str(int(mover.get_attribute("body", "data-ply") or "0") + 1)
            move = state.action_to_str(rng.choice(state.legal_actions()))
            mover.fill("#notation-input", move)
            mover.press("#notation-input", "Enter")
            other.wait_for_function("p => p in window.__shown", arg=after, timeout=10_000)
            mover.wait_for_function("p => p in window.__shown", arg=after, timeout=10_000)
            posted = mover.evaluate("window.__posted.at(-1)")
            shown = other.evaluate("p => window.__shown[p]", after)
            received = other.evaluate("p => window.__received[p]", after)
            latencies.append(shown - posted)
            frames.append(received - posted)
        browser.close()
    return frames, latencies


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--background", type=int, default=0, help="busy matches besides")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between their moves")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "latency.sqlite3")
        stop = threading.Event()
        threads = [
            threading.Thread(target=background, args=(server, stop, n, args.pace), daemon=True)
            for n in range(args.background)
        ]
        try:
            for thread in threads:
                thread.start()
            frames, latencies = measure(server, args.decisions, args.seconds)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=10)
            server.stop()
    print(
        f"{len(latencies)} decisions, {args.background} background matches"
        f" (a move each every {args.pace} s)"
    )
    print(f"  posted -> frame in the other page: {summary(frames)}")
    print(f"  posted -> other page shows it:     {summary(latencies)}")


def summary(values: list[float]) -> str:
    """p50, p99 and max of a list of milliseconds."""
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms"


if __name__ == "__main__":
    main()

"""``boardlab analyse`` end to end: report files, variants, errors, Ctrl-C and --resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.analysis.store import read_rows
from boardlab.cli.analyse import Progress
from boardlab.cli.main import main

FAST = ["--player", "random", "--skill-games", "4", "--skill-rungs", "random", "level:easy"]
NO_SKILL = ["--player", "random", "--skill-games", "0"]


def test_analyse_writes_a_report_with_headlines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "analyse",
            "murus-gallicus",
            "--games",
            "12",
            "--seed",
            "4",
            "--out",
            str(out),
            "--quiet",
            *FAST,
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "of 12 games (" in printed and "the seats win Romans" in printed
    assert f"report: {out / 'report.html'}" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["series"][0]["outcome"]["games"] == 12
    assert summary["skill"][0]["games"] == 4
    csv_lines = (out / "games.csv").read_text().splitlines()
    assert csv_lines[0].startswith("series,game,players,results,termination")
    assert len(csv_lines) == 1 + 12 + 4
    page = (out / "report.html").read_text()
    assert page.count("<svg") >= 5 and 'href="records/base-1.txt"' in page


def test_variants_are_compared_metric_by_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "analyse",
            "murus-gallicus",
            "--games",
            "6",
            "--seed",
            "4",
            "--out",
            str(out),
            "--quiet",
            "--player",
            "random",
            "--skill-games",
            "0",
            "--variant",
            "small:",
            "--variant",
            "big:board=8x8",
        ]
    )
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    [comparison] = summary["comparisons"]
    assert (comparison["base"], comparison["variant"]) == ("small", "big")
    metrics = {row["metric"] for row in comparison["rows"]}
    assert {"first_seat_edge", "decisions", "branching", "lead_changes"} <= metrics
    assert all(isinstance(row["real"], bool) for row in comparison["rows"])
    assert "Variant big against small" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "only:board=8x8"], "at least two variants"),
        (["--variant", "bad name:x=1", "--variant", "b:"], "bad variant"),
        (["--option", "seed=3"], "use --seed"),
        (["--player", "human"], "not a bot"),
        (["--games", "0"], "at least 1"),
        (["--backend", "ray", "--jobs", "0"], "--jobs"),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code = main(["analyse", "murus-gallicus", "--out", str(tmp_path / "run"), "--quiet", *args])
    assert code == 2
    error = capsys.readouterr().err
    assert error.startswith("boardlab: error: ") and message in error
    assert error.count("\n") == 1


def test_resume_refuses_other_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "run")
    base = ["analyse", "murus-gallicus", "--games", "2", "--out", out, "--quiet", *NO_SKILL]
    assert main([*base, "--seed", "1"]) == 0
    assert main([*base, "--seed", "1"]) == 2
    assert "add --resume" in capsys.readouterr().err
    assert main([*base, "--resume", "--option", "board=8x8"]) == 2
    assert "differs in options" in capsys.readouterr().err
    assert main([*base, "--resume", "--games", "3"]) == 0
    assert len(list(read_rows(out))) == 3


def _run(out: Path, *extra: str) -> subprocess.Popen[str]:
    command = [
        sys.executable,
        "-m",
        "boardlab",
        "analyse",
        "cyvasse",
        "--games",
        "16",
        "--seed",
        "9",
        "--jobs",
        "2",
        "--out",
        str(out),
        *NO_SKILL,
        *extra,
    ]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # A test runner started in the background may ignore SIGINT; Ctrl-C must reach the run.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_ctrl_c_keeps_the_games_and_resume_gives_the_same_report(tmp_path: Path) -> None:
    child = _run(tmp_path / "stopped")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list(read_rows(tmp_path / "stopped"))) < 3:
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130
    stored = len(list(read_rows(tmp_path / "stopped")))
    assert 3 <= stored < 16, "the interrupt must land mid-run"
    assert f"{stored} games are stored" in err and "--resume" in err
    assert "Traceback" not in err
    resumed = _run(tmp_path / "stopped", "--resume", "--quiet")
    fresh = _run(tmp_path / "fresh", "--quiet")
    assert resumed.wait(timeout=300) == 0 and fresh.wait(timeout=300) == 0
    for name in ("summary.json", "report.html", "games.csv"):
        assert (tmp_path / "stopped" / name).read_bytes() == (
            tmp_path / "fresh" / name
        ).read_bytes()
    assert not [p for p in (tmp_path / "stopped").rglob(".*") if p.is_file()]


def test_the_live_bar_is_redrawn_a_few_times_a_second_not_per_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    progress = Progress()
    progress.live = True
    for done in range(501):
        progress(done, 500)
    drawn = capsys.readouterr().err.split("\r")[1:]
    assert 2 <= len(drawn) < 100
    assert drawn[-1].startswith("[########################] 500/500 games 100%")

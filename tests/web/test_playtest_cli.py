"""``boardlab playtest create`` refuses what it cannot send with one line and exit code 2: a
malformed variant or clock, or a server it cannot reach; its help explains the command."""

from __future__ import annotations

import pytest

from boardlab.cli.main import main
from tests.web.conftest import free_port


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_help_explains_variants_opponents_and_the_dashboard(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "playtest", "create", "--help")
    assert code == 0
    for words in (
        "--variant NAME:K=V,K=V",
        "'people'",
        "dashboard link is printed once",
        "--server",
    ):
        assert words in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--variant", "conversion=token"), "bad variant 'conversion=token'"),
        (("--variant", "T:conversion"), "bad option 'conversion' in variant 'T:conversion'"),
        (("--clock", "five"), "bad clock 'five'"),
    ],
)
def test_a_malformed_argument_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, "playtest", "create", "carnyx", *argv)
    assert (code, out) == (2, "") and message in err and len(err.splitlines()) == 1


def test_a_server_that_is_not_there_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    code, out, err = run(capsys, "playtest", "create", "carnyx", "--server", url)
    assert (code, out) == (2, "") and f"cannot reach the server at {url}" in err

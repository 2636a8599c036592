"""``boardlab serve``'s mail options: read into settings, the password only from the
environment and never shown, and each bad value refused with one sentence before the server
starts."""

from __future__ import annotations

import argparse

import pytest

from boardlab.core.errors import BoardlabError
from boardlab.web.notifications_settings import (
    PASSWORD_VARIABLE,
    MailSettings,
    add_mail_arguments,
    mail_settings,
)

LISTENING = "http://127.0.0.1:8000"


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_mail_arguments(parser)
    return parser.parse_args(argv)


def test_settings_are_read_and_the_password_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert mail_settings(parsed(), LISTENING) is None
    monkeypatch.setenv(PASSWORD_VARIABLE, "s3cret")
    args = parsed(
        "--smtp", "mail.example.org:587", "--smtp-from", "b@example.org", "--smtp-user", "b"
    )
    settings = mail_settings(args, LISTENING)
    assert settings == MailSettings(
        "mail.example.org", 587, "b@example.org", LISTENING, "b", "s3cret", "starttls"
    )
    assert "s3cret" not in repr(settings)
    args = parsed(
        *("--smtp", "[::1]:25", "--smtp-from", "b@example.org", "--smtp-security", "none"),
        *("--public-url", "https://games.example.org/"),
    )
    settings = mail_settings(args, LISTENING)
    assert settings is not None and settings.host == "::1" and settings.password is None
    assert settings.public_url == "https://games.example.org"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--smtp-from", "b@example.org"), "need --smtp HOST:PORT"),
        (("--smtp", "mail.example.org", "--smtp-from", "b@example.org"), "is not HOST:PORT"),
        (("--smtp", "mail.example.org:99999", "--smtp-from", "b@example.org"), "is not HOST:PORT"),
        (("--smtp", "mail.example.org:25"), "needs --smtp-from"),
        (
            ("--smtp", "mail.example.org:25", "--smtp-from", "B <b@example.org>"),
            "needs --smtp-from",
        ),
        (("--smtp", "m:25", "--smtp-from", "b@example.org", "--smtp-user", "b"), PASSWORD_VARIABLE),
        (("--smtp", "m:25", "--smtp-from", "b@example.org", "--public-url", "ftp://x"), "http(s)"),
    ],
)
def test_a_bad_value_is_refused_in_one_sentence(
    monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...], words: str
) -> None:
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    with pytest.raises(BoardlabError) as refused:
        mail_settings(parsed(*argv), LISTENING)
    assert words in str(refused.value) and "\n" not in str(refused.value)

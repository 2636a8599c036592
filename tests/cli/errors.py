"""The shape every command-line error must have: exit 2, nothing on stdout, one stderr line."""

from __future__ import annotations

import pytest

from boardlab.cli.main import main


def error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one ``boardlab: error:`` line that ``boardlab ARGV`` prints, after checking its shape."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith("boardlab: error: ")
    assert err.count("\n") == 1
    return err

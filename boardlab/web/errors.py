"""The one error the web app answers with: an HTTP status and one sentence for people."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: ``status`` (400, 403, 404, 409, 413, 422) and a one-sentence message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

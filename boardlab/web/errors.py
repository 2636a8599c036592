"""The one error the web app answers with: an HTTP status and one sentence for people."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: ``status`` (400, 403, 404, 408, 409, 410, 413, 422, 429) and a
    one-sentence message, with extra response ``headers`` (such as ``Retry-After``)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

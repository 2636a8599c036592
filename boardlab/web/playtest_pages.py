"""The playtests' pages (static files that read the API) and the form's defaults."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from boardlab.web.playtest import DEFAULT_QUESTIONS, MAX_QUESTIONS, MAX_VARIANTS

STATIC = Path(__file__).parent / "static"


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, media_type="text/html")


async def new_page(request: Request) -> Response:
    """``GET /playtests/new``: the designer's form."""
    return _page("playtest-new.html")


async def playtest_page(request: Request) -> Response:
    """``GET /playtest/<id>``: the page a playtester opens from the shared link."""
    return _page("playtest.html")


async def dashboard_page(request: Request) -> Response:
    """``GET /playtest/<id>/dashboard``: the designer's dashboard (its token is in the
    address's fragment, which never reaches the server)."""
    return _page("playtest-dashboard.html")


async def get_defaults(request: Request) -> Response:
    """``GET /api/playtests/new``: what the form starts from."""
    return JSONResponse(
        {
            "questions": list(DEFAULT_QUESTIONS),
            "max_questions": MAX_QUESTIONS,
            "max_variants": MAX_VARIANTS,
        }
    )

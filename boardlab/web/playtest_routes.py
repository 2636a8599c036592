"""Every route of the playtests, which ``app.py`` lists with its own."""

from __future__ import annotations

from starlette.routing import Route

from boardlab.web import playtest_api as api
from boardlab.web import playtest_dashboard as dashboard
from boardlab.web import playtest_pages as pages

PLAYTEST = "/api/playtests/{playtest_id}"
PLAYTEST_ROUTES = [
    Route("/playtests/new", pages.new_page),
    Route("/playtest/{playtest_id}", pages.playtest_page),
    Route("/playtest/{playtest_id}/dashboard", pages.dashboard_page),
    Route("/api/playtests", api.post_playtest, methods=["POST"]),
    Route("/api/playtests", api.get_mine, methods=["GET"]),
    Route("/api/playtests/new", pages.get_defaults),
    Route(PLAYTEST, api.get_playtest),
    Route(f"{PLAYTEST}/join", api.post_join, methods=["POST"]),
    Route(f"{PLAYTEST}/matches/{{match_id}}", api.get_open),
    Route(f"{PLAYTEST}/matches/{{match_id}}/survey", api.get_survey, methods=["GET"]),
    Route(f"{PLAYTEST}/matches/{{match_id}}/survey", api.post_survey, methods=["POST"]),
    Route(f"{PLAYTEST}/dashboard", dashboard.get_dashboard),
    Route(f"{PLAYTEST}/bots", dashboard.post_bots, methods=["POST"]),
    Route(f"{PLAYTEST}/answers.csv", dashboard.get_answers_csv),
    Route(f"{PLAYTEST}/games.csv", dashboard.get_games_csv),
    Route(f"{PLAYTEST}/export.json", dashboard.get_json),
    Route(f"{PLAYTEST}/records.zip", dashboard.get_records),
    Route(f"{PLAYTEST}/report.html", dashboard.get_report_html),
    Route(f"{PLAYTEST}/report.png", dashboard.get_report_png),
]

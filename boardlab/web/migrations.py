"""The stores' schema as numbered steps, each written for both backends and applied in order.

A store records every step it has applied in its ``schema_migrations`` table, in the same
transaction as the step's changes, and applies the steps it lacks when it is opened (so a
server migrates its own database at start, and ``boardlab db migrate`` does it by hand). To
change the schema, append a step here with its SQLite and its PostgreSQL statements, teach
``boardlab db copy`` its new columns (``boardlab/web/store_copy.py``: a test compares them) and
never edit a step that has shipped. A store whose schema is newer than the last step this code
knows (written by a newer Boardlab) is refused rather than misread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Backend = Literal["sqlite", "postgres"]
Run = Callable[[str, Sequence[Any]], list[Any]]
"""Runs one statement (``?`` placeholders) with its parameters in the caller's transaction, and
returns the rows it gives (none for most)."""

VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)"
)


class SchemaTooNew(Exception):
    """The store was migrated by a newer Boardlab: this one does not know its schema."""


@dataclass(frozen=True)
class Migration:
    """Step ``version`` of the schema: what it does in words and its statements per backend."""

    version: int
    name: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]

    def statements(self, backend: Backend) -> tuple[str, ...]:
        """This step's statements for ``backend``."""
        return self.sqlite if backend == "sqlite" else self.postgres


# Times and ids are text in ISO 8601 (or fixed-width ids): PostgreSQL compares them by bytes
# (COLLATE "C"), as SQLite does, so both order the lobby alike whatever the cluster's locale.
MIGRATIONS = (
    Migration(
        1,
        "matches, their events and the matches set aside",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, "
            "config TEXT NOT NULL, created TEXT NOT NULL, status TEXT NOT NULL, result TEXT, "
            "plies INTEGER NOT NULL, updated TEXT NOT NULL, deadline TEXT, to_move INTEGER)",
            "CREATE INDEX IF NOT EXISTS matches_by_update ON matches (updated DESC)",
            "CREATE TABLE IF NOT EXISTS events (match_id TEXT NOT NULL REFERENCES matches (id), "
            "idx INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER NOT NULL, "
            "text TEXT NOT NULL, at TEXT NOT NULL DEFAULT '', PRIMARY KEY (match_id, idx))",
            "CREATE TABLE IF NOT EXISTS set_aside (match_id TEXT PRIMARY KEY, "
            "reason TEXT NOT NULL, since TEXT NOT NULL)",
        ),
        postgres=(
            'CREATE TABLE matches (id TEXT COLLATE "C" PRIMARY KEY, game TEXT NOT NULL, '
            'config TEXT NOT NULL, created TEXT COLLATE "C" NOT NULL, status TEXT NOT NULL, '
            'result TEXT, plies INTEGER NOT NULL, updated TEXT COLLATE "C" NOT NULL, '
            "deadline TEXT, to_move INTEGER)",
            "CREATE INDEX matches_by_update ON matches (updated DESC, created DESC)",
            'CREATE TABLE events (match_id TEXT COLLATE "C" NOT NULL REFERENCES matches (id), '
            "idx INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER NOT NULL, "
            "text TEXT NOT NULL, at TEXT NOT NULL DEFAULT '', PRIMARY KEY (match_id, idx))",
            'CREATE TABLE set_aside (match_id TEXT COLLATE "C" PRIMARY KEY, '
            'reason TEXT NOT NULL, since TEXT COLLATE "C" NOT NULL)',
        ),
    ),
    Migration(
        2,
        "accounts, their sessions and the seats they hold",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
            "name_key TEXT NOT NULL UNIQUE, password TEXT NOT NULL, created TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS account_sessions (hash TEXT PRIMARY KEY, "
            "account_id TEXT NOT NULL REFERENCES accounts (id), created TEXT NOT NULL, "
            "seen TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS account_sessions_by_account "
            "ON account_sessions (account_id)",
            "CREATE TABLE IF NOT EXISTS account_seats ("
            "account_id TEXT NOT NULL REFERENCES accounts (id), "
            "match_id TEXT NOT NULL REFERENCES matches (id), seat INTEGER NOT NULL, "
            "PRIMARY KEY (match_id, seat))",
            "CREATE INDEX IF NOT EXISTS account_seats_by_account ON account_seats (account_id)",
        ),
        postgres=(
            'CREATE TABLE accounts (id TEXT COLLATE "C" PRIMARY KEY, name TEXT NOT NULL, '
            'name_key TEXT COLLATE "C" NOT NULL UNIQUE, password TEXT NOT NULL, '
            'created TEXT COLLATE "C" NOT NULL)',
            'CREATE TABLE account_sessions (hash TEXT COLLATE "C" PRIMARY KEY, '
            'account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id), '
            'created TEXT COLLATE "C" NOT NULL, seen TEXT COLLATE "C" NOT NULL)',
            "CREATE INDEX account_sessions_by_account ON account_sessions (account_id)",
            'CREATE TABLE account_seats (account_id TEXT COLLATE "C" NOT NULL '
            'REFERENCES accounts (id), match_id TEXT COLLATE "C" NOT NULL '
            "REFERENCES matches (id), seat INTEGER NOT NULL, PRIMARY KEY (match_id, seat))",
            "CREATE INDEX account_seats_by_account ON account_seats (account_id)",
        ),
    ),
    Migration(
        3,
        "each match's chat, and the matches whose spectators' chat the players turned off",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS chat (match_id TEXT NOT NULL REFERENCES matches (id), "
            "idx INTEGER NOT NULL, channel TEXT NOT NULL, seat INTEGER, name TEXT NOT NULL, "
            "text TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (match_id, idx))",
            "CREATE TABLE IF NOT EXISTS chat_closed (match_id TEXT PRIMARY KEY "
            "REFERENCES matches (id), seat INTEGER NOT NULL, since TEXT NOT NULL)",
        ),
        postgres=(
            'CREATE TABLE chat (match_id TEXT COLLATE "C" NOT NULL REFERENCES matches (id), '
            "idx INTEGER NOT NULL, channel TEXT NOT NULL, seat INTEGER, name TEXT NOT NULL, "
            'text TEXT NOT NULL, at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (match_id, idx))',
            'CREATE TABLE chat_closed (match_id TEXT COLLATE "C" PRIMARY KEY '
            'REFERENCES matches (id), seat INTEGER NOT NULL, since TEXT COLLATE "C" NOT NULL)',
        ),
    ),
    Migration(
        4,
        "human ratings, their history, and the archive of finished and imported games",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS ratings (account_id TEXT NOT NULL, game TEXT NOT NULL, "
            "speed TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, "
            "games INTEGER NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (account_id, game, speed))",
            "CREATE TABLE IF NOT EXISTS rating_changes (account_id TEXT NOT NULL, "
            "match_id TEXT NOT NULL, game TEXT NOT NULL, speed TEXT NOT NULL, at TEXT NOT NULL, "
            "mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, "
            "PRIMARY KEY (account_id, match_id))",
            "CREATE INDEX IF NOT EXISTS rating_changes_by_time ON rating_changes (account_id, at)",
            "CREATE TABLE IF NOT EXISTS rated_matches (match_id TEXT PRIMARY KEY, "
            "at TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS archive_games (id TEXT PRIMARY KEY, game TEXT NOT NULL, "
            "ended TEXT NOT NULL, result TEXT NOT NULL, clock TEXT NOT NULL, "
            "rated INTEGER NOT NULL, plies INTEGER NOT NULL, imported_by TEXT, record TEXT)",
            "CREATE INDEX IF NOT EXISTS archive_games_by_end ON archive_games (ended, id)",
            "CREATE INDEX IF NOT EXISTS archive_games_by_game ON archive_games (game, ended, id)",
            "CREATE TABLE IF NOT EXISTS archive_players (game_id TEXT NOT NULL "
            "REFERENCES archive_games (id), seat INTEGER NOT NULL, account_id TEXT, "
            "player TEXT NOT NULL, result TEXT NOT NULL, ended TEXT NOT NULL, "
            "PRIMARY KEY (game_id, seat))",
            "CREATE INDEX IF NOT EXISTS archive_players_by_account "
            "ON archive_players (account_id, ended, game_id)",
            "CREATE TABLE IF NOT EXISTS archive_options (game_id TEXT NOT NULL "
            "REFERENCES archive_games (id), key TEXT NOT NULL, value TEXT NOT NULL, "
            "PRIMARY KEY (game_id, key))",
            "CREATE INDEX IF NOT EXISTS archive_options_by_value "
            "ON archive_options (key, value, game_id)",
        ),
        postgres=(
            'CREATE TABLE ratings (account_id TEXT COLLATE "C" NOT NULL, game TEXT NOT NULL, '
            "speed TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, "
            'games INTEGER NOT NULL, updated TEXT COLLATE "C" NOT NULL, '
            "PRIMARY KEY (account_id, game, speed))",
            'CREATE TABLE rating_changes (account_id TEXT COLLATE "C" NOT NULL, '
            'match_id TEXT COLLATE "C" NOT NULL, game TEXT NOT NULL, speed TEXT NOT NULL, '
            'at TEXT COLLATE "C" NOT NULL, mu DOUBLE PRECISION NOT NULL, '
            "sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, "
            "PRIMARY KEY (account_id, match_id))",
            "CREATE INDEX rating_changes_by_time ON rating_changes (account_id, at)",
            'CREATE TABLE rated_matches (match_id TEXT COLLATE "C" PRIMARY KEY, '
            'at TEXT COLLATE "C" NOT NULL)',
            'CREATE TABLE archive_games (id TEXT COLLATE "C" PRIMARY KEY, '
            'game TEXT COLLATE "C" NOT NULL, ended TEXT COLLATE "C" NOT NULL, '
            "result TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL, "
            "plies INTEGER NOT NULL, imported_by TEXT, record TEXT)",
            "CREATE INDEX archive_games_by_end ON archive_games (ended, id)",
            "CREATE INDEX archive_games_by_game ON archive_games (game, ended, id)",
            'CREATE TABLE archive_players (game_id TEXT COLLATE "C" NOT NULL '
            "REFERENCES archive_games (id), seat INTEGER NOT NULL, "
            'account_id TEXT COLLATE "C", player TEXT NOT NULL, result TEXT NOT NULL, '
            'ended TEXT COLLATE "C" NOT NULL, PRIMARY KEY (game_id, seat))',
            "CREATE INDEX archive_players_by_account "
            "ON archive_players (account_id, ended, game_id)",
            'CREATE TABLE archive_options (game_id TEXT COLLATE "C" NOT NULL '
            'REFERENCES archive_games (id), key TEXT COLLATE "C" NOT NULL, '
            'value TEXT COLLATE "C" NOT NULL, PRIMARY KEY (game_id, key))',
            "CREATE INDEX archive_options_by_value ON archive_options (key, value, game_id)",
        ),
    ),
    Migration(
        5,
        "playtests: their matches and variants, open seats, survey answers, refused turns, "
        "bot self-play",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS playtests (id TEXT PRIMARY KEY, game TEXT NOT NULL, "
            "settings TEXT NOT NULL, token_hash TEXT NOT NULL, account_id TEXT, "
            "created TEXT NOT NULL, ends TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS playtests_by_account ON playtests (account_id)",
            "CREATE TABLE IF NOT EXISTS playtest_matches (match_id TEXT PRIMARY KEY "
            "REFERENCES matches (id), playtest_id TEXT NOT NULL REFERENCES playtests (id), "
            "variant INTEGER NOT NULL, created TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS playtest_matches_by_playtest "
            "ON playtest_matches (playtest_id)",
            "CREATE TABLE IF NOT EXISTS playtest_waiting (match_id TEXT NOT NULL "
            "REFERENCES matches (id), seat INTEGER NOT NULL, playtest_id TEXT NOT NULL "
            "REFERENCES playtests (id), since TEXT NOT NULL, PRIMARY KEY (match_id, seat))",
            "CREATE TABLE IF NOT EXISTS playtest_answers (match_id TEXT NOT NULL "
            "REFERENCES matches (id), seat INTEGER NOT NULL, playtest_id TEXT NOT NULL "
            "REFERENCES playtests (id), scores TEXT NOT NULL, text TEXT NOT NULL, "
            "at TEXT NOT NULL, PRIMARY KEY (match_id, seat))",
            "CREATE TABLE IF NOT EXISTS playtest_refusals (match_id TEXT NOT NULL "
            "REFERENCES matches (id), idx INTEGER NOT NULL, seat INTEGER NOT NULL, "
            "ply INTEGER NOT NULL, turn TEXT NOT NULL, reason TEXT NOT NULL, at TEXT NOT NULL, "
            "PRIMARY KEY (match_id, idx))",
            "CREATE TABLE IF NOT EXISTS playtest_bots (playtest_id TEXT NOT NULL "
            "REFERENCES playtests (id), variant INTEGER NOT NULL, result TEXT NOT NULL, "
            "at TEXT NOT NULL, PRIMARY KEY (playtest_id, variant))",
        ),
        postgres=(
            'CREATE TABLE playtests (id TEXT COLLATE "C" PRIMARY KEY, game TEXT NOT NULL, '
            'settings TEXT NOT NULL, token_hash TEXT NOT NULL, account_id TEXT COLLATE "C", '
            'created TEXT COLLATE "C" NOT NULL, ends TEXT COLLATE "C" NOT NULL)',
            "CREATE INDEX playtests_by_account ON playtests (account_id)",
            'CREATE TABLE playtest_matches (match_id TEXT COLLATE "C" PRIMARY KEY '
            'REFERENCES matches (id), playtest_id TEXT COLLATE "C" NOT NULL '
            'REFERENCES playtests (id), variant INTEGER NOT NULL, created TEXT COLLATE "C" '
            "NOT NULL)",
            "CREATE INDEX playtest_matches_by_playtest ON playtest_matches (playtest_id)",
            'CREATE TABLE playtest_waiting (match_id TEXT COLLATE "C" NOT NULL '
            'REFERENCES matches (id), seat INTEGER NOT NULL, playtest_id TEXT COLLATE "C" '
            'NOT NULL REFERENCES playtests (id), since TEXT COLLATE "C" NOT NULL, '
            "PRIMARY KEY (match_id, seat))",
            'CREATE TABLE playtest_answers (match_id TEXT COLLATE "C" NOT NULL '
            'REFERENCES matches (id), seat INTEGER NOT NULL, playtest_id TEXT COLLATE "C" '
            "NOT NULL REFERENCES playtests (id), scores TEXT NOT NULL, text TEXT NOT NULL, "
            'at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (match_id, seat))',
            'CREATE TABLE playtest_refusals (match_id TEXT COLLATE "C" NOT NULL '
            "REFERENCES matches (id), idx INTEGER NOT NULL, seat INTEGER NOT NULL, "
            "ply INTEGER NOT NULL, turn TEXT NOT NULL, reason TEXT NOT NULL, "
            'at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (match_id, idx))',
            'CREATE TABLE playtest_bots (playtest_id TEXT COLLATE "C" NOT NULL '
            "REFERENCES playtests (id), variant INTEGER NOT NULL, result TEXT NOT NULL, "
            'at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (playtest_id, variant))',
        ),
    ),
    Migration(
        6,
        "the lobby's open seeks, and accounts' e-mail notification settings",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS seeks (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, "
            "account_id TEXT, address TEXT NOT NULL, name TEXT NOT NULL, game TEXT NOT NULL, "
            "options TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL, "
            "min_rating INTEGER, max_rating INTEGER, created TEXT NOT NULL, seen TEXT NOT NULL, "
            "match_id TEXT, seat INTEGER)",
            "CREATE INDEX IF NOT EXISTS seeks_by_token ON seeks (token_hash)",
            "CREATE TABLE IF NOT EXISTS notify_settings (account_id TEXT PRIMARY KEY, "
            "address TEXT NOT NULL, enabled INTEGER NOT NULL, unsubscribe TEXT NOT NULL UNIQUE, "
            "updated TEXT NOT NULL)",
        ),
        postgres=(
            'CREATE TABLE seeks (id TEXT COLLATE "C" PRIMARY KEY, token_hash TEXT NOT NULL, '
            'account_id TEXT COLLATE "C", address TEXT NOT NULL, name TEXT NOT NULL, '
            "game TEXT NOT NULL, options TEXT NOT NULL, clock TEXT NOT NULL, "
            "rated INTEGER NOT NULL, min_rating INTEGER, max_rating INTEGER, "
            'created TEXT COLLATE "C" NOT NULL, seen TEXT COLLATE "C" NOT NULL, '
            'match_id TEXT COLLATE "C", seat INTEGER)',
            "CREATE INDEX seeks_by_token ON seeks (token_hash)",
            'CREATE TABLE notify_settings (account_id TEXT COLLATE "C" PRIMARY KEY, '
            "address TEXT NOT NULL, enabled INTEGER NOT NULL, "
            'unsubscribe TEXT COLLATE "C" NOT NULL UNIQUE, updated TEXT COLLATE "C" NOT NULL)',
        ),
    ),
    Migration(
        7,
        "leases of bot turns, and telling other server processes of each change (PostgreSQL)",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS bot_leases (match_id TEXT PRIMARY KEY "
            "REFERENCES matches (id), version INTEGER NOT NULL, holder TEXT NOT NULL, "
            "expires TEXT NOT NULL)",
        ),
        postgres=(
            'CREATE TABLE bot_leases (match_id TEXT COLLATE "C" PRIMARY KEY '
            "REFERENCES matches (id), version INTEGER NOT NULL, holder TEXT NOT NULL, "
            'expires TEXT COLLATE "C" NOT NULL)',
            "CREATE INDEX matches_by_deadline ON matches (deadline) WHERE status = 'active'",
            # NOTIFY in the writing transaction: delivered exactly when (and if) it commits.
            "CREATE FUNCTION boardlab_told() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF TG_TABLE_NAME = 'events' THEN "
            "PERFORM pg_notify('boardlab_changes', NEW.match_id || ' ' || NEW.idx); "
            "ELSE PERFORM pg_notify('boardlab_changes', NEW.id || ' -1'); END IF; "
            "RETURN NULL; END $$",
            "CREATE TRIGGER events_told AFTER INSERT ON events FOR EACH ROW "
            "EXECUTE FUNCTION boardlab_told()",
            "CREATE TRIGGER seats_told AFTER UPDATE OF config ON matches FOR EACH ROW "
            "WHEN (OLD.config IS DISTINCT FROM NEW.config) EXECUTE FUNCTION boardlab_told()",
        ),
    ),
    Migration(
        8,
        "telling other server processes of each chat line, and of the spectators' chat turned "
        "off or on (PostgreSQL)",
        sqlite=(),
        postgres=(
            # As step 7: told in the writing transaction, so exactly when (and if) it commits.
            "CREATE FUNCTION boardlab_chat_told() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF TG_TABLE_NAME = 'chat' THEN "
            "PERFORM pg_notify('boardlab_chat', NEW.match_id || ' ' || NEW.idx); "
            "ELSIF TG_OP = 'DELETE' THEN "
            "PERFORM pg_notify('boardlab_chat', OLD.match_id || ' -1'); "
            "ELSE PERFORM pg_notify('boardlab_chat', NEW.match_id || ' -1'); END IF; "
            "RETURN NULL; END $$",
            "CREATE TRIGGER chat_told AFTER INSERT ON chat FOR EACH ROW "
            "EXECUTE FUNCTION boardlab_chat_told()",
            "CREATE TRIGGER chat_closed_told AFTER INSERT OR DELETE ON chat_closed FOR EACH ROW "
            "EXECUTE FUNCTION boardlab_chat_told()",
        ),
    ),
    Migration(
        9,
        "seeks for three to five seats: the seats a seek has, and who has joined it",
        sqlite=(
            "ALTER TABLE seeks ADD COLUMN seats INTEGER NOT NULL DEFAULT 2",
            "ALTER TABLE seeks ADD COLUMN joined INTEGER NOT NULL DEFAULT 0",
            "CREATE TABLE IF NOT EXISTS seek_joins (seek_id TEXT NOT NULL REFERENCES seeks (id), "
            "token_hash TEXT NOT NULL, account_id TEXT, address TEXT NOT NULL, "
            "name TEXT NOT NULL, joined TEXT NOT NULL, seen TEXT NOT NULL, seat INTEGER, "
            "PRIMARY KEY (seek_id, token_hash))",
            "CREATE INDEX IF NOT EXISTS seek_joins_by_token ON seek_joins (token_hash)",
        ),
        postgres=(
            "ALTER TABLE seeks ADD COLUMN seats INTEGER NOT NULL DEFAULT 2",
            "ALTER TABLE seeks ADD COLUMN joined INTEGER NOT NULL DEFAULT 0",
            'CREATE TABLE seek_joins (seek_id TEXT COLLATE "C" NOT NULL REFERENCES seeks (id), '
            'token_hash TEXT COLLATE "C" NOT NULL, account_id TEXT COLLATE "C", '
            'address TEXT NOT NULL, name TEXT NOT NULL, joined TEXT COLLATE "C" NOT NULL, '
            'seen TEXT COLLATE "C" NOT NULL, seat INTEGER, PRIMARY KEY (seek_id, token_hash))',
            "CREATE INDEX seek_joins_by_token ON seek_joins (token_hash)",
        ),
    ),
    Migration(
        10,
        "the match pages open on each server process, for e-mail notifications (PostgreSQL)",
        sqlite=(
            "CREATE TABLE IF NOT EXISTS open_pages (match_id TEXT NOT NULL, "
            "account_id TEXT NOT NULL, holder TEXT NOT NULL, seen TEXT NOT NULL, "
            "PRIMARY KEY (match_id, account_id, holder))",
            "CREATE INDEX IF NOT EXISTS open_pages_by_holder ON open_pages (holder)",
        ),
        postgres=(
            'CREATE TABLE open_pages (match_id TEXT COLLATE "C" NOT NULL, '
            'account_id TEXT COLLATE "C" NOT NULL, holder TEXT COLLATE "C" NOT NULL, '
            'seen TEXT COLLATE "C" NOT NULL, PRIMARY KEY (match_id, account_id, holder))',
            "CREATE INDEX open_pages_by_holder ON open_pages (holder)",
        ),
    ),
)
LATEST = MIGRATIONS[-1].version


def migrate(
    run: Run, backend: Backend, when: str, known: Sequence[Migration] = MIGRATIONS
) -> tuple[Migration, ...]:
    """Apply the steps of ``known`` the store lacks, in order, in the caller's transaction,
    recording each as applied at ``when``; returns them (none when the store is up to date).
    A step is applied if it is not recorded, even below one that is (steps that landed out of
    their numbers' order). Raises SchemaTooNew for a store migrated beyond :data:`LATEST`."""
    run(VERSION_TABLE, ())
    applied = {int(version) for (version,) in run("SELECT version FROM schema_migrations", ())}
    current = max(applied, default=0)
    if current > LATEST:
        raise SchemaTooNew(
            f"its schema is version {current}, newer than this Boardlab knows ({LATEST}); "
            "upgrade Boardlab to use it"
        )
    steps = tuple(step for step in known if step.version not in applied)
    for step in steps:
        for statement in step.statements(backend):
            run(statement, ())
        run(
            "INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)",
            (step.version, step.name, when),
        )
    return steps

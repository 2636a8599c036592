"""Seat tokens and match ids: random secrets, stored only as SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence

TOKEN_BYTES = 32
MAX_TOKEN_CHARS = 64
"""Longer than any token we issue (43 characters); longer strings are refused unread."""


def new_token() -> str:
    """A fresh seat token: 32 random bytes, base64url without padding."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_match_id() -> str:
    """A fresh match id: 16 random URL-safe characters."""
    return secrets.token_urlsafe(12)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def seats_held(tokens: Iterable[str], hashes: Sequence[str | None]) -> frozenset[int]:
    """The seats whose stored hash matches one of ``tokens`` (bot seats have no hash)."""
    return seats_of([token_hash(token) for token in tokens], hashes)


def seats_of(digests: Iterable[str], hashes: Sequence[str | None]) -> frozenset[int]:
    """The seats whose stored hash is one of ``digests`` (the tokens' :func:`token_hash`)."""
    held: set[int] = set()
    for digest in digests:
        for seat, stored in enumerate(hashes):
            # Every stored hash is compared, so timing does not tell which seat came close.
            if stored is not None and hmac.compare_digest(digest, stored):
                held.add(seat)
    return frozenset(held)

"""Murus Gallicus: Romans and Gauls build walls and towers to break through (rules spec)."""

from boardlab.games.murus_gallicus.game import MurusGallicus

__all__ = ["MurusGallicus"]

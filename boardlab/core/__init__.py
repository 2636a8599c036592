"""The game protocol shared by every game, and the machinery built on it."""

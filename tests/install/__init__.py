"""Tests of the README's installs: fresh venvs used as a new user would."""

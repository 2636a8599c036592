"""The ``boardlab`` command line."""

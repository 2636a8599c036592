"""One subpackage per game; each registers in :mod:`boardlab.core.registry`."""

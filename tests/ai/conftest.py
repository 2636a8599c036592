"""Make the toy games of this folder importable by the tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

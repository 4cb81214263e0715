"""Collection rules for the whole tree (the tests and the doctests in ``src``).

Where the engine is compiled, Python imports ``openhearts.deal`` and ``openhearts.game``
from their compiled modules, which keep no docstrings: their doctests are run on the
source instead, by ``tests/test_compiled_engine.py``.
"""

from __future__ import annotations

from pathlib import Path

import openhearts
from openhearts import _engine

collect_ignore = (
    [str(Path("src", *name.split(".")).with_suffix(".py")) for name in _engine.COMPILED_MODULES]
    if openhearts.ENGINE_COMPILED
    else []
)

"""Where OpenHearts keeps a user's files: settings, statistics, saved games, the web database.

``OPENHEARTS_HOME`` puts everything in one directory of your choice (tests use it);
otherwise the platform's usual config and data directories are used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

HOME_VARIABLE: Final = "OPENHEARTS_HOME"


def _home() -> Path | None:
    home = os.environ.get(HOME_VARIABLE)
    return Path(home).expanduser() if home else None


def data_dir() -> Path:
    """Saved games, statistics and the web game's SQLite database."""
    import platformdirs

    return _home() or Path(platformdirs.user_data_dir("openhearts"))


def config_dir() -> Path:
    """Settings of the terminal game."""
    import platformdirs

    return _home() or Path(platformdirs.user_config_dir("openhearts"))

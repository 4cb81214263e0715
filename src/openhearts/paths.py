"""Where OpenHearts keeps a user's files: settings, statistics, saved games, the web database.

``OPENHEARTS_HOME`` puts everything in one directory of your choice (tests use it);
otherwise the platform's usual directories are used, found with the standard library
alone so that the engine installs with no dependency: ``$XDG_DATA_HOME`` and
``$XDG_CONFIG_HOME`` (``~/.local/share`` and ``~/.config``) on Linux and other Unixes,
``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final

HOME_VARIABLE: Final = "OPENHEARTS_HOME"
APP: Final = "openhearts"


def _home() -> Path | None:
    home = os.environ.get(HOME_VARIABLE)
    return Path(home).expanduser() if home else None


def _platform_dir(xdg_variable: str, xdg_default: str) -> Path:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / APP / APP
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    # XDG says a relative path in the variable is invalid and must be ignored.
    base = os.environ.get(xdg_variable, "")
    if not os.path.isabs(base):
        base = str(Path.home() / xdg_default)
    return Path(base) / APP


def data_dir() -> Path:
    """Saved games, statistics and the web game's SQLite database."""
    return _home() or _platform_dir("XDG_DATA_HOME", ".local/share")


def config_dir() -> Path:
    """Settings of the terminal game."""
    return _home() or _platform_dir("XDG_CONFIG_HOME", ".config")

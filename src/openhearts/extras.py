"""Which optional part of OpenHearts (a pip *extra*) a missing third-party module belongs to.

The engine, records, bots, the arena and the plain game need only Python; the faces and
services come with extras.  When one is missing, the command says in one line what to
install instead of printing a traceback.

>>> missing_extra_message(ModuleNotFoundError("No module named 'textual'", name="textual"))
"the terminal game's packages are not installed: pip install 'openhearts[tui]' (textual is missing)"
>>> missing_extra_message(ModuleNotFoundError("No module named 'nothing'", name="nothing")) is None
True
"""

from __future__ import annotations

from typing import Final

#: Top-level module -> (extra, what it brings, as the subject of a sentence).
EXTRA_OF_MODULE: Final[dict[str, tuple[str, str]]] = {
    "textual": ("tui", "the terminal game's packages are"),
    "rich": ("tui", "the terminal game's packages are"),
    "starlette": ("web", "the web game's packages are"),
    "uvicorn": ("web", "the web game's packages are"),
    "sqlalchemy": ("web", "the web game's packages are"),
    "pydantic": ("web", "the web game's packages are"),
    "psycopg": ("postgres", "the PostgreSQL driver is"),
    "numpy": ("rl", "the learning environments' packages are"),
    "pettingzoo": ("rl", "the learning environments' packages are"),
    "gymnasium": ("rl", "the learning environments' packages are"),
    "pyspiel": ("openspiel", "OpenSpiel is"),
    "open_spiel": ("openspiel", "OpenSpiel is"),
    "ray": ("ray", "Ray is"),
    "sphinx": ("docs", "the documentation builder is"),
}


def explained(error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The same error, saying which extra to install (for a module of the library that
    needs one, imported from Python rather than run as a command).

    >>> str(explained(ModuleNotFoundError("No module named 'ray'", name="ray")))
    "Ray is not installed: pip install 'openhearts[ray]' (ray is missing)"
    """
    message = missing_extra_message(error)
    if message is None:
        return error
    return ModuleNotFoundError(message, name=error.name, path=error.path)


def missing_extra_message(error: ImportError) -> str | None:
    """One line naming the extra to install, or None when the module is not one of ours."""
    top = (error.name or "").partition(".")[0]
    if top not in EXTRA_OF_MODULE:
        return None
    extra, what = EXTRA_OF_MODULE[top]
    return f"{what} not installed: pip install 'openhearts[{extra}]' ({top} is missing)"

"""Which engine runs: the compiled one (``deal`` and ``game`` built by mypyc) or the
pure-Python reference from the same source.

An install with a C compiler compiles :mod:`openhearts.deal` and :mod:`openhearts.game`
with mypyc (``setup.py``); Python then imports the compiled modules in place of the
``.py`` files beside them.  ``OPENHEARTS_KERNEL=python`` in the environment makes
:func:`choose` load those two modules from their source instead (and the playout kernel
run its reference too): the pure-Python engine that the compiled one is tested against.
Without the compiled modules, :func:`notice` warns once that the slower engine is in use.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules the build compiles with mypyc.
COMPILED_MODULES = ("openhearts.deal", "openhearts.game")


def reference_requested() -> bool:
    """Whether the environment asks for the pure-Python reference everywhere."""
    return os.environ.get("OPENHEARTS_KERNEL") == "python"


class SourceFinder:
    """Finds :data:`COMPILED_MODULES` as their ``.py`` source, ahead of the compiled
    modules that Python's own finder would prefer."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in COMPILED_MODULES:
            return None
        source = Path(__file__).with_name(name.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(name, source)


def choose() -> None:
    """Load the reference engine when it is asked for (done when this module is imported,
    which the package does before anything else)."""
    if reference_requested() and not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension, not from source."""
    return not str(getattr(module, "__file__", "") or "").endswith(".py")


def notice(modules: Sequence[ModuleType]) -> bool:
    """Warns once when the engine runs from source without being asked to; returns
    whether every module is compiled."""
    compiled = all(is_compiled(module) for module in modules)
    if not compiled and not reference_requested():
        warnings.warn(
            "openhearts: the compiled engine is missing; games run on the slower "
            "pure-Python engine (reinstall with a C compiler to build it)",
            RuntimeWarning,
            stacklevel=3,
        )
    return compiled


choose()

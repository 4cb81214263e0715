"""Which engine runs: the compiled one (``deal`` and ``game`` built by mypyc) or the
pure-Python reference from the same source.

An install with a C compiler compiles :mod:`openhearts.deal` and :mod:`openhearts.game`
with mypyc (``setup.py``); Python then imports the compiled modules in place of the
``.py`` files beside them.  ``OPENHEARTS_KERNEL=python`` in the environment makes
:func:`choose` load those two modules from their source instead (and the playout kernel
run its reference too): the pure-Python engine that the compiled one is tested against.
Without the compiled modules, :func:`notice` warns once that the slower engine is in use;
compiled modules older than their source (edited since the build) are passed over for the
source, with a warning.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
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


def stale_modules() -> list[str]:
    """Compiled modules older than their source: edited (or checked out again) since the
    last build, so the compiled code is not what the source says.  Only in a checkout
    (``src/openhearts`` beside ``pyproject.toml``): an installed package's files all
    date from its installation, in whatever order they were written."""
    folder = Path(__file__).parent
    if folder.parent.name != "src" or not (folder.parent.parent / "pyproject.toml").exists():
        return []
    stale = []
    for name in COMPILED_MODULES:
        stem = name.rpartition(".")[2]
        source = folder / f"{stem}.py"
        for suffix in EXTENSION_SUFFIXES:
            compiled = folder / f"{stem}{suffix}"
            if (
                compiled.exists()
                and source.exists()
                and source.stat().st_mtime > compiled.stat().st_mtime + 1
            ):
                stale.append(f"{stem}.py")
                break
    return stale


def choose() -> None:
    """Load the engine from source when the reference is asked for, or when a compiled
    module is older than its source (with a warning: ``pip install -e .`` rebuilds it).
    Done when this module is imported, which the package does before anything else."""
    if source_chosen():
        return
    if reference_requested():
        sys.meta_path.insert(0, SourceFinder())
        return
    stale = stale_modules()
    if stale:
        warnings.warn(
            f"openhearts: {', '.join(stale)} changed since the engine was compiled; running "
            "the engine from source (pip install -e . compiles it again)",
            RuntimeWarning,
            stacklevel=2,
        )
        sys.meta_path.insert(0, SourceFinder())


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension, not from source."""
    return not str(getattr(module, "__file__", "") or "").endswith(".py")


def source_chosen() -> bool:
    """Whether :func:`choose` has put the engine's source first (asked for, or stale)."""
    return any(isinstance(finder, SourceFinder) for finder in sys.meta_path)


def notice(modules: Sequence[ModuleType]) -> bool:
    """Warns once when the engine runs from source without being asked to; returns
    whether every module is compiled."""
    compiled = all(is_compiled(module) for module in modules)
    # Running from source on purpose (asked for, or stale and said so) needs no notice.
    if not compiled and not source_chosen():
        warnings.warn(
            "openhearts: the compiled engine is missing; games run on the slower "
            "pure-Python engine (reinstall with a C compiler to build it)",
            RuntimeWarning,
            stacklevel=3,
        )
    return compiled


choose()

"""Builds the optional compiled parts: the playout kernel (``openhearts._kernel``, C), the
deal's shuffle (``openhearts._shuffle``, C) and
the engine's state machine (``openhearts.deal`` and ``openhearts.game``, the same Python
source compiled by mypyc).

Everything else about the package is in pyproject.toml.  A failed compile (no C compiler,
no Python headers, no mypyc) does not fail the install: the package then runs on its
pure-Python engine, which is the reference the compiled parts are tested against, and says
so once at run time.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """``build_ext`` that reports a failed compile and carries on without the kernel."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any build failure means "no compiled part"
            self._skip(error, "the compiled parts")

    #: Set when part of the compiled engine failed: its other modules are then skipped
    #: too, since a module compiled without its shared library would not import.
    engine_failed = False

    def build_extension(self, ext: Extension) -> None:
        engine = ext.name.startswith(("openhearts._engine", "openhearts.deal", "openhearts.game"))
        if engine and self.engine_failed:
            return
        try:
            super().build_extension(ext)
        except Exception as error:
            self.engine_failed = self.engine_failed or engine
            self._skip(error, ext.name)

    @staticmethod
    def _skip(error: BaseException, what: str) -> None:
        print(
            f"openhearts: {what} not built ({error}); the pure-Python engine will be used instead",
            file=sys.stderr,
        )


#: The engine modules compiled by mypyc: what the checked ``Game`` API runs per card.
ENGINE_SOURCES = ["src/openhearts/deal.py", "src/openhearts/game.py"]


def engine_extensions() -> list[Extension]:
    """The mypyc-compiled engine, or nothing (with a notice) where mypyc cannot build it."""
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        OptionalBuildExt._skip(error, "the compiled engine (mypyc is missing)")
        return []
    try:
        # One group, named inside the package, so that its shared library installs there
        # and not as a top-level module.
        extensions: list[Extension] = mypycify(
            ENGINE_SOURCES, opt_level="3", group_name="openhearts._engine"
        )
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        OptionalBuildExt._skip(error, "the compiled engine")
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


# OPENHEARTS_NO_COMPILE=1 installs without any compiled part (to try the pure-Python
# fallback).
extensions = (
    []
    if os.environ.get("OPENHEARTS_NO_COMPILE")
    else [
        Extension(
            "openhearts._kernel",
            sources=["src/openhearts/_kernel.c"],
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            optional=True,
        ),
        Extension(
            "openhearts._shuffle",
            sources=["src/openhearts/_shuffle.c"],
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            optional=True,
        ),
        *engine_extensions(),
    ]
)

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})

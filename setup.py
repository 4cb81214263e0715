"""Builds the optional compiled playout kernel (``openhearts._kernel``).

Everything else about the package is in pyproject.toml.  A failed compile (no C compiler,
no Python headers) does not fail the install: the package then runs on its pure-Python
engine, which is the reference the kernel is tested against, and says so once at run time.
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
        except Exception as error:  # any build failure means "no kernel"
            self._skip(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._skip(error)

    @staticmethod
    def _skip(error: Exception) -> None:
        print(
            f"openhearts: the compiled kernel was not built ({error}); "
            "the pure-Python engine will be used instead",
            file=sys.stderr,
        )


# OPENHEARTS_NO_COMPILE=1 installs without the kernel (to try the pure-Python fallback).
extensions = (
    []
    if os.environ.get("OPENHEARTS_NO_COMPILE")
    else [
        Extension(
            "openhearts._kernel",
            sources=["src/openhearts/_kernel.c"],
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            optional=True,
        )
    ]
)

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})

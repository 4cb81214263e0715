"""Loading the project's scripts (``scripts/*.py``, not a package) as modules for tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(name: str) -> ModuleType:
    """``scripts/NAME.py`` as the module ``NAME``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Dataclasses of the script look their module up by name.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

"""The API reference build (``scripts/build_docs.py``); CI runs the build itself."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_docs", ROOT / "scripts" / "build_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_docs", module)
    spec.loader.exec_module(module)
    return module


def test_every_public_module_gets_a_page(tmp_path: Path) -> None:
    script = _script()
    names = script.module_names()
    assert {"openhearts", "openhearts.game", "openhearts.bots", "openhearts.bots.hard"} <= set(
        names
    )
    assert {"openhearts.env", "openhearts.openspiel_game", "openhearts.arena_ray"} <= set(names)
    assert not any(n.endswith("__main__") or "._" in n for n in names)
    count = script.write_pages(tmp_path / "pages")
    assert count == len(names)
    page = (tmp_path / "pages" / "openhearts.rules.rst").read_text(encoding="utf-8")
    assert ".. automodule:: openhearts.rules" in page

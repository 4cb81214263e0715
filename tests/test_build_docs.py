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


def test_pages_of_the_compiled_engine_must_show_its_docstrings(tmp_path: Path) -> None:
    """Found by a tester: Sphinx documented the compiled ``game`` and ``deal``, which
    keep no docstrings, so their pages were empty; the build now fails on that."""
    script = _script()
    pages = tmp_path / "_generated"
    pages.mkdir()
    for stem in script.FROM_SOURCE:
        (pages / f"openhearts.{stem}.html").write_text("<p>Game</p>", encoding="utf-8")
    assert script.missing_docstrings(tmp_path) == ["openhearts.deal", "openhearts.game"]
    summary = "A whole game of Hearts"
    (pages / "openhearts.game.html").write_text(f"<p>{summary}: deals</p>", encoding="utf-8")
    assert script.missing_docstrings(tmp_path) == ["openhearts.deal"]

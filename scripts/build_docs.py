"""Build the API reference from the docstrings, with Sphinx, failing on any warning.

    python scripts/build_docs.py             # HTML in build/docs/index.html
    python scripts/build_docs.py --out DIR

One page per module of ``src/openhearts`` (all but ``__main__`` and private modules) is
written to ``docs/api/_generated`` (not kept in git), then Sphinx builds ``docs/api``
with warnings as errors.  Needs the ``docs`` extra (``pip install -e '.[docs]'``) and,
to document the faces and research modules, the packages they import (``[all]``).
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "openhearts"
SOURCE = ROOT / "docs" / "api"
GENERATED = SOURCE / "_generated"


def module_names() -> list[str]:
    """Every public module of the package, by dotted name, sorted."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] == "__main__" or any(part.startswith("_") for part in parts):
            continue
        names.append(".".join(parts))
    return sorted(names)


def write_pages(target: Path) -> int:
    """One reST page per module; returns how many."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    names = module_names()
    for name in names:
        title = f"``{name}``"
        page = f"{title}\n{'=' * len(title)}\n\n.. automodule:: {name}\n"
        (target / f"{name}.rst").write_text(page, encoding="utf-8")
    return len(names)


#: The modules mypyc compiles keep no docstrings: Sphinx must read them from source.
FROM_SOURCE = ("deal", "game")


def missing_docstrings(out: Path) -> list[str]:
    """The modules built from source whose page lacks their own summary line (Sphinx
    documented the compiled module)."""
    missing = []
    for stem in FROM_SOURCE:
        tree = ast.parse((PACKAGE / f"{stem}.py").read_text(encoding="utf-8"))
        summary = (ast.get_docstring(tree) or "").split("\n")[0].split(":")[0]
        page = out / "_generated" / f"openhearts.{stem}.html"
        text = page.read_text(encoding="utf-8") if page.exists() else ""
        if not summary or summary not in text:
            missing.append(f"openhearts.{stem}")
    return missing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "docs", help="HTML here")
    args = parser.parse_args(argv)
    try:
        from sphinx.cmd.build import build_main
    except ImportError:
        print("build_docs: Sphinx is missing: pip install -e '.[docs]'", file=sys.stderr)
        return 2
    if "openhearts" in sys.modules:
        print("build_docs: run it in a process of its own (the engine must load from source)",
              file=sys.stderr)  # fmt: skip
        return 2
    # The compiled engine keeps no docstrings: the reference is built from the source.
    os.environ["OPENHEARTS_KERNEL"] = "python"
    count = write_pages(GENERATED)
    doctrees = args.out.parent / f"{args.out.name}-doctrees"
    strict = ["-W", "--keep-going", "-E", "-q"]
    status = build_main([*strict, "-b", "html", "-d", str(doctrees), str(SOURCE), str(args.out)])
    missing = missing_docstrings(args.out) if status == 0 else []
    if missing:
        print(f"build_docs: no docstrings on the pages of {', '.join(missing)}", file=sys.stderr)
        return 1
    if status == 0:
        print(f"API reference of {count} modules: {args.out / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.exit(main())

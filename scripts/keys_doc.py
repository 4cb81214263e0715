"""Write docs/keys.md from the one key map (src/openhearts/session/keys.py).

Run from the repository root: ``python scripts/keys_doc.py``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from openhearts.session.keys import markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "keys.md"


def main(argv: list[str] | None = None) -> None:
    # No options: only --help, which must not write the file.
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    DOC.write_text(markdown(), encoding="utf-8")
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()

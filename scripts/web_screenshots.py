#!/usr/bin/env python3
"""Screenshots of the web game for the docs: the table mid-deal, the score table and
a phone-sized table.

Starts ``hearts serve`` on a free port with a temporary database and bots that do not
wait, plays through the page with Chromium (Debian's, through Playwright) and writes::

    docs/screenshots/web-table.png    the table at 1280x800, your turn mid-deal
    docs/screenshots/web-scores.png   the score table after two deals
    docs/screenshots/web-phone.png    the table on a 390x844 phone screen

Usage: ``python scripts/web_screenshots.py [--out DIR] [--chromium PATH]``.
The deals are random, so every run shows other cards.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

MY_TURN = (
    "() => document.getElementById('scores-dialog').open"
    " || (document.body.dataset.myTurn === 'true'"
    "     && document.querySelectorAll('#hand .hand-card.legal').length > 0)"
)


#: The page's animation speed "off", set before it loads.
INSTANT = "localStorage.setItem('openhearts.speed', 'off')"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve(level: str) -> Iterator[str]:
    """Run ``hearts serve`` until the block ends; yields the base URL."""
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        command = [
            sys.executable, "-m", "openhearts", "serve",
            "--port", str(port),
            "--database", f"sqlite:///{home}/screens.sqlite3",
            "--bot-delay", "0",
            "--level", level,
            "--create-rate", "0",
            "--log-level", "warning",
        ]  # fmt: skip
        process = subprocess.Popen(command)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if process.poll() is not None:
                    raise SystemExit("hearts serve did not start")
                try:
                    with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                        break
                except (urllib.error.URLError, OSError):
                    if time.monotonic() > deadline:
                        raise SystemExit("hearts serve did not answer") from None
                    time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=10)


def start_game(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.click("#play-now")
    page.wait_for_selector("#hand .hand-card")


def pass_cards(page: Page) -> None:
    """Pass the three highest cards by clicking them (nothing to do on a hold hand)."""
    page.wait_for_function(
        "() => (document.body.dataset.phase === 'passing'"
        "       && !document.getElementById('pass-box').hidden)"
        " || document.body.dataset.phase === 'playing'"
    )
    if page.evaluate("() => document.body.dataset.phase") != "passing":
        return
    codes = page.eval_on_selector_all(
        "#hand .hand-card", "nodes => nodes.map(n => n.dataset.card)"
    )[-3:]
    for code in codes:
        page.click(f'#hand [data-card="{code}"]')
    page.click("#pass-confirm")


def nice_moment(page: Page) -> bool:
    """Our turn with cards on the table, points taken and darkened cards to show."""
    return bool(
        page.evaluate(
            """() => {
              const s = window.openhearts.state;
              const illegal = document.querySelectorAll('#hand .hand-card.illegal').length;
              return s.tricks.length >= 4 && s.trick.length >= 2 && illegal > 0
                && s.points_taken.some((p) => p > 0);
            }"""
        )
    )


def play_one(page: Page) -> bool:
    """Play a legal card on our turn; False when the deal ended instead."""
    page.wait_for_function(MY_TURN)
    if page.locator("#scores-dialog").evaluate("d => d.open"):
        return False
    legal = page.eval_on_selector_all(
        "#hand .hand-card.legal", "nodes => nodes.map(n => n.dataset.card)"
    )
    code = legal[-1]
    # "Auto play one" plays a lone legal card by itself (and may end the deal).
    if len(legal) > 1:
        page.click(f'#hand [data-card="{code}"]')
    page.wait_for_function(
        'code => !document.querySelector(`#hand [data-card="${code}"]`)', arg=code
    )
    return True


def play_until_nice(page: Page) -> None:
    """Play on (through new deals if need be) until :func:`nice_moment`."""
    for _ in range(200):
        page.wait_for_function(MY_TURN)
        if page.locator("#scores-dialog").evaluate("d => d.open"):
            page.click("#scores-close")
            pass_cards(page)
            continue
        if nice_moment(page):
            page.mouse.move(0, 0)
            page.wait_for_timeout(300)
            return
        play_one(page)
    raise SystemExit("no good moment for a screenshot came up")


def finish_deal(page: Page) -> None:
    while play_one(page):
        pass


def table_shot(page: Page, base: str, path: Path) -> None:
    """A new game on ``page``, played to a moment worth showing, saved as ``path``."""
    page.set_default_timeout(30_000)
    start_game(page, base, "Ann")
    pass_cards(page)
    play_until_nice(page)
    page.screenshot(path=str(path))
    print("wrote", path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--level", default="easy", help="bot level (default: easy)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with serve(args.level) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            # Each state as it arrives: the shots need the moves, not their pace.
            page.add_init_script(INSTANT)
            table_shot(page, base, args.out / "web-table.png")
            finish_deal(page)
            if page.evaluate("() => window.openhearts.state.deal_points.length") < 2:
                page.click("#scores-close")
                pass_cards(page)
                finish_deal(page)
            page.wait_for_timeout(300)
            page.screenshot(path=str(args.out / "web-scores.png"))
            print("wrote", args.out / "web-scores.png")

            phone = browser.new_page(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
            )
            phone.add_init_script(INSTANT)
            table_shot(phone, base, args.out / "web-phone.png")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

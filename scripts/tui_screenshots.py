"""Make the terminal game's screenshots (SVG) for the docs.

    python scripts/tui_screenshots.py             # docs/screenshots/terminal-*.svg
    python scripts/tui_screenshots.py OUT --all   # every dialog, 3 and 6 players, in OUT

The game runs headlessly (Textual's test driver) in a temporary home directory, with a
fixed seed, so the pictures only change when the program does.  Your moves are made by
the ``easy`` computer player.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from openhearts.bots import make_bot
from openhearts.rules import Rules
from openhearts.tui.app import HeartsApp
from openhearts.tui.screens import ChoiceScreen, InfoScreen
from openhearts.tui.storage import Settings, Storage
from openhearts.tui.widgets import HandView

ROOT = Path(__file__).resolve().parent.parent


async def settle(pilot: Pilot[int], until: Callable[[], bool], limit: int = 2000) -> None:
    for _ in range(limit):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        if until():
            await pilot.pause()
            return
    raise RuntimeError("the game did not reach the state wanted for a screenshot")


async def shoot(
    out: Path,
    size: tuple[int, int],
    players: int,
    prefix: str,
    everything: bool = False,
    end_score: int = 100,
    wanted: frozenset[str] | None = None,
) -> list[Path]:
    """Play a deal (or, with ``everything``, a whole game) and save the pictures.

    ``wanted`` limits the pictures saved to those names (default: all of them).
    """
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as home:
        rules = Rules.preset("standard", players=players, end_score=end_score)
        settings = Settings(name="You", level="easy", speed="off", rules=rules.to_dict())
        app = HeartsApp(Storage(home), settings, seed=2024, show_options=everything)

        def save(name: str) -> None:
            path = out / f"{prefix}{name}.svg"
            if path in written or (wanted is not None and name not in wanted):
                return
            app.save_screenshot(filename=path.name, path=str(out))
            written.append(path)
            print(f"wrote {path}", file=sys.stderr)

        async with app.run_test(size=size) as pilot:
            if everything:
                await settle(pilot, lambda: app.screen.__class__.__name__ == "OptionsScreen")
                save("options")
                await pilot.press("ctrl+s")
            await settle(pilot, lambda: app.table is not None)
            table = app.table
            assert table is not None
            me = make_bot("easy", "screenshots")
            shot_table = shot_scores = False
            while True:
                await settle(
                    pilot,
                    lambda: app.screen is not table or table.session.human_to_act(),
                )
                if isinstance(app.screen, InfoScreen):
                    if not shot_scores:
                        shot_scores = True
                        save("scores")
                        if not everything:
                            break
                    await pilot.press("enter")
                    continue
                if isinstance(app.screen, ChoiceScreen):
                    save("game-over")
                    break
                view = table.session.view()
                hand = table.query_one(HandView)
                if view.phase == "passing":
                    for card in me.choose_pass(view):
                        table.toggle(card)
                    if everything:
                        save("passing")
                    table.action_pass_cards()
                    continue
                middle = len(view.tricks) >= view.rules.hand_size // 3
                if (
                    not shot_table
                    and middle
                    and (view.trick or 2 * len(view.tricks) >= view.rules.hand_size)
                ):
                    hand.place(view.legal.cards()[0])
                    save("table")
                    shot_table = True
                    if everything:
                        await pilot.press("w")
                        save("won")
                        await pilot.press("escape")
                        await pilot.press("l")
                        save("tricks")
                        await pilot.press("escape")
                        await pilot.press("question_mark")
                        save("help")
                        await pilot.press("escape")
                        await settle(pilot, lambda: app.screen is table)
                table.play_card(me.choose_play(view))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--all", action="store_true", help="every screen, several sizes")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.all:
        asyncio.run(shoot(out, (100, 32), 4, "terminal-", everything=True, end_score=40))
        asyncio.run(shoot(out, (80, 24), 4, "small-"))
        asyncio.run(shoot(out, (110, 34), 3, "three-"))
        asyncio.run(shoot(out, (120, 36), 6, "six-"))
    else:
        docs = frozenset({"options", "table", "scores", "game-over"})
        asyncio.run(shoot(out, (110, 36), 4, "terminal-", True, end_score=40, wanted=docs))
        asyncio.run(shoot(out, (80, 24), 4, "terminal-80x24-", wanted=frozenset({"table"})))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

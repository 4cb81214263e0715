"""The terminal game driven headlessly with Textual's pilot.

Every test runs the real app in a temporary ``OPENHEARTS_HOME`` with the animations
off and the ``random`` computer players (fast and repeatable), except the hint test,
which uses whatever ``hard`` player exists.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, RichLog, Static
from textual.widgets._footer import FooterKey

from openhearts import Action, Card, CardSet, Game, Rules, play
from openhearts.bots import RandomBot, act, make_bot
from openhearts.cards import Suit
from openhearts.game import Pass, Play
from openhearts.options import asked_for
from openhearts.phases import Phase
from openhearts.record import load, save
from openhearts.sentences import spoken as words
from openhearts.session import Seats, Session
from openhearts.session.memory import known_voids
from openhearts.session.saving import AskedFor, load_session, save_session
from openhearts.tui import settings_from_args
from openhearts.tui.app import HeartsApp, TableScreen
from openhearts.tui.options_screen import OptionsScreen
from openhearts.tui.screens import ChoiceScreen, InfoScreen, ReviewScreen
from openhearts.tui.speech import Speaker
from openhearts.tui.storage import Settings, Storage
from openhearts.tui.widgets import HandView, TrickView

SIZE = (100, 32)
#: A seed whose game, with the highest-card player in your seat, lasts two deals.
SEED_TWO_DEALS = 1


def make_app(
    home: Path,
    *,
    seed: object = 7,
    end_score: int = 100,
    players: int = 4,
    level: str = "random",
    show_options: bool = False,
    **changes: object,
) -> HeartsApp:
    rules = Rules.preset("standard", players=players, end_score=end_score, **changes)
    settings = Settings(level=level, speed="off", rules=rules.to_dict())
    return HeartsApp(Storage(home), settings, seed=seed, show_options=show_options)


def toasts_shown(app: HeartsApp) -> str:
    """The text of the notifications on the screen (run_test with notifications=True)."""
    from textual.widgets._toast import Toast

    return " ".join(
        strip.text
        for toast in app.screen.query(Toast)
        for strip in toast.render_lines(toast.region.reset_offset)
    )


def finished_record(
    folder: Path, end_score: int = 1, rules: Rules | None = None
) -> tuple[Game, Path]:
    """A game of random players played to its end (seed 2), saved as ``done.json``; by
    the standard rules to ``end_score`` unless ``rules`` are given."""
    rules = rules or Rules.preset("standard", end_score=end_score)
    names = ["You", "W", "N", "E", "S", "X"][: rules.players]
    game = Game(rules, seed=2, names=names)
    bots = [make_bot("random", seed=s) for s in range(rules.players)]
    while not game.is_over:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    path = folder / "done.json"
    save(game, str(path))
    return game, path


async def settle(pilot: Pilot[int], until: Callable[[], bool] | None = None) -> None:
    """Let the computer players move until the condition holds (or nothing moves)."""
    for _ in range(400):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        if until is None or until():
            await pilot.pause()
            return
    raise AssertionError("the app did not reach the expected state")


async def play_again(pilot: Pilot[int], app: HeartsApp) -> None:
    """From the Game over dialog (once it shows), Play again, to the new game's table."""
    await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    await pilot.press("enter")  # Play again
    await settle(pilot, lambda: app.table is not None and app.screen is app.table)


def table(app: HeartsApp) -> TableScreen:
    assert app.table is not None
    return app.table


def shown_lines(widget: Widget) -> list[str]:
    """The lines a widget shows on screen now, without their edges' spaces."""
    return [strip.text.strip() for strip in widget.render_lines(widget.region.reset_offset)]


def human_turn(app: HeartsApp) -> bool:
    screen = app.table
    return (
        screen is not None
        and app.screen is screen
        and screen.session.human_to_act()
        and screen.session.game.phase in ("passing", "playing")
    )


async def move_cursor_to(pilot: Pilot[int], card: Card) -> None:
    """Walk the hand cursor to a card with the arrow keys."""
    hand = table(pilot.app).query_one(HandView)  # type: ignore[arg-type]
    hand.focus()
    for _ in range(60):
        if hand.current == card:
            return
        await pilot.press("right")
    raise AssertionError(f"{card} is not in the hand")


async def human_move_by_keys(pilot: Pilot[int], app: HeartsApp) -> None:
    """Pass the three highest cards or play the highest legal card, one key press a card.

    The cursor is put on the card directly (walking it there with the arrows is tested
    on its own) so that whole games stay quick.
    """
    screen = table(app)
    hand = screen.query_one(HandView)
    hand.focus()
    view = screen.session.view()
    if view.phase == "passing":
        for card in view.hand.cards()[-view.rules.cards_passed :]:
            hand.place(card)
            await pilot.press("space")
        await pilot.press("p")
    else:
        hand.place(view.legal.cards()[-1])
        await pilot.press("enter")


async def play_to_end(pilot: Pilot[int], app: HeartsApp, limit: int = 400) -> None:
    """Play whole deals by keyboard until the game-over dialog shows."""
    for _ in range(limit):
        await settle(
            pilot, lambda: human_turn(app) or isinstance(app.screen, ChoiceScreen | InfoScreen)
        )
        if isinstance(app.screen, ChoiceScreen) and table(app).session.game.is_over:
            return
        if isinstance(app.screen, InfoScreen | ChoiceScreen):
            await pilot.press("enter")
            continue
        await human_move_by_keys(pilot, app)
    raise AssertionError("the game did not end")


def test_full_game_from_options_to_winner(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=SEED_TWO_DEALS, end_score=20, show_options=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, OptionsScreen)
            # Change a few options with the keyboard alone: the name, then start.
            name = app.screen.query_one("#opt-name", Input)
            name.focus()
            name.value = ""
            await pilot.press(*"Ada")
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: app.table is not None)
            session = table(app).session
            assert session.game.names[session.human] == "Ada"
            await play_to_end(pilot, app)
            game = session.game
            assert game.is_over and max(game.scores) >= 20
            assert len(game.results) == 2, len(game.results)
            assert "Game over" in app.announcements[-1] or any(
                "Game over" in a for a in app.announcements[-5:]
            )
            stats = app.storage.load_stats()
            assert stats.games_played == 1
            assert stats.deals_played == len(game.results)
            # The finished game's record stays, for `hearts replay`, and is not resumed.
            assert app.storage.load_game()[0].actions == game.actions
            assert not app.storage.has_unfinished_game()
            assert app.storage.load_settings().name == "Ada"
            # Play again starts a fresh game.
            await pilot.press("enter")
            await settle(pilot, lambda: app.table is not None and app.screen is app.table)
            assert not table(app).session.game.is_over
            assert table(app).session is not session

    asyncio.run(run())


def test_an_unreadable_speech_command_is_refused_and_never_stops_the_game(
    tmp_path: Path,
) -> None:
    """An unclosed quote in the speech command was a traceback, and once saved, at every
    start after."""

    async def run() -> None:
        app = make_app(tmp_path, seed=3, show_options=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            app.screen.query_one("#opt-speech", Input).value = 'espeak-ng -v "en'
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, OptionsScreen)
            error = str(app.screen.query_one("#options-error", Static).render())
            assert "the speech command cannot be read: no closing quotation" in error
            assert app.storage.load_settings().speech_command == ""

    asyncio.run(run())
    storage = Storage(tmp_path)
    settings = storage.load_settings()
    settings.speech_command = 'espeak-ng -v "en'
    storage.save_settings(settings)

    async def saved_by_hand() -> None:
        app = HeartsApp(Storage(tmp_path), Storage(tmp_path).load_settings(), show_options=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None)
            assert app.speaker.problem is not None and not app.speaker.active

    asyncio.run(saved_by_hand())


def test_illegal_card_is_refused_with_a_reason(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await human_move_by_keys(pilot, app)  # the pass
            screen = table(app)
            for _ in range(40):
                await settle(pilot, lambda: human_turn(app))
                view = screen.session.view()
                illegal = [c for c in view.hand if c not in view.legal]
                if illegal:
                    break
                await human_move_by_keys(pilot, app)
            else:
                raise AssertionError("never held an illegal card")
            actions = len(screen.session.game.actions)
            await move_cursor_to(pilot, illegal[0])
            await pilot.press("enter")
            assert len(screen.session.game.actions) == actions
            assert screen.message_is_error
            assert screen.message.startswith(f"You cannot play the {illegal[0].pretty}")
            assert app.announcements[-1] == screen.message
            # A click on the dim card is refused the same way.
            hand = table(app).query_one(HandView)
            x = hand._positions()[hand.cards.index(illegal[0])]
            await pilot.click(HandView, offset=(x + 1, 2))
            assert len(screen.session.game.actions) == actions

    asyncio.run(run())


@pytest.mark.parametrize("by", ["key", "button"])
def test_passing_choose_confirm_and_see_received(tmp_path: Path, by: str) -> None:
    """Passed with the Pass button, the keys went nowhere until Tab: they go back to
    the hand either way."""

    async def run() -> None:
        app = make_app(tmp_path, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            assert "Pass three cards to the left" in str(screen.query_one("#status").render())
            await pilot.press("p")  # too early: nothing chosen
            assert screen.message_is_error and "Choose three cards" in screen.message
            hand = screen.session.view().hand.cards()
            for card in hand[:4]:
                await move_cursor_to(pilot, card)
                await pilot.press("space")
            assert "already chosen three" in screen.message  # a fourth is refused
            await move_cursor_to(pilot, hand[0])
            await pilot.press("space")  # unchoose the first
            assert screen.chosen == CardSet(hand[1:3])
            await move_cursor_to(pilot, hand[3])
            await pilot.press("enter")
            if by == "key":
                await pilot.press("p")
            else:
                await pilot.click("#pass-button")
            await settle(pilot, lambda: screen.session.game.phase != "passing")
            assert isinstance(app.focused, HandView), app.focused
            view = screen.session.view()
            assert view.passed == CardSet(hand[1:4])
            assert view.received is not None and len(view.received) == 3
            assert table(app).query_one(HandView).new == view.received
            assert any(a.startswith("You pass the ") for a in app.announcements)
            assert any(a.startswith("You receive the ") for a in app.announcements)

    asyncio.run(run())


def footer_shown(screen: TableScreen) -> list[str]:
    """The footer's keys in sight at 80 columns, by their descriptions."""
    footer = screen.query_one(Footer)
    return [
        str(getattr(key, "description", ""))
        for key in footer.query("FooterKey")
        if key.region.width and key.region.right <= 80
    ]


def test_the_footer_says_what_the_keys_do_now_and_keeps_help_at_80_columns(
    tmp_path: Path,
) -> None:
    """While passing, Enter chooses and P passes; while playing, Enter plays and P is gone
    from the footer (pressed, it says why nothing happens).  At 80 columns Help stays in
    sight in both."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            passing = footer_shown(screen)
            assert passing[:3] == ["Choose", "Pass", "Hint"], passing
            assert "Help" in passing and "Play" not in passing, passing
            for card in screen.session.view().hand.cards()[:3]:
                await move_cursor_to(pilot, card)
                await pilot.press("enter")
            await pilot.press("p")
            await settle(pilot, lambda: human_turn(app))
            await pilot.pause()
            playing = footer_shown(screen)
            assert playing[:3] == ["Play", "Hint", "For me"], playing
            assert "Help" in playing and "Pass" not in playing, playing
            await pilot.press("p")
            assert screen.message_is_error and screen.message == "There is nothing to pass now."

    asyncio.run(run())


def test_the_footer_shows_only_whole_keys_and_always_help(tmp_path: Path) -> None:
    """A key that does not fit is left out, not cut mid-word ("o" for Options at 80
    columns); what is shown keeps the footer's order, and Help stays at every width."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            footer = table(app).query_one(Footer)

            def shown() -> list[tuple[str, int]]:
                keys = [key for key in footer.query("FooterKey") if key.display]
                return [(str(getattr(key, "description", "")), key.region.right) for key in keys]

            everything = [name for name, _ in shown()]
            assert {"Options", "Stats", "Help"} <= set(everything), everything
            for width in (80, 60, 50):
                await pilot.resize_terminal(width, 24)
                await settle(pilot)
                await pilot.pause()
                keys = shown()
                names = [name for name, _ in keys]
                assert all(0 < right <= width for _, right in keys), (width, keys)
                assert "Help" in names, (width, names)
                others = [name for name in names if name != "Help"]
                assert others == everything[: len(others)], (width, names)
                assert len(others) >= 4, (width, names)
            await pilot.resize_terminal(160, 40)
            await settle(pilot)
            await pilot.pause()
            assert [name for name, _ in shown()] == everything

    asyncio.run(run())


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("size", [(50, 15), (60, 20), (80, 22)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_small_terminal_keeps_the_hand_the_trick_and_the_status_in_sight(
    tmp_path: Path, players: int, size: tuple[int, int]
) -> None:
    """Below 80×24 the log and then the panels' lines give way: your hand, your line,
    the trick, the status line and every other player's name stay on the screen."""

    async def run() -> None:
        app = make_app(tmp_path, seed=4, players=players)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            width, height = size
            footer = screen.query_one(Footer).region
            status = screen.query_one("#status-row").region
            hand = screen.query_one(HandView).region
            me = screen.query_one(".me").region
            assert footer.y == height - 1
            assert status.height == 2 and status.bottom <= footer.y
            assert hand.height >= 5 and hand.bottom <= status.y, (hand, status)
            # Every card of the hand in sight (17 with three players), none off the edge.
            view = screen.query_one(HandView)
            assert view._positions()[-1] + view._geometry()[1] <= width
            assert me.height == 1 and me.bottom <= hand.y
            trick = screen.query_one(TrickView).region
            assert trick.height >= 4 and trick.width >= 16, trick
            for panel in screen.query(".seat"):
                region = panel.region
                assert region.height >= 2 and region.width >= 14, region
                assert region.bottom <= me.y and region.right <= width, region
            text = "\n".join(
                line.text for line in screen.query_one(".me").render_lines(me.reset_offset)
            )
            assert "You" in text

    asyncio.run(run())


def test_a_refusal_stays_in_sight_on_the_status_line_at_80_columns(tmp_path: Path) -> None:
    """The status line is two fixed lines: a long status ends in "…" rather than wrapping
    the refusal below it out of sight."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            for card in screen.session.view().hand.cards()[:4]:
                await move_cursor_to(pilot, card)
                await pilot.press("space")
            await pilot.pause()
            lines = shown_lines(screen.query_one("#status"))
            assert len(lines) == 2 and lines[0].startswith("Pass three cards"), lines
            assert lines[1].startswith("You have already chosen three cards"), lines

    asyncio.run(run())


def test_a_sentence_taller_than_the_log_is_shown_from_its_start(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            await pilot.press("h")
            await settle(pilot, lambda: app.announcements[-1].startswith("Hint: pass"))
            await pilot.pause()
            shown = shown_lines(screen.query_one("#log", RichLog))
            assert shown[0].startswith("Hint: pass the "), shown

    asyncio.run(run())


def test_a_move_while_the_deal_sheet_is_due_shows_the_sheet_first(tmp_path: Path) -> None:
    """Between the last card of a deal and its score sheet (a pause), a key must not act
    in the next deal unseen: G, P, H or a card shows the sheet instead."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(20):  # the first deal, by keys, to its score sheet
                await settle(pilot, lambda: human_turn(app) or app.screen is not app.table)
                if app.screen is not app.table:
                    break
                await human_move_by_keys(pilot, app)
            assert isinstance(app.screen, InfoScreen)
            await pilot.press("enter")
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            actions = len(screen.session.game.actions)
            screen.pending_sheet = True  # as in the pause after a deal's last card
            await pilot.press("g")
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            assert len(screen.session.game.actions) == actions and not screen.pending_sheet

    asyncio.run(run())


def test_one_undo_after_a_forced_first_lead_reaches_the_pass(tmp_path: Path) -> None:
    """Auto play one led the person's 2♣, no choice: U takes back the pass with it
    (stopping at the 2♣, auto play one played it again at once: U could never reach
    the pass)."""

    async def run() -> None:
        app = make_app(tmp_path, seed=6)  # seat 0 is dealt the 2♣; auto play one is on
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            session = table(app).session
            two = Card.parse("2C")
            assert two in session.view().hand
            for card in [c for c in session.view().hand.cards() if c != two][:3]:
                await move_cursor_to(pilot, card)
                await pilot.press("enter")
            await pilot.press("p")
            await settle(pilot, lambda: human_turn(app))
            assert session.game.phase == Phase.PLAYING and two not in session.view().hand
            await pilot.press("u")
            await settle(pilot, lambda: human_turn(app))
            assert session.view().phase == Phase.PASSING and two in session.view().hand

    asyncio.run(run())


def test_undo_takes_back_your_card_and_what_followed(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=21)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("u")
            assert table(app).message_is_error  # nothing of yours to undo yet
            await human_move_by_keys(pilot, app)
            screen = table(app)
            session = screen.session
            for _ in range(3):
                await settle(pilot, lambda: human_turn(app))
                await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            game = session.game
            last = max(
                i for i, a in enumerate(game.actions) if getattr(a, "seat", None) == session.human
            )
            card = game.actions[last].card  # type: ignore[union-attr]
            hand_before = session.view().hand
            await pilot.press("u")
            assert len(game.actions) == last
            assert card in session.view().hand
            assert session.view().hand == hand_before | CardSet([card])
            assert app.announcements[-1].startswith(f"Taken back: your {card.name}")
            await settle(pilot, lambda: human_turn(app))
            assert session.game.current_player == session.human

    asyncio.run(run())


def test_hint_names_a_card(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("h")
            await settle(pilot, lambda: app.announcements[-1].startswith(("Hint", "Hints need")))
            text = app.announcements[-1]
            try:
                from openhearts.bots.hard import HardBot
            except ImportError:
                assert text.startswith("Hints need")
                return
            view = table(app).session.view()
            assert text.startswith("Hint: play the "), text
            if hasattr(HardBot, "evaluate"):
                assert "points to take" in text
            hinted = table(app).query_one(HandView).current
            assert hinted is not None and hinted in view.legal

    asyncio.run(run())


def test_g_has_the_computer_pass_and_play_for_you(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            session = table(app).session
            await pilot.press("g")
            await settle(pilot, lambda: session.game.phase == "playing" and human_turn(app))
            assert any(line.startswith("The computer passes the ") for line in app.announcements)
            mine = [a for a in session.game.actions if a.seat == session.human]
            assert isinstance(mine[0], Pass) and len(mine[0].cards) == 3
            before = len(mine)
            await pilot.press("G")
            await settle(
                pilot,
                lambda: len([a for a in session.game.actions if a.seat == session.human]) > before,
            )
            said = next(line for line in reversed(app.announcements) if "for you" in line)
            card = Card.parse(said.removeprefix("The computer plays the ").split(" for ")[0])
            # Said once, by that line.
            assert not any(line.startswith(("You play", "You lead")) for line in app.announcements)
            mine = [a for a in session.game.actions if a.seat == session.human]
            assert Play(session.human, card) in mine[before:]

    asyncio.run(run())


def test_l_reviews_every_trick_deal_by_deal(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=SEED_TWO_DEALS)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            session = screen.session
            await pilot.press("l")
            opened = app.screen
            assert isinstance(opened, ReviewScreen)
            assert app.announcements[-1] == "Deal 1, in progress: no trick finished yet."
            await pilot.press("escape")
            while not session.game.results:
                await settle(pilot, lambda: human_turn(app) or app.screen is not screen)
                if app.screen is screen:
                    await pilot.press("g")
            await settle(pilot, lambda: app.screen is not screen)
            await pilot.press("escape")  # the score sheet
            await settle(pilot, lambda: app.screen is screen)
            await pilot.press("l")
            review = app.screen
            assert isinstance(review, ReviewScreen)
            # No trick of deal 2 yet: it opens at deal 1, saying its last trick.
            said = app.announcements[-1]
            assert said.startswith("Deal 1: points taken: You ") and " Trick 13: " in said
            title = review.query_one("#review-title", Static)
            assert str(title.render()) == "Tricks of deal 1"
            body = str(review.query_one("#review-body", Static).render())
            assert [line.split()[0] for line in body.splitlines()[2:]] == [
                str(n) for n in range(1, 14)
            ]
            assert body.count("★") == 13
            await pilot.press("right")
            assert str(title.render()) == "Tricks of deal 2"
            assert app.announcements[-1] == "Deal 2, in progress: no trick finished yet."
            await pilot.press("right")
            assert str(title.render()) == "Tricks of deal 2"
            await pilot.click("#previous")
            assert str(title.render()) == "Tricks of deal 1"
            assert app.announcements[-1].startswith("Deal 1: points taken: ")

    asyncio.run(run())


def test_save_and_resume(tmp_path: Path) -> None:
    async def first() -> list[Action]:
        app = make_app(tmp_path, seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            for _ in range(4):
                await human_move_by_keys(pilot, app)
                await settle(pilot, lambda: human_turn(app))
            actions = list(table(app).session.game.actions)
            # Saved with auto play one off, while the settings keep it on.
            table(app).session.auto_play_one = False
            assert app.storage.save_game(table(app).session)
        return actions

    async def second(actions: list[Action]) -> None:
        app = make_app(tmp_path, seed=99)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            assert app.announcements[-1].startswith("A game was left unfinished")
            await pilot.press("enter")  # Resume
            await settle(pilot, lambda: human_turn(app))
            assert table(app).session.game.actions == actions
            assert table(app).session.game.seed == 5
            assert app.settings.auto_play_one and not table(app).session.auto_play_one

    async def declined() -> None:
        # Escape (or New game) on "Resume?" opens the options; the saved game stays until
        # a new game starts, so leaving from there loses nothing.
        app = make_app(tmp_path, seed=98)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause()
            footer = app.screen.query_one(Footer)
            keys = [(key.key, str(key.description)) for key in footer.query(FooterKey)]
            assert ("escape", "New game") in keys, keys  # what Escape does here, not "Back"
            await pilot.press("escape")
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            assert Storage(tmp_path).has_unfinished_game()

    actions = asyncio.run(first())
    assert Storage(tmp_path).has_unfinished_game()
    asyncio.run(declined())
    asyncio.run(second(actions))


def test_announcement_keys(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=3)
        speech_file = tmp_path / "said.txt"
        app.speaker = Speaker(f"sh -c 'echo \"$0\" >> {speech_file}'")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("t")
            assert app.announcements[-1].startswith("Your turn to pass three cards")
            await pilot.press("r")
            assert app.announcements[-1].startswith("Your hand, 13 cards. Clubs:")
            await human_move_by_keys(pilot, app)
            session = table(app).session
            await settle(pilot, lambda: human_turn(app) and bool(session.view().trick))
            view = session.view()
            await pilot.press("c")
            said = app.announcements[-1]
            assert said.startswith("On the table: ")
            for seat, card in view.trick:
                assert f"{view.names[seat]} the {card.name}" in said
            await pilot.press("1")
            seat, card = view.trick[0]
            assert app.announcements[-1] == f"1: {view.names[seat]}, the {card.name}."
            await pilot.press("6")
            assert app.announcements[-1] == "No card 6 on the table."
            await pilot.press("s")
            assert app.announcements[-1].startswith("Scores: you 0, West 0")
            await pilot.press("t")
            assert app.announcements[-1].startswith("It is your turn to play on")
            # The announcements also reach the log and the announcements file.
            log_file = app.storage.announcements_path.read_text(encoding="utf-8")
            assert app.announcements[-1] in log_file
            # ... and the speech command, which also says the card under the cursor.
            await settle(pilot, lambda: app.speaker.idle)
            await pilot.press("right")
            current = table(app).query_one(HandView).current
            assert current is not None
            card = current
            app.speaker.close(wait=10)
            spoken = speech_file.read_text(encoding="utf-8").splitlines()
            assert app.announcements[-1] in spoken
            assert spoken[-1].startswith(card.name)

    asyncio.run(run())


def test_typed_card_and_dialog_keys(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=8)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            view = screen.session.view()
            first = view.hand.cards()[:3]
            await pilot.press("slash", *str(first[0]).lower(), "enter")
            await pilot.press("slash", *str(first[0]).lower(), "enter")
            assert app.announcements[-1] == f"Already chosen: the {first[0].name}. 1 of 3 chosen."
            await pilot.press("slash", *" ".join(str(c).lower() for c in first), "enter")
            assert screen.chosen == CardSet(first)
            assert app.announcements[-1].endswith("3 of 3 chosen. Press P to pass them.")
            await pilot.press("p")
            await settle(pilot, lambda: human_turn(app))
            view = screen.session.view()
            card = view.legal.cards()[0]
            # A typed "c" must go to the entry, not read the table.
            await pilot.press("slash", *str(card).lower())
            assert table(app).query_one("#entry", Input).value == str(card).lower()
            await pilot.press("enter")
            assert card not in screen.session.view().hand
            await pilot.press("slash", "x", "x", "enter")
            assert screen.message.startswith("Cannot read 'xx' as a card")
            # A rank key opens the entry with that rank, and the suit key follows it; in
            # either case.
            await pilot.press("q", "s")
            assert table(app).query_one("#entry", Input).value == "qs"
            await pilot.press("escape")
            await pilot.press("K", "H")
            assert table(app).query_one("#entry", Input).value == "KH"
            await pilot.press("escape")
            for key, kind in (
                ("l", ReviewScreen),
                ("w", InfoScreen),
                ("m", InfoScreen),
                ("d", InfoScreen),
                ("question_mark", InfoScreen),
                ("i", InfoScreen),
                ("n", ChoiceScreen),
            ):
                await settle(pilot, lambda: app.screen is screen)
                await pilot.press(key)
                assert isinstance(app.screen, kind), key
                if key == "d" and not screen.session.game.results:
                    # Only a Total row yet: a listener is told so, not left in silence.
                    assert app.announcements[-1].startswith("No deal has been finished yet.")
                if key == "n":
                    assert app.announcements[-1] == (
                        "New game? The game in progress will be abandoned."
                    )
                await pilot.press("escape")
                if key == "n":
                    await settle(pilot, lambda: app.screen is screen)
                    assert app.announcements[-1] == "No new game: this one goes on."
            await pilot.press("o")
            assert isinstance(app.screen, OptionsScreen)
            await pilot.press("escape")
            assert app.screen is screen  # type: ignore[comparison-overlap]
            # A click on a player shows that player's cards won; on the middle, the last trick.
            await pilot.click("#seat-2")
            assert isinstance(app.screen, InfoScreen)
            assert app.screen.title_text == "Cards won by North"
            assert app.announcements[-1].startswith("North has won ")
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is screen)
            await pilot.click(TrickView)
            assert isinstance(app.screen, ReviewScreen)

    asyncio.run(run())


def test_memory_aids_key(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=8)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            # While passing nothing has been played: the dialog says so.
            await pilot.press("m")
            assert isinstance(app.screen, InfoScreen)
            assert app.announcements[-1] == "No cards have been played yet in this deal."
            await pilot.press("escape")
            assert app.screen is screen  # type: ignore[comparison-overlap]
            for _ in range(4):
                await human_move_by_keys(pilot, app)
                await settle(pilot, lambda: human_turn(app))
            view = screen.session.view()
            assert len(view.tricks) >= 3
            count = len(app.announcements)
            await pilot.press("m")
            assert isinstance(app.screen, InfoScreen)
            assert app.screen.title_text == f"Memory: deal {view.deal_number + 1}"
            said = app.announcements[count:]
            assert said == words.memory(view)
            assert said[0].startswith(f"{len(view.played)} cards played so far")
            assert said[-1].startswith("Points taken this deal: you ")
            assert ("Hearts are broken." in said) == view.hearts_broken
            body = app.screen.body
            assert isinstance(body, Text)
            lines = body.plain.splitlines()
            for suit in Suit:
                row = next(line for line in lines if line.startswith(f"{suit.symbol} {suit.word}"))
                ranks = row.split("played", 1)[1].split()
                shown = [str(c)[0].replace("T", "10") for c in view.played.of_suit(suit)]
                assert ranks == (shown or ["none"])
            for seat, suit, _ in known_voids(view):
                assert f"{view.names[seat]}: no {suit.symbol} {suit.word}" in body.plain
            await pilot.press("escape")
            assert app.screen is screen  # type: ignore[comparison-overlap]

    asyncio.run(run())


def test_resuming_a_finished_game_shows_the_result(tmp_path: Path) -> None:
    _, path = finished_record(tmp_path)

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            assert isinstance(app.screen, ChoiceScreen)
            assert app.screen.title_text == "Game over"
            assert app.storage.load_stats().games_played == 0  # not counted twice
            await pilot.press("escape")
            # The footer offers a new game, and none of the keys of a move (Play, Hint,
            # For me and Undo stayed, each only refusing).
            await settle(pilot, lambda: "New game" in footer_shown(table(app)))
            shown = footer_shown(table(app))
            assert not {"Play", "Choose", "Hint", "For me", "Undo"} & set(shown), shown
            for key in "uhg":
                await pilot.press(key)
                assert table(app).message == "The game is over: N starts a new game."
            # Game over, then Options: Escape goes back to the finished table (there was
            # no way back but Start game or Quit).
            table(app).show_game_over()
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            app.screen.query_one("#choice-options", Button).press()
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is table(app))
            assert table(app).session.game.is_over
            # N on a finished game abandons nothing, and says so.
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            said = "New game? Start another game with the same settings?"
            assert app.announcements[-1] == said
            await pilot.press("escape")

    asyncio.run(run())
    # Quitting a finished game says where its record is, as the plain game does (it
    # said nothing).
    farewell = app_farewell(tmp_path, path)
    assert farewell == f"The game's record is in {path}; see it again with: hearts replay {path}"


def app_farewell(home: Path, path: Path) -> str | None:
    async def run() -> str | None:
        app = HeartsApp(Storage(home), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.press("escape")
            await pilot.press("ctrl+q")
        return app.farewell()

    return asyncio.run(run())


def test_three_winners_are_listed_in_words(tmp_path: Path) -> None:
    """A moon that ends the game leaves the three others tied: the game over dialog read
    "Winners: West and North and East", the status line the same with "win"."""
    rules = Rules.preset("standard", end_score=26, pass_cycle=("hold",))
    mine = CardSet.parse("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AS")
    rest = [c for c in rules.deck if c not in mine]
    hands = [mine, CardSet(rest[0:13]), CardSet(rest[13:26]), CardSet(rest[26:39])]
    names = ["You", "West", "North", "East"]
    game = Game(rules, seed=1, names=names, hands=[hands], scores=[90, 0, 0, 0])
    while not game.is_over:
        game.play(game.legal_plays().cards()[-1])
    assert game.winners == [1, 2, 3]
    path = tmp_path / "tie.json"
    save(game, str(path))

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            body = " ".join(shown_lines(app.screen.query_one(".dialog-body Static", Static)))
            assert "Game over: West, North and East win." in body, body
            assert "Winners: West, North and East" in body, body

    asyncio.run(run())


def test_resume_says_which_typed_options_the_saved_game_keeps(tmp_path: Path) -> None:
    session = Session.new(Rules(), seed=6, names=["You"], level="random")
    path = tmp_path / "saved.json"
    save_session(str(path), session.game, session.info())

    async def run() -> None:
        asked = AskedFor(level="hard", seed=True)
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path), asked=asked)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None)
            assert table(app).session.seats.level == "random"
            said = (
                "A resumed game keeps its computer players (random) and its shuffles: "
                "--level and --seed apply to new games only."
            )
            assert any(said in line for line in app.announcements), app.announcements

    asyncio.run(run())


def unfinished_save(path: Path, seed: int) -> None:
    session = Session.new(Rules(), seed=seed, names=["You"], level="random")
    save_session(str(path), session.game, session.info())


@pytest.mark.parametrize("flag", [True, False])
def test_no_auto_play_one_given_with_resume_turns_it_off_in_the_resumed_game(
    tmp_path: Path, flag: bool
) -> None:
    """`hearts play --resume FILE --no-auto-play-one` kept the saved game's auto play one
    on, without a word, where the plain game turned it off (found by a tester).  Not
    given, the saved game's own setting stays."""
    path = tmp_path / "going.json"
    unfinished_save(path, 8)  # saved with auto play one on
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    args = parser.parse_args(["--resume", str(path), *(["--no-auto-play-one"] if flag else [])])
    storage = Storage(tmp_path)
    stored = storage.load_settings()
    stored.auto_play_one = True
    storage.save_settings(stored)
    settings = settings_from_args(storage.load_settings(), args)
    settings.speed = "off"
    app = HeartsApp(storage, settings, resume=str(path), asked=asked_for(args))

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None and human_turn(app))
            assert table(app).session.auto_play_one is not flag
        saved = load_session(str(path))[1]
        assert saved is not None and saved.auto_play_one is not flag

    asyncio.run(run())


def test_a_new_game_never_replaces_the_file_given_to_resume(tmp_path: Path) -> None:
    """Play again after `--resume done.json` wrote the new game over the record opened,
    and deleted the unfinished game that the default save file held (now kept aside);
    the game given up with N is not kept."""
    _, path = finished_record(tmp_path)
    unfinished_save(tmp_path / "saved-game.json", 99)
    going = tmp_path / "going.json"
    unfinished_save(going, 8)

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=SIZE) as pilot:
            await play_again(pilot, app)
            assert not table(app).session.game.is_over
            kept = tmp_path / "saved-game-unfinished-1.json"
            assert load(str(kept)).seed == 99
            assert any(f"it is kept in {kept}" in line for line in app.announcements)
            # N gives the game in progress up: it is not kept.
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            app.screen.query_one("#choice-new", Button).press()
            await settle(pilot, lambda: app.screen is app.table)
            assert not (tmp_path / "saved-game-unfinished-2.json").exists()
        assert load(str(path)).is_over
        assert app.storage.save_path == tmp_path / "saved-game.json"
        assert not load(str(app.storage.save_path)).is_over

        # An unfinished game resumed from its file is saved back there.
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(going))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None and human_turn(app))
            await human_move_by_keys(pilot, app)
            assert app.storage.save_path == going
        assert load(str(going)).actions

    asyncio.run(run())


def test_play_again_keeps_the_rules_of_the_game_played_unless_the_options_changed(
    tmp_path: Path,
) -> None:
    """Play again after a resumed 5-player game started a 4-player one, by the options'
    rules (the web page's Play again keeps the table's rules); once the options are
    changed, though, their rules are the next game's, as the options screen says."""
    rules = Rules.preset("source-003", players=5, end_score=1)
    _, path = finished_record(tmp_path, rules=rules)

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=SIZE) as pilot:
            await play_again(pilot, app)
            again = table(app).session.game
            assert again.rules == rules and len(again.names) == 5 and not again.is_over
            # N with the options as they were: the same rules again.
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            app.screen.query_one("#choice-new", Button).press()
            await settle(pilot, lambda: table(app).session.game is not again)
            assert table(app).session.game.rules == rules
            # Options changed in the game: the next game is theirs.
            app.settings.rules = Rules.preset("standard", players=3).to_dict()
            before = table(app).session.game
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            app.screen.query_one("#choice-new", Button).press()
            await settle(pilot, lambda: table(app).session.game is not before)
            assert table(app).session.game.rules == Rules.preset("standard", players=3)

        # Rules typed with --resume "apply to new games only": Play again's too.
        typed = Settings(speed="off", preset="source-002")
        asked = AskedFor(rules=True)
        app = HeartsApp(Storage(tmp_path), typed, resume=str(path), asked=asked)
        async with app.run_test(size=SIZE) as pilot:
            await play_again(pilot, app)
            assert table(app).session.game.rules == Rules.preset("source-002")

    asyncio.run(run())


@pytest.mark.parametrize("size", [(60, 20), (64, 22), (100, 32)])
def test_the_pass_caption_keeps_its_arrow_and_target_at_any_width(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """With four players at 60 to 64 columns the caption was cut to "Deal 1: pass 3
    card…", losing the arrow and the player passed to (found by a tester)."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: human_turn(app))
            shown = " ".join(shown_lines(table(app).query_one(TrickView)))
            assert "◀ West" in shown, shown

    asyncio.run(run())


def test_the_pass_caption_of_one_card_says_card(tmp_path: Path) -> None:
    """With ``cards_passed=1`` the caption read "Deal 1: pass 1 cards ◀ West"."""

    async def run() -> None:
        app = make_app(tmp_path, cards_passed=1)
        async with app.run_test(size=(120, 32)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            shown = " ".join(shown_lines(table(app).query_one(TrickView)))
            assert "Deal 1: pass 1 card ◀ West" in shown, shown
            # Chosen, it is "it", not "them".
            hand = table(app).query_one(HandView)
            hand.focus()
            hand.place(table(app).session.view().hand.cards()[0])
            await pilot.press("space")
            assert app.announcements[-1].endswith("1 of 1 chosen. Press P to pass it.")

    asyncio.run(run())


def test_resize_keeps_the_table_usable(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=4)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            hand = table(app).query_one(HandView)
            for width, height in ((80, 24), (60, 18), (160, 50), (40, 12), (100, 32)):
                await pilot.resize_terminal(width, height)
                await settle(pilot)
                assert app.size == (width, height)
                positions = hand._positions()
                large, card_width, _ = hand._geometry()
                assert large == (height >= 36)
                if hand.size.width >= 60:
                    assert positions[-1] + card_width <= hand.size.width
                assert len(set(positions)) == len(positions)
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))

    asyncio.run(run())


@pytest.mark.parametrize("players", [3, 5, 6])
def test_other_player_counts(tmp_path: Path, players: int) -> None:
    async def run() -> None:
        app = make_app(tmp_path, players=players, seed=players)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            assert len(screen.query(".seat")) == players - 1
            for _ in range(3):
                await human_move_by_keys(pilot, app)
                await settle(pilot, lambda: human_turn(app))
            view = screen.session.view()
            assert len(view.hand) < view.rules.hand_size
            picture = screen.query_one(TrickView).picture
            assert picture is not None and picture.plays
            assert {screen.slots[seat] for seat in range(players)} == set(range(players))

    asyncio.run(run())


def test_six_players_at_80_columns_keep_the_dealer_and_passed_notes(tmp_path: Path) -> None:
    """Six players at 80 × 24: the dealer's panel read "Southwest · dealer · p…", what
    the seat is doing cut off; the compass name gives way instead."""

    async def run() -> None:
        app = make_app(tmp_path, players=6, first_dealer=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            panel = table(app).query_one("#seat-1", Widget)
            lines = shown_lines(panel)
            assert lines[0] == "SW · dealer · passed", lines

    asyncio.run(run())


def test_moon_choice_dialog(tmp_path: Path) -> None:
    """You hold every club from the ace down to the three and the A♠: every trick is yours."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            rules = Rules.preset("source-000", pass_cycle=("hold",))
            mine = CardSet.parse("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AS")
            rest = [c for c in rules.deck if c not in mine]
            hands = [mine, CardSet(rest[0:13]), CardSet(rest[13:26]), CardSet(rest[26:39])]
            game = Game(rules, seed=1, names=["You", "West", "North", "East"], hands=[hands])
            app._show_table(Session(game, Seats.build(4, [0], "random", 1)))
            await play_to_end_of_deal(pilot, app)
            assert isinstance(app.screen, ChoiceScreen)
            assert app.announcements[-1].startswith("You shot the moon! Choose")
            # The table's keys that still make sense here: H hints (and the choice is
            # asked again), U takes back the last card, G lets the computer choose; in
            # either case, as everywhere.
            await pilot.press("H")
            await settle(pilot, lambda: app.announcements[-1].startswith("Hint:"))
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            assert game.phase == "moon_choice"
            # The hint is in the dialog, where it can be read (the log is behind it).
            hint = app.announcements[-1]

            def shown() -> str:
                return str(app.screen.query_one(".dialog-body Static", Static).content)

            await settle(pilot, lambda: hint in shown())
            assert "Totals now:" in shown()
            # The keys that only look open over the choice, which stays (every other
            # key was ignored there, without a word): the sheet, the tricks, the keys.
            moon = app.screen
            for key, title in (
                ("D", "Score sheet"),
                ("L", "Tricks of deal 1"),
                ("?", "Keys and rules"),
            ):
                await pilot.press(key)
                await settle(pilot, lambda: app.screen is not moon)
                shown_title = app.screen.query_one(".dialog-title", Static).content
                assert str(shown_title) == title, shown_title
                await pilot.press("escape")
                await settle(pilot, lambda: app.screen is moon)
            said = len(app.announcements)
            await pilot.press("S")
            assert app.announcements[said:] and game.phase == "moon_choice"
            assert app.screen is moon
            await pilot.press("U")
            await settle(pilot, lambda: human_turn(app))
            assert game.phase == "playing" and game.view(0).hand  # cards to play again
            await play_to_end_of_deal(pilot, app)
            assert isinstance(app.screen, ChoiceScreen)
            said = len(app.announcements)
            await pilot.press("G")
            await settle(pilot, lambda: bool(game.results))
            assert any(a.startswith("The computer") for a in app.announcements[said:])
            assert game.results[0].shooter == 0
            assert game.scores == [0, 26, 26, 26]
            # The dialog came back while the computer chose, and stayed up asking a
            # question already answered (its answer then ignored).
            for _ in range(20):
                await pilot.pause()
            await app.workers.wait_for_complete()
            assert not any(isinstance(screen, ChoiceScreen) for screen in app.screen_stack)

    asyncio.run(run())


async def play_to_end_of_deal(pilot: Pilot[int], app: HeartsApp) -> None:
    """Play the human's cards through the table's own method (quicker than keys)."""
    for _ in range(40):
        await settle(pilot, lambda: human_turn(app) or app.screen is not app.table)
        if app.screen is not app.table:
            return
        screen = table(app)
        screen.play_card(screen.session.view().legal.cards()[-1])


RANDOM_KEYS = [
    *"abcdefghijklmnopqrstuvwxyz0123456789/?",
    "left", "right", "up", "down", "home", "end", "enter", "escape", "tab", "shift+tab",
    "space", "backspace", "ctrl+z", "ctrl+s", "ctrl+a", "ctrl+e", "ctrl+p", "ctrl+c", "f1",
    "pageup", "pagedown", "delete",
]  # fmt: skip


async def random_keys_game(
    pilot: Pilot[int], app: HeartsApp, seed: int, limit: int, burst: int = 3
) -> None:
    """Press random keys; now and then make a legal move so that the game goes on."""
    rng = random.Random(seed)
    for step in range(limit):
        await pilot.press(*rng.choices(RANDOM_KEYS, k=burst))
        await settle(pilot)
        screen = app.table
        if screen is not None and screen.session.game.is_over:
            return
        if step % 2 == 1:
            # Close whatever is open and move for the human if it is their turn.
            for _ in range(4):
                if app.screen is app.table:
                    break
                await pilot.press("escape")
                if isinstance(app.screen, OptionsScreen) and not app.screen.in_game:
                    await pilot.press("ctrl+s")
                    if isinstance(app.screen, OptionsScreen):
                        # The random keys made the options invalid: start with good ones.
                        app.start_game(app.settings)
                await settle(pilot)
            # Random keys may have slowed the animations down on the options screen.
            app.settings.speed = "off"
            if human_turn(app):
                await human_move_by_keys(pilot, app)
    raise AssertionError("the game did not end")


def test_random_keys_never_crash(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=13, end_score=1, show_options=True)
        async with app.run_test(size=(90, 28)) as pilot:
            await random_keys_game(pilot, app, seed=1, limit=200, burst=1)

    asyncio.run(run())


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_random_keys_whole_games(tmp_path: Path, seed: int) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=seed, end_score=40, players=3 + seed % 4)
        async with app.run_test(size=(90, 28)) as pilot:
            await random_keys_game(pilot, app, seed=seed, limit=3000)

    asyncio.run(run())


def test_a_game_left_lets_its_computer_players_go(tmp_path: Path) -> None:
    """Each new game (N, Play again) left the last game's computer players holding what
    they hold: with ``--level cmd:PROGRAM`` three more programs stayed running at every
    game (``hard:workers=N``, its worker processes), until the terminal game ended, and
    quitting did not stop them either."""
    closed: list[int] = []

    class Held(RandomBot):
        def close(self) -> None:
            closed.append(id(self))

    def held_session() -> Session:
        seats = Seats(frozenset([0]), {seat: Held(seat) for seat in (1, 2, 3)}, level="random")
        return Session(Game(Rules(), seed=4, names=["You", "West", "North", "East"]), seats)

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            app._show_table(held_session())
            await settle(pilot, lambda: human_turn(app))
            app.start_game(app.settings)
            await settle(pilot, lambda: human_turn(app))
            assert len(closed) == 3  # the three of the game left
            app._show_table(held_session())
            await settle(pilot, lambda: human_turn(app))
        assert len(set(closed)) == 6  # and the three of the game in play on quitting

    asyncio.run(run())


def test_options_opened_and_closed_keep_the_games_auto_play_one(tmp_path: Path) -> None:
    """A resumed game kept "auto play one" off as saved; O then Escape, with nothing
    changed, switched it on (the screen showed the app's setting, not the game's)."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None)
            assert app.settings.auto_play_one
            table(app).session.auto_play_one = False  # as a game saved with it off
            await pilot.press("o")
            await settle(pilot, lambda: type(app.screen).__name__ == "OptionsScreen")
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is app.table)
            assert table(app).session.auto_play_one is False
            assert app.settings.auto_play_one is True

    asyncio.run(run())


def test_options_closed_keep_the_speaker_unless_the_speech_command_changed(
    tmp_path: Path,
) -> None:
    """O then Escape started a second speaker while the first still spoke its queue:
    two voices, out of order (found by a tester).  The speaker stays; a new command
    gets a new one, which takes over what was still to be said."""

    async def run() -> None:
        app = make_app(tmp_path)
        app.speaker = Speaker("true")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None)
            speaker = app.speaker
            await pilot.press("o")
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is app.table)
            assert app.speaker is speaker
            await pilot.press("o")
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            app.screen.query_one("#opt-speech", Input).value = "true --slowly"
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is app.table)
            assert app.speaker is not speaker and app.speaker.words == ["true", "--slowly"]
            assert app.settings.speech_command == "true --slowly"

    asyncio.run(run())


def test_new_game_from_the_options_asks_before_giving_up_the_game(tmp_path: Path) -> None:
    """O then Ctrl+S (or the New game button) gave up the game in progress at once,
    where N asks first (found by a tester).  It asks the same question; Cancel stays on
    the options, with the game kept."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: human_turn(app))
            game = table(app).session.game
            await pilot.press("o")
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            assert app.announcements[-1] == "New game? The game in progress will be abandoned."
            await pilot.press("enter")  # the focus is on Cancel
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            assert table(app).session.game is game
            app.screen.query_one("#start", Button).press()
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            app.screen.query_one("#choice-new", Button).press()
            await settle(pilot, lambda: app.screen is app.table)
            assert table(app).session.game is not game

    asyncio.run(run())


def test_a_message_with_brackets_is_shown_as_written(tmp_path: Path) -> None:
    """A file name with "[/]" in a toast stopped the game with a MarkupError, and "[bad]"
    vanished from it: toasts and dialogs show names and file names as typed."""
    missing = str(tmp_path / "a[/]b[bad].json")
    app = HeartsApp(
        Storage(tmp_path),
        Settings(level="random", speed="off"),
        seed=7,
        show_options=False,
        resume=missing,
    )

    async def run() -> None:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            for _ in range(20):
                await pilot.pause(0.05)
            shown = toasts_shown(app)
            assert "Cannot resume" in shown and "[bad].json" in shown

    asyncio.run(run())


def test_ctrl_c_says_how_to_quit_in_words_and_aloud(tmp_path: Path) -> None:
    """Ctrl+C showed "Press [b]ctrl+q[/b] to quit the app", the markup as typed, and
    said nothing to a listener (found by a tester)."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("ctrl+c")
            await settle(pilot)
            said = "Ctrl+C does not quit here: press Ctrl+Q to quit; the game is saved."
            assert app.announcements[-1] == said
            shown = toasts_shown(app)
            assert "Ctrl+Q to quit" in shown and "[b]" not in shown
            assert app.is_running

    asyncio.run(run())


def test_a_damaged_saved_game_and_a_name_matching_no_seat_are_announced(
    tmp_path: Path,
) -> None:
    """A saved game set aside as damaged, and a --name that chose no seat, were toasts
    only: never in the log, the announcements file or the speech (found by a tester).
    The damaged file's reason is said too, as the plain game says it."""
    saved = tmp_path / "saved-game.json"
    saved.write_text('{"events": [}', encoding="utf-8")

    async def damaged() -> None:
        app = make_app(tmp_path, show_options=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            said = (
                f"{saved} could not be read (line 1: not valid JSON: Expecting value); "
                "it was kept as saved-game.json.bad."
            )
            assert said in app.announcements
            assert said in app.storage.announcements_path.read_text(encoding="utf-8")

    asyncio.run(damaged())
    record = tmp_path / "record.json"
    save(Game(Rules(), seed=3, names=["Ann", "West", "North", "East"]), str(record))
    settings = Settings(level="random", speed="off", name="Bob")
    app = HeartsApp(Storage(tmp_path), settings, resume=str(record), asked=AskedFor(name=True))

    async def no_such_seat() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: app.table is not None)
            said = "No player in this game is called Bob: you play Ann's seat."
            assert said in app.announcements
            assert said in app.storage.announcements_path.read_text(encoding="utf-8")

    asyncio.run(no_such_seat())


def test_damaged_statistics_are_said_when_shown(tmp_path: Path) -> None:
    """The statistics key showed "No game finished yet." and nothing else, the damaged
    file just set aside."""
    (tmp_path / "statistics.json").write_text("{bad", encoding="utf-8")

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.press("i")
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            assert any("could not be read as statistics" in a for a in app.announcements)
        assert (tmp_path / "statistics.json.bad").exists()

    asyncio.run(run())


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [
        ("#opt-opponents", "a, b, c, d", "opponents: 4 names for 3 computer players"),
        ("#opt-first_lead", "1C", "first lead: '1' is no rank here: type A for the ace"),
    ],
)
def test_the_options_refuse_what_the_command_line_refuses(
    tmp_path: Path, field: str, typed: str, said: str
) -> None:
    """Found by a tester: extra opponents' names were dropped without a word, and a first
    lead typed "1C" began the game with the A♣ (a lone 1 is refused in every card typed)."""

    async def run() -> None:
        app = make_app(tmp_path, seed=3, show_options=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            app.screen.query_one(field, Input).value = typed
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, OptionsScreen)
            assert said in str(app.screen.query_one("#options-error", Static).render())

    asyncio.run(run())


def test_going_back_with_too_many_names_keeps_the_new_rules(tmp_path: Path) -> None:
    """Found by a tester: going back to the game with one name too many said "The rules
    were not changed", and dropped the rules just changed, though only the names were
    wrong; the names were kept, too many for the seats."""

    async def run() -> None:
        app = make_app(tmp_path, seed=3)
        app.settings.opponents = ["Bo"]
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.press("o")
            assert isinstance(app.screen, OptionsScreen)
            app.screen.query_one("#opt-end_score", Input).value = "50"
            app.screen.query_one("#opt-opponents", Input).value = "a, b, c, d"
            await pilot.press("escape")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            shown = toasts_shown(app)
            assert "names were not changed" in shown and "rules were not" not in shown, shown
            assert app.settings.rules is not None and app.settings.rules["end_score"] == 50
            assert app.settings.opponents == ["Bo"]

    asyncio.run(run())


def test_a_refused_option_is_said_with_what_was_typed(tmp_path: Path) -> None:
    """The options' error line read its message as markup: "[/]" typed as a card to
    remove stopped the game with a MarkupError."""

    async def run() -> None:
        app = make_app(tmp_path, seed=3, show_options=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            app.screen.query_one("#opt-removed", Input).value = "2D [/]"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, OptionsScreen)
            error = str(app.screen.query_one("#options-error", Static).render())
            assert "[/]" in error

    asyncio.run(run())

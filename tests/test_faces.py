"""One scripted game driven through every face gives the same game.

The script: a fixed seed (given as text, as a command line gives it), the person passes
their three highest cards, asks for a hint at their first card, plays their lowest legal
card twice, then undoes once.  Each face reports what it dealt, the card its hint
recommended, and the game after the undo; all faces must agree.  A face is one function
from the script to a :class:`Result`, so another face (the web page) is one more entry in
:data:`FACES`.
"""

from __future__ import annotations

import asyncio
import builtins
import io
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from openhearts import Card, CardSet
from openhearts.game import Action
from openhearts.phases import Phase
from openhearts.plain import run_plain
from openhearts.plain.game import PlainSession
from openhearts.session import Session
from test_plain import parse_args
from test_tui_app import human_turn, make_app, settle, table

SEED = "3"
SCRIPT = ("pass", "hint", "play", "play", "undo")


@dataclass(frozen=True)
class Result:
    dealt: tuple[CardSet, ...]
    hint: Card
    #: The person's own actions after the undo, in order.
    mine: tuple[Action, ...]
    #: The whole state of the deal after the undo (every hand, trick, pass, point).
    state: tuple[Phase, object]
    hand: CardSet


def _lowest(session: Session) -> Card:
    return session.view().legal.cards()[0]


def _highest_three(session: Session) -> list[Card]:
    return session.view().hand.cards()[-3:]


def _result(session: Session, hint: Card | None) -> Result:
    assert hint is not None
    game = session.game
    return Result(
        tuple(CardSet(hand) for hand in game.deal_states()[0].dealt),
        hint,
        tuple(action for action in game.actions if action.seat == session.human),
        (game.phase, game.deal.key()),
        session.view().hand,
    )


def plain_face(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Result:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    steps = iter(SCRIPT)
    seen: dict[str, Session] = {}
    original = PlainSession.__init__

    def keep(self: PlainSession, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        seen["session"] = self.session

    monkeypatch.setattr(PlainSession, "__init__", keep)

    def answer(prompt: str = "") -> str:
        session = seen["session"]
        step = next(steps, None)
        if step is None:
            raise EOFError
        if step == "pass":
            return " ".join(str(card) for card in _highest_three(session))
        if step == "play":
            return str(_lowest(session))
        return step  # "hint", "undo": the commands

    monkeypatch.setattr(builtins, "input", answer)
    args = parse_args("--seed", SEED, "--save", str(tmp_path / "plain.json"))
    assert run_plain(args) == 0
    said = re.search(r"Hint: the hard computer player would play the (\S+)\.", out.getvalue())
    assert said is not None, out.getvalue()
    return _result(seen["session"], Card.parse(said.group(1)))


def terminal_face(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Result:
    async def run() -> Result:
        app = make_app(tmp_path, seed=SEED)
        hint: Card | None = None
        async with app.run_test(size=(100, 32)) as pilot:
            for step in SCRIPT:
                await settle(pilot, lambda: human_turn(app))
                screen = table(app)
                session = screen.session
                if step == "pass":
                    for card in _highest_three(session):
                        screen.toggle(card)
                    await pilot.press("p")
                elif step == "hint":
                    await pilot.press("h")
                    await settle(pilot, lambda: app.announcements[-1].startswith("Hint"))
                    said = re.match(r"Hint: play the (.+?) \(", app.announcements[-1])
                    assert said is not None, app.announcements[-1]
                    hint = Card.parse(said.group(1))
                elif step == "play":
                    screen.play_card(_lowest(session))
                else:
                    await pilot.press("u")
            await settle(pilot)
            return _result(table(app).session, hint)

    return asyncio.run(run())


FACES: dict[str, Callable[[pytest.MonkeyPatch, Path], Result]] = {
    "plain": plain_face,
    "terminal": terminal_face,
}


def test_every_face_plays_the_same_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    results = {}
    for name, face in FACES.items():
        with monkeypatch.context() as patch:
            (tmp_path / name).mkdir()
            results[name] = face(patch, tmp_path / name)
    first = results["plain"]
    for name, result in results.items():
        assert result.dealt == first.dealt, f"{name} dealt another game"
        assert result.hint == first.hint, f"{name} gave another hint"
        assert result.mine == first.mine, f"{name} differs after the undo"
        assert result.state == first.state, f"{name} differs after the undo"
        assert result.hand == first.hand
    # The undo took back the second card: the pass and one card are left.
    assert [type(action).__name__ for action in first.mine] == ["Pass", "Play"]
    assert first.state[0] == Phase.PLAYING

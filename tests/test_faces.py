"""One scripted game driven through every face gives the same game.

The script: a fixed seed (given as text, as a command line gives it), the person passes
their three highest cards, asks for a hint at their first card, plays their lowest legal
card twice, then undoes once.  Each face reports what it dealt, the card its hint
recommended, and the game after the undo; all faces must agree.  A face is one function
from the script to a :class:`Result`: the plain game, the terminal game, and the web game
(its server, driven over the protocol as the page drives it).
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
from typing import Any

import pytest

from openhearts import Card, CardSet, Game, Rules
from openhearts.game import Action
from openhearts.phases import Phase
from openhearts.plain import run_plain
from openhearts.plain.game import PlainSession
from openhearts.session import Session, game_seed
from openhearts.web.storage import Storage
from test_plain import parse_args
from test_tui_app import human_turn, make_app, settle, table
from web_support import Player, auto_plays, fast_settings, running, store_game

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
    #: Every action after the undo, in the order the record writes them.
    actions: tuple[Action, ...]


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
        tuple(game.actions),
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
    said = re.search(r"Hint: the strongest computer player would play the (\S+)\.", out.getvalue())
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


def web_face(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Result:
    """The web game over its protocol: a table stored with the script's seed (the server
    deals its own seeds otherwise), one person against random bots, played by a client
    that sends what the page would send."""
    game = Game(Rules.preset("standard"), seed=game_seed(SEED))
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    store_game(storage, "FacesTable", "standard", game, 0, "F" * 32)
    hint: Card | None = None
    # Long enough that no bot takes the person's seat while the script thinks.
    with running(storage, fast_settings(takeover_delay=600)) as server:
        person = Player(server.ws_url("FacesTable"), token="F" * 32, auto_play_one=True).open()

        def ready(message: dict[str, Any]) -> bool:
            """A state of now in which the person is to choose (not auto play one)."""
            state = message["state"]
            return bool(
                message["type"] == "state"
                and message["seq"] == web_table.seq
                and (
                    0 in state["waiting_for"]
                    if state["phase"] == "passing"
                    else state["to_move"] == 0 and not auto_plays(state)
                )
            )

        def my_turn() -> dict[str, Any]:
            if person.latest is None or not ready(person.latest):
                person.until(lambda m: m["type"] == "state" and ready(m))
            return person.state

        web_table = server.hub.tables["FacesTable"]
        for step in SCRIPT:
            state = my_turn()
            if step == "pass":
                answer = person.request({"type": "pass", "cards": state["hand"][-3:]})
            elif step == "hint":
                answer = person.request({"type": "hint"})
                hint = Card.parse(answer["ranking"][0]["card"])
                continue
            elif step == "play":
                answer = person.request({"type": "play", "card": state["legal"][0]})
            else:
                answer = person.request({"type": "undo"})
                person.until(
                    lambda m: (
                        m["type"] == "state" and any(e["event"] == "undone" for e in m["events"])
                    )
                )
            assert answer["type"] == "ack", answer
        # Whatever the bots do after the undo, up to the person's next choice.
        my_turn()
        person.close()
        played = web_table.game
        assert played is not None and hint is not None
        return Result(
            tuple(CardSet(hand) for hand in played.deal_states()[0].dealt),
            hint,
            tuple(action for action in played.actions if action.seat == 0),
            (played.phase, played.deal.key()),
            played.hand(0),
            tuple(played.actions),
        )


FACES: dict[str, Callable[[pytest.MonkeyPatch, Path], Result]] = {
    "plain": plain_face,
    "terminal": terminal_face,
    "web": web_face,
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
    # The plain and terminal games write the same record (the plain game wrote the
    # person's pass before the computer players'). The web game's bots pass when their
    # pause is over, before or after the person.
    assert results["terminal"].actions == first.actions
    # The undo took back the second card: the pass and one card are left.
    assert [type(action).__name__ for action in first.mine] == ["Pass", "Play"]
    assert first.state[0] == Phase.PLAYING

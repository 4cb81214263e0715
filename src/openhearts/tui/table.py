"""The terminal game's card table: :class:`TableScreen`, put together from its parts.

* :mod:`.table_base` -- state (reactive), layout, drawing, the computer players' turns;
* :mod:`.table_hand` -- your cards: play, choose to pass, type by name;
* :mod:`.table_keys` -- hint, play for me, undo and the reading keys;
* :mod:`.table_dialogs` -- score sheet, game over, moon choice and the other dialogs.

The keys come from the one key map (:mod:`openhearts.session.keys`), in either case.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from ..session.keys import Command, key_of, textual_keys
from .table_dialogs import DialogsMixin
from .table_hand import HandMixin
from .table_keys import KeysMixin

__all__ = ["TableScreen"]


def _bind(command: Command, action: str | None = None) -> Binding:
    label = key_of(command).label
    return Binding(textual_keys(command), action or command.value, label, show=bool(label))


class TableScreen(KeysMixin, HandMixin, DialogsMixin):
    """The card table: opponents around, the trick in the middle, your hand at the bottom."""

    # The footer shows them in this order and cuts what does not fit: at 80 columns it
    # ends after Help while passing, after Options while playing.
    BINDINGS: ClassVar[list[BindingType]] = [
        # N in the footer once the game is over (the keys of a move are gone from it then).
        Binding(textual_keys(Command.NEW_GAME), "new_game_now", "New game"),
        _bind(Command.PASS),
        # P out of the passing phase: hidden from the footer, and says why nothing happens.
        Binding(textual_keys(Command.PASS), "pass_refused", show=False),
        _bind(Command.HINT),
        _bind(Command.PLAY_FOR_ME),
        _bind(Command.UNDO),
        Binding("ctrl+z", "undo", show=False),
        *(
            Binding(textual_keys(command), "game_over", show=False)
            for command in (Command.HINT, Command.PLAY_FOR_ME, Command.UNDO)
        ),
        _bind(Command.LAST_TRICK),
        _bind(Command.WON),
        _bind(Command.MEMORY),
        _bind(Command.SHEET),
        Binding("question_mark,f1", "help", "Help"),
        _bind(Command.OPTIONS),
        _bind(Command.STATS),
        _bind(Command.READ_TABLE),
        *(Binding(str(n), f"read_card({n})", show=False) for n in range(1, 7)),
        _bind(Command.READ_SCORES),
        _bind(Command.READ_TURN),
        _bind(Command.READ_HAND),
        _bind(Command.NEW_GAME),
        Binding("slash", "type_card('')", show=False),
        # The log is not in the focus order (the hand keeps the keys): these scroll it.
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        # Letters in either case, as every key (the entry reads "QS" as "qs").
        *(Binding(key, f"type_card('{key}')", show=False) for key in "qkajQKAJ789"),
        _bind(Command.CLEAR),
    ]

"""Plain sentences, in one place for the plain game, the terminal game and ``hearts replay``.

* :mod:`.style` -- how cards and tables are printed (symbols, letters, or spoken names);
* :mod:`.records` -- finished tricks and deals (``hearts replay``, deal results);
* :mod:`.spoken` -- the table as it is now: status line, reading keys, memory aids;
* :mod:`.events` -- what an action caused, from the session's typed events;
* :mod:`.advice` -- hints, undo and errors said to the person.
"""

from __future__ import annotations

from .records import direction_words, shot_line, trick_line
from .style import Style, supports_symbols, table

__all__ = ["Style", "supports_symbols", "table", "trick_line", "shot_line", "direction_words"]

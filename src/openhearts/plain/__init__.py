"""Plain line-based play: ``hearts play --plain`` (and whenever input or output is not a terminal).

Everything is printed as whole lines and read with ``input()``: no screen drawing, no
colours, no cursor movement.  A screen reader reads it as it comes, a pipe or a script
can drive it, and a transcript of a game is a readable text file.

You sit at one seat against computer players.  The commands (``help`` lists them) are
the keys of the other faces, as letters or words.  End of input (Ctrl-D), Ctrl-C, a
closed terminal (SIGHUP) and SIGTERM save the game and stop; ``--resume FILE`` goes on.

The game itself is :class:`~openhearts.session.Session`; this package only reads
lines and prints sentences (:mod:`openhearts.sentences`):

* :mod:`.console` -- lines in and out, the signals that stop a game;
* :mod:`.turns` -- the person's pass, play and moon choice;
* :mod:`.commands` -- the commands typed at any prompt;
* :mod:`.scores` -- score tables; :mod:`.saving` -- where the game is saved;
* :mod:`.game` -- :class:`PlainSession`, the loop; :mod:`.setup` -- the command line.
"""

from __future__ import annotations

from .game import PlainSession
from .saving import default_save_path
from .setup import SetupError, run_plain

__all__ = ["run_plain", "PlainSession", "SetupError", "default_save_path"]

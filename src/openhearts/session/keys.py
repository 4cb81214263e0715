"""The one key map of every face: which key (or plain command) does what.

Letters work in either case (``H`` and ``h`` are the same key).  The plain game reads
the same letters and the longer words typed at its prompt; ``docs/keys.md`` is made
from this table (``python scripts/keys_doc.py``) and a test checks it is current.

>>> command_for_key("H") == command_for_key("h") == (Command.HINT, None)
True
>>> command_for_key("4") == (Command.READ_CARD, 4), command_for_word("Memory")[0] is Command.MEMORY
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Command",
    "Key",
    "KEYS",
    "command_for_key",
    "command_for_word",
    "textual_keys",
    "key_of",
    "markdown",
]


class Command(StrEnum):
    HINT = "hint"
    UNDO = "undo"
    PLAY_FOR_ME = "play_for_me"
    LAST_TRICK = "last_trick"
    TRICKS = "tricks"
    WON = "won"
    MEMORY = "memory"
    SHEET = "sheet"
    READ_TABLE = "read_table"
    READ_CARD = "read_card"
    READ_SCORES = "read_scores"
    READ_TURN = "read_turn"
    READ_HAND = "read_hand"
    PASS = "pass_cards"
    STATS = "stats"
    RULES = "rules"
    OPTIONS = "options"
    NEW_GAME = "new_game"
    HELP = "help"
    TYPE_CARD = "type_card"
    CLEAR = "clear"
    SAVE = "save"
    QUIT = "quit"


@dataclass(frozen=True)
class Key:
    """One entry of the key map."""

    command: Command
    #: Keys as printed (``H``; ``1``-``6`` is six keys); empty: a typed command only.
    keys: tuple[str, ...]
    #: What the plain game accepts at its prompt besides the keys.
    words: tuple[str, ...]
    description: str
    #: Short label for a footer or a button.
    label: str = ""
    #: Where the face has no such thing (the plain game has no options screen).
    plain: bool = True


_READ_CARD_KEYS = tuple(str(n) for n in range(1, 7))

KEYS: tuple[Key, ...] = (
    Key(Command.HINT, ("H",), ("hint",), "a hint from the strongest computer player, with "
        "the points it expects after each choice, best first", "Hint"),
    Key(Command.UNDO, ("U",), ("undo",), "take back your last choice (a card, a pass or a moon "
        "choice) and what the computer players did after it", "Undo"),
    Key(Command.PLAY_FOR_ME, ("G",), ("go",), "let the computer make your move: it plays the "
        "card (or passes the cards, or makes the moon choice) a hint would suggest", "For me"),
    Key(Command.LAST_TRICK, ("L",), ("last",), "the last trick, and in the terminal and web "
        "games every trick of the game before it, deal by deal", "Tricks"),
    Key(Command.TRICKS, (), ("tricks",), "every trick of this deal so far (before its first "
        "trick, of the deal just finished; 'tricks 2': of deal 2), with who took it and its "
        "points"),
    Key(Command.WON, ("W",), ("won",), "the cards each player has won this deal", "Won"),
    Key(Command.MEMORY, ("M",), ("memory", "played"), "memory aids: cards played and not yet "
        "seen, known voids, hearts broken, points taken", "Memory"),
    Key(Command.SHEET, ("D",), ("scores", "sheet"), "the score sheet, deal by deal", "Scores"),
    Key(Command.READ_TABLE, ("C",), ("table",), "say the cards on the table"),
    Key(Command.READ_CARD, _READ_CARD_KEYS, (), "say one card on the table (1 is the card led)"),
    Key(Command.READ_SCORES, ("S",), (), "say the scores and the points taken this deal"),
    Key(Command.READ_TURN, ("T",), ("turn",), "say whose turn it is"),
    Key(Command.READ_HAND, ("R",), ("hand",), "say your hand and the cards you may play"),
    Key(Command.PASS, ("P",), (), "pass the chosen cards (the plain game takes them typed "
        "together: 2c 5c qs)", "Pass", plain=False),
    Key(Command.STATS, ("I",), ("stats",), "your statistics", "Stats"),
    Key(Command.RULES, (), ("rules",), "the rules in force"),
    Key(Command.OPTIONS, ("O",), (), "the options, such as the animation speed and "
        "Auto play one", "Options", plain=False),
    Key(Command.NEW_GAME, ("N",), (), "start a new game, after asking while one is in "
        "progress", plain=False),
    Key(Command.HELP, ("?",), ("help",), "the keys, then the rules of the game in play", "Help"),
    Key(Command.TYPE_CARD, ("/",), (), "type cards by name (qs, 10h, queen of spades); several "
        "at once when passing", plain=False),
    Key(Command.CLEAR, ("Escape",), (), "close the card entry or clear the cards chosen",
        plain=False),
    Key(Command.SAVE, (), ("save",), "save the game (save FILE: to that file)"),
    Key(Command.QUIT, (), ("quit", "exit"), "save the game and stop"),
)  # fmt: skip


def key_of(command: Command) -> Key:
    return next(key for key in KEYS if key.command is command)


def command_for_key(key: str) -> tuple[Command, int | None] | None:
    """The command of a key press (any case); the number for ``1``-``6``."""
    for entry in KEYS:
        for name in entry.keys:
            if key.casefold() == name.casefold():
                number = int(name) if entry.command is Command.READ_CARD else None
                return entry.command, number
    return None


def command_for_word(text: str) -> tuple[Command, int | None] | None:
    """A typed command of the plain game: a key letter or a word, any case."""
    word = text.strip().casefold()
    for entry in KEYS:
        if not entry.plain:
            continue
        if word in entry.words or (word != "" and any(word == k.casefold() for k in entry.keys)):
            number = int(word) if entry.command is Command.READ_CARD else None
            return entry.command, number
    return None


def textual_keys(command: Command) -> str:
    """The key names of a Textual binding, both cases of every letter (``h,H``)."""
    names: list[str] = []
    for key in key_of(command).keys:
        if key == "?":
            names.append("question_mark")
        elif key == "/":
            names.append("slash")
        elif key == "Escape":
            names.append("escape")
        elif key.isalpha():
            names += [key.lower(), key.upper()]
        else:
            names.append(key)
    return ",".join(names)


def markdown() -> str:
    """``docs/keys.md``."""
    lines = [
        "# Keys",
        "",
        "<!-- Made by `python scripts/keys_doc.py` from src/openhearts/session/keys.py;"
        " a test checks it. -->",
        "",
        "The same keys in the terminal game and the web page; the plain game "
        "(`hearts play --plain`) takes the same letters, or the words, typed at its prompt. "
        "Letters work in either case.",
        "",
        "| key | plain game | what it does |",
        "|---|---|---|",
    ]
    for entry in KEYS:
        keys = (
            "-".join((entry.keys[0], entry.keys[-1]))
            if len(entry.keys) > 2
            else (" ".join(entry.keys))
        )
        if not entry.plain:
            plain = "—"
        else:
            plain = ", ".join(f"`{w}`" for w in (*entry.words, *[k.lower() for k in entry.keys]))
        lines.append(f"| {f'`{keys}`' if keys else '—'} | {plain} | {entry.description} |")
    lines += [
        "",
        "The terminal game also plays the card under the cursor with Enter or Space, moves "
        "along the hand with the arrows, and takes Ctrl+Z for undo; typing a card's rank "
        "(`q`, `k`, `a`, `j`, `7`-`9`) opens the card entry with it.",
        "",
    ]
    return "\n".join(lines)

# Types of the compiled kernel (src/openhearts/_kernel.c); use it through openhearts.kernel.
from collections.abc import Sequence

_Rules = tuple[int, int, int, bool, int, bool, int, bool, int, int, int, int]
_Position = tuple[
    tuple[int, ...], int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int, bool
]
_Played = tuple[
    tuple[int, ...],
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    str,
    tuple[int, ...] | None,
    int | None,
    str | None,
]

def legal_mask(rules: _Rules, position: _Position, /) -> int: ...
def play(rules: _Rules, position: _Position, cards: Sequence[int], /) -> _Played: ...
def playout(
    rules: _Rules,
    position: _Position,
    policy: int,
    seed: int,
    count: int,
    add_for: Sequence[bool] | None,
    root: int,
    shoot: bool,
    /,
) -> list[tuple[int, ...]]: ...
def evaluate(
    rules: _Rules,
    position: _Position,
    candidates: Sequence[int],
    modes: Sequence[bool],
    root: int,
    add_for: Sequence[bool] | None,
    lookahead: int = 0,
    depth: int = 1,
    /,
) -> list[tuple[int, ...]]: ...
def random_u64(seed: int, count: int, /) -> list[int]: ...

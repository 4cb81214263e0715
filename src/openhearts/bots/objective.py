"""What the searches rank cards and passes by.

A deal's outcome for a seat is its points less the other seats' average (lower is
better): the arena's measure, under which an opponent's moon costs a seat only what
the moon adds to it beyond the others.  A seat that should stop moons more than that
margin says adds a *fear* of them: a share of the points in play for every playout
where another seat shoots (:func:`margin`).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["shooter_of", "margin"]


def shooter_of(points: Sequence[int], points_in_play: int) -> int:
    """The seat that shot the moon or the sun in a deal scored ``points``, or -1.

    Read from the points alone, so that playouts need return nothing else: a shot
    leaves its shooter at minus every point in play (the moon taken off, or the sun),
    or else adds them to every other seat, so the points add up to more than they can
    in a deal without a shot; the J♦'s 10 changes neither test.

    >>> shooter_of([0, 26, 26, 26], 26), shooter_of([-26, 0, 0, 0], 26)
    (0, 0)
    >>> shooter_of([16, 0, 26, 26], 26), shooter_of([26, 26, -26], 26)
    (1, 2)
    >>> shooter_of([13, 0, 13, 0], 26), shooter_of([26, -10, 0, 0], 26)
    (-1, -1)
    """
    low = min(points)
    seat = points.index(low)
    if low <= -points_in_play:
        return seat
    if sum(points) >= (len(points) - 1) * points_in_play - 10:
        return seat
    return -1


def margin(points: Sequence[int], seat: int, points_in_play: int, moon_fear: float = 0.0) -> float:
    """``seat``'s points less the others' average, plus ``moon_fear`` times the points
    in play when another seat shot.

    >>> margin([0, 13, 13, 0], 0, 26), margin([26, 0, 26, 26], 0, 26)
    (-8.666666666666666, 8.666666666666668)
    >>> margin([26, 0, 26, 26], 0, 26, moon_fear=2), margin([26, 0, 26, 26], 1, 26, 2)
    (60.66666666666667, -26.0)
    >>> margin([0, 22, 4, 0], 0, 26, 2)
    -8.666666666666666
    """
    own = points[seat]
    value = own - (sum(points) - own) / (len(points) - 1)
    if not moon_fear:
        return value
    shooter = shooter_of(points, points_in_play)
    # A moon of this seat's own adds to the others: no fear of it.
    if shooter < 0 or shooter == seat:
        return value
    return value + moon_fear * points_in_play

"""SplitMix64: the small random generator shared by the compiled kernel and its reference.

Random playouts must give the same cards in C and in Python, so both draw from this
generator (``next_random`` in ``_kernel.c`` is the same three lines).  It is Steele, Lea
and Flood's SplitMix64: a 64-bit counter advanced by the golden-ratio constant, then
mixed; fast, statistically sound for simulations, and not for secrets.

>>> stream = SplitMix64(0)
>>> stream.next(), stream.next()
(16294208416658607535, 7960286522194355700)
>>> SplitMix64(-1).state == (1 << 64) - 1
True
"""

from __future__ import annotations

from typing import Final

__all__ = ["SplitMix64"]

_MASK: Final = (1 << 64) - 1


class SplitMix64:
    """A stream of 64-bit words from a seed (any int; taken modulo 2**64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit word."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A draw reduced to ``0 .. bound - 1`` (by remainder, as the kernel does)."""
        return self.next() % bound

"""What the games' auctions have in common."""

from __future__ import annotations

from collections.abc import Container


def next_bidder(after: int, players: int, bidders: Container[int], high_seat: int | None) -> int | None:
    """The first seat clockwise after ``after`` still in the auction and not holding the
    high bid, or None if there is none."""
    for i in range(1, players + 1):
        seat = (after + i) % players
        if seat in bidders and seat != high_seat:
            return seat
    return None

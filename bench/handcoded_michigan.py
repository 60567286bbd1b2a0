"""A minimal hand-coded Michigan engine, for the benchmark only: the honest baseline.

The home profile (001, spec/michigan.md) and nothing else, written as the
fastest simple Python we could: cards 0..51 as suit × 13 + rank (♣ ♦ ♥ ♠,
2 … A, the same indices as the compiled engine's deck order), bitmask hands,
an owner list, boodles A♥ K♣ Q♦ J♠ and the kitty as board slots 0..4.  It
reads no ruleset.  Given the same card order and the same choices it plays
exactly the deals the compiled engine plays (checked by bench/run.py).

Never imported by the package or the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

SUIT = tuple(0x1FFF << (13 * s) for s in range(4))
NEXT = tuple(-1 if c % 13 == 12 else c + 1 for c in range(52))  # the ace stops
CLAIM = [-1] * 52
for _slot, _card in enumerate((2 * 13 + 12, 0 * 13 + 11, 1 * 13 + 10, 3 * 13 + 9)):
    CLAIM[_card] = _slot  # A♥ K♣ Q♦ J♠ → board slots 0..3; the kitty is slot 4
CLAIM_T = tuple(CLAIM)
_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _receivers(n: int, dealer: int) -> tuple[int, ...]:
    """Who gets each card dealt: from the dealer's left, the widow (-1) last in each round."""
    key = (n, dealer)
    if key not in _ORDERS:
        order = [(dealer + 1 + i) % n for i in range(n)] + [-1]
        _ORDERS[key] = tuple(order[i % (n + 1)] for i in range(52))
    return _ORDERS[key]


def play_deal(perm: Sequence[int], dealer: int, seats: list[int], board: list[int],
              draws: Sequence[Callable[[], float]]) -> int:
    """One Michigan deal from card order ``perm``; chips moved in place; returns the winner.

    ``draws[seat]()`` gives a float in [0, 1) to pick among several allowed leads.
    """
    n = len(seats)
    for i in range(n):
        seats[i] -= 6  # 1 on each of four boodles, 2 on the kitty
    for k in range(4):
        board[k] += n
    board[4] += 2 * n
    own = [-1] * 52
    hands = [0] * n
    for c, w in zip(perm, _receivers(n, dealer), strict=True):
        own[c] = w
        if w >= 0:
            hands[w] |= 1 << c
    held = [h.bit_count() for h in hands]
    p = (dealer + 1) % n
    stopped = -1
    while True:
        hand = hands[p]
        opts = []
        for s in range(4):
            if s != stopped:
                x = hand & SUIT[s]
                if x:
                    opts.append((x & -x).bit_length() - 1)
        if not opts:  # only the stopped suit left: restart it at its lowest (001 §05)
            x = hand & SUIT[stopped]
            opts.append((x & -x).bit_length() - 1)
        c = opts[0] if len(opts) == 1 else opts[int(draws[p]() * len(opts))]
        while True:
            hands[p] ^= 1 << c
            own[c] = -2
            held[p] -= 1
            k = CLAIM_T[c]
            if k >= 0:
                seats[p] += board[k]
                board[k] = 0
            if held[p] == 0:
                seats[p] += board[4]
                board[4] = 0
                for q in range(n):
                    if q != p:
                        seats[q] -= held[q]
                        seats[p] += held[q]
                return p
            nx = NEXT[c]
            if nx < 0:
                break
            q = own[nx]
            if q < 0:
                break
            c = nx
            p = q
        stopped = c // 13

"""The compiled engine as one array kernel: many deals per call, the players inside.

:func:`kernel_tables` lays a :class:`~.tables.CompiledRules` out as integer arrays (cards
as indices, hands as 64-bit masks, claim and lead tables, antes and dealing orders per
dealer); :func:`play_many` plays a list of deals on them, from card orders given, with
the built-in players (``random``, ``greedy``, ``tips``: :data:`~.players.PLAYERS`)
choosing inside the kernel, and moves the chips in the caller's seats and sections.

The kernel is written in the subset of Python that numba compiles (``pip install
'boodle[kernel]'``); with numba it is compiled on first use and cached on disk
(:func:`cache_folder`, which works for an installed, read-only boodle too).  Without
numba the same function runs as plain Python (slow, but the same results): a caller
that wants speed without numba uses :func:`~.deal.play_deal`, the pure-Python compiled
engine.  The ``random`` player draws from the seat's own Mersenne Twister, stepped
here exactly as :class:`random.Random` steps it (:func:`_random`), so the kernel, the
compiled engine and the reference engine play the same deals with the same choices:
``tests/unit/test_kernel_agreement.py`` compares them deal by deal (plays, stops, claims,
payments and chips).

What it runs is what the compiled engine runs (:func:`~.tables.supports`), less lead
rules whose ties are broken by a rule (:func:`kernel_unsupported`), decks of at most
63 cards, more than one poker phase, and exact chips with a holding or poker phase (its
chips are whole).  Holding phases (spec §8.1) are card masks per section
(:func:`_holding_phase`).  Its poker phase (spec §8.2, §8.3: :func:`_poker_phase`) is the
compiled engine's (:mod:`.poker`) written over arrays: the betting round with the players'
bets, a hand evaluator on the hand's bitmask whose strengths are packed into one integer
(:func:`_hand_value`), the side pots.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boodle.compiled.tables import (
    HELD_BY,
    LEADS_INSTEAD,
    TIE_ORDERED,
    WIDOW,
    CompiledHolding,
    CompiledRules,
    _LeadCompiler,
    unsupported_features,
)
from boodle.engine.leads import SCOPES, holder_candidates
from boodle.language.model import BetLimit, ChipMode, Choice, LeadRule, Opener, Split, StopsPhase

PLAYER_CODES = {"random": 0, "greedy": 1, "tips": 2}
"""The players' codes in the kernel (:data:`~.players.PLAYERS`)."""

WHO_CODES = {"left of dealer": 0, "dealer": 1, "holder": 2, "last player": 3,
             "next player": 4}
"""The ``who`` of a lead rule the kernel runs (spec §6.1), as codes."""

EXACT, ANY, LOWEST_EACH, LONGEST, LOWEST_RANK = range(5)
"""The option kinds of a lead rule (spec §6.1, §6.4): the named card; any card of an
allowed suit; the lowest card of each allowed suit; the lowest of the longest allowed
suits; the lowest-ranked of those lowest cards (ties chosen by the player)."""

EVENT_NAMES = ("", "lead", "play", "claim", "pass", "flip", "penalty", "stop", "bonus",
               "out", "pay", "turn-up", "end", "bet", "showdown", "shown", "winner")
"""The event codes of the kernel's log (column 0), in :data:`~.deal.TraceItem` words; a
showdown is one ``showdown`` row then a ``shown`` row per hand and a ``winner`` row per best
seat, folded into one trace tuple (:func:`_items`)."""

BET_CODES: dict[BetLimit, int] = {"none": 0, "fixed": 1, "up to": 2, "pot limit": 3,
                                  "no limit": 4}
"""The bet limits (spec §8.3) as the kernel's codes; its sizes are those of
:data:`boodle.engine.stages.poker.BET_SIZES`, written out in :func:`_bet_sizes`."""

SPLIT_CODES: dict[Split, int] = {"share": 0, "first seat": 1, "lowest seat": 2}
"""The split of a pot among tied hands (spec §8.2, §9) as the kernel's codes."""

OPENER_CODES: dict[Opener, int] = {"dealer": 0, "left of dealer": 1}
"""Who opens a betting round (spec §8.3) as the kernel's codes."""

BET_ACTIONS = ("blind", "check", "bet", "call", "raise", "fold")
"""A betting round's actions (spec §8.3), by the kernel's code."""

P_POT, P_BETTING, P_LIMIT, P_SIZE, P_RAISES, P_OPENER, P_SPLIT, P_ACE_LOW, P_BEST, \
    P_NBLINDS, P_VALUES, P_BLINDS = range(1, 13)
"""Offsets in the kernel's ``poker`` array: ``poker[0]`` is 1 when the ruleset has a poker
phase; then its pot (section index), whether it bets, its bet limit (:data:`BET_CODES`), bet
size, raise cap (-1: none), opener (:data:`OPENER_CODES`), split (:data:`SPLIT_CODES`), ace
low (0/1), the cards a hand is made of (1-5), how many blinds, the offset of the cards'
poker values (2 … 14), the blinds."""

LOG_WIDTH = 5
"""Columns of a log row: code, then up to four integers."""


def cache_folder() -> Path | None:
    """Where numba keeps the compiled kernel: ``NUMBA_CACHE_DIR`` if set, else
    ``boodle/numba`` in the user's cache folder (:func:`boodle.resources.cache_dir`), so
    a boodle installed read-only caches too; ``None`` when no folder can be written (the
    kernel is then compiled in every process)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    from boodle.resources import cache_dir

    base = cache_dir()
    if base is None:
        return None
    folder = base / "numba"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def kernel_unsupported(t: CompiledRules) -> list[str]:
    """What the kernel does not run of ``t``'s ruleset (empty: it runs it)."""
    out = list(unsupported_features(t.ruleset))
    if t.capped:  # the pure-Python compiled engine plays it (compiled/deal.py)
        out.append("elimination at zero balance (the kernel's payments are not cut to the "
                   "balance, nor its seats out left out)")
    if t.by_section:  # likewise (compiled/deal.py _ante_by_section)
        out.append("short stack: section by section (the kernel keeps no seat's anted "
                   "sections)")
    if t.set_masks:  # likewise (compiled/deal.py _blocked)
        out.append("widow: blocks sets (the kernel reads no set in the widow)")
    if t.sale_at >= 0:  # likewise (compiled/widow.py)
        out.append(f"widow {t.ruleset.widow_sale.mode if t.ruleset.widow_sale else 'sale'} "
                   "(the kernel plays no choice before the stops phase but bets)")
    if t.n_cards > 63:
        out.append(f"a deck of {t.n_cards} cards (the kernel's hands are 63-bit masks)")
    if len(t.pokers) > 1:  # the pure-Python compiled engine plays them (compiled/poker.py)
        out.append("poker phases: " + ", ".join(p.name for p in t.pokers))
    if t.before and not WHOLE_CHIPS[t.ruleset.chips]:
        out.append("exact chips with a holding or poker phase (the kernel's chips are whole)")
    phase = next(p for p in t.ruleset.phases if isinstance(p, StopsPhase))
    rules = [phase.first_lead, phase.restart, *([phase.fallback.rule] if phase.fallback.rule
                                               else [])]
    if any(_kind(r) < 0 for r in rules):
        out.append("a lead rule whose ties are broken by a rule")
    return out


def _kind(rule: LeadRule) -> int:
    """The option kind of ``rule`` (-1: not in the kernel), as ``_LeadCompiler.options``."""
    return CHOICE_KINDS[rule.choice](rule)


def _lowest_kind(rule: LeadRule) -> int:
    """The option kind of a ``lowest …`` lead: by its scope's lowest, and its ties."""
    lowest = SCOPES[rule.scope].lowest
    if lowest == "longest suits":
        return LONGEST
    if lowest == "each suit":
        return LOWEST_EACH
    return -1 if TIE_ORDERED[rule.ties] else LOWEST_RANK


WHOLE_CHIPS: dict[ChipMode, bool] = {"whole": True, "exact": False}
"""Whether each chip mode's shares are whole chips, as the kernel's are (spec §9): under
``chips exact`` the kernel runs no holding or poker phase (:func:`kernel_unsupported`)."""


CHOICE_KINDS: dict[Choice, Callable[[LeadRule], int]] = {
    "lowest": _lowest_kind,
    "any": lambda rule: ANY,
    "card": lambda rule: EXACT,
}
"""The kernel's option kind of every lead choice (spec §6.1, §6.4), one row per member of
:data:`~boodle.language.model.Choice`, as :data:`~.tables.CHOICE_OPTIONS`."""


# ---------------------------------------------------------------- the arrays


@dataclass(frozen=True)
class KernelTables:
    """``t`` as arrays for one player count (built by :func:`kernel_tables`).

    ``ints``: the scalars (see :data:`_SCALARS`); card arrays ``nxt``, ``suit_of``,
    ``ranks``, ``suit_mask``; claims per trump table (``[table, card]``): ``simple``
    (the boodle a card claims alone, -1), ``set_start`` (offsets into ``set_sec``,
    ``set_need``), ``need`` (cards), ``bo_start``/``bo_sec`` (the boodles a card pays),
    ``boodle_mask``; leads: ``spec_kind``, ``spec_target``, ``allowed`` (``[spec,
    stopped + 1, flipped, i]`` suit masks, ``allowed_n`` how many), ``cand`` (``[lead,
    i]`` = card, spec); ``rec`` and ``turn_pos`` (dealing order per dealer), ``pay`` and
    ``put`` (antes per dealer), ``dues`` (amount, section, if able), ``out_takes``;
    ``poker``: the poker phase played before the stops phase, if any (offsets ``P_…``);
    ``before``: the phases before the stops phase, in order (:func:`_before_array`).
    """

    t: CompiledRules
    players: int
    ints: np.ndarray
    nxt: np.ndarray
    suit_of: np.ndarray
    ranks: np.ndarray
    suit_mask: np.ndarray
    simple: np.ndarray
    set_start: np.ndarray
    set_sec: np.ndarray
    set_need: np.ndarray
    need: np.ndarray
    bo_start: np.ndarray
    bo_sec: np.ndarray
    boodle_mask: np.ndarray
    spec_kind: np.ndarray
    spec_target: np.ndarray
    allowed: np.ndarray
    allowed_n: np.ndarray
    cand: np.ndarray
    cand_n: np.ndarray
    rec: np.ndarray
    turn_pos: np.ndarray
    pay: np.ndarray
    put: np.ndarray
    dues: np.ndarray
    out_takes: np.ndarray
    poker: np.ndarray
    before: np.ndarray

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in the kernel's argument order."""
        return (self.ints, self.nxt, self.suit_of, self.ranks, self.suit_mask, self.simple,
                self.set_start, self.set_sec, self.set_need, self.need, self.bo_start,
                self.bo_sec, self.boodle_mask, self.spec_kind, self.spec_target,
                self.allowed, self.allowed_n, self.cand, self.cand_n, self.rec,
                self.turn_pos, self.pay, self.put, self.dues, self.out_takes, self.poker,
                self.before)


_SCALARS = ("n_cards", "players", "n_sections", "kitty", "trumps", "turn_up_takes",
            "first_who", "restart_who", "has_fallback", "all_pass", "ap_per", "ap_to",
            "has_bonus", "bonus_amount", "bonus_src", "out_per_card", "out_to_kitty",
            "out_excused", "all_mask", "n_suits")
"""The names of ``KernelTables.ints``, in order."""

I_N, I_P, I_S, I_KITTY, I_TRUMPS, I_TAKES, I_FIRST, I_RESTART, I_FB, I_ALLPASS, I_APPER, \
    I_APTO, I_BONUS, I_BAMT, I_BSRC, I_PER, I_OUTK, I_EXC, I_ALL, I_NSUITS = range(20)


def kernel_tables(t: CompiledRules, players: int) -> KernelTables:
    """The arrays of ``t`` for ``players`` seats; raises ``ValueError`` for a ruleset the
    kernel does not run (:func:`kernel_unsupported`)."""
    gaps = kernel_unsupported(t)
    if gaps:
        raise ValueError(f"the kernel does not run {t.ruleset.name}: " + "; ".join(gaps))
    r = t.ruleset
    phase = next(p for p in r.phases if isinstance(p, StopsPhase))
    n, ns, nsuits = t.n_cards, len(t.section_names), len(t.suit_masks)
    i64 = np.int64
    tables = t.claim_tables
    simple = np.array([ct.boodle_claim for ct in tables], dtype=i64)
    set_start = np.zeros((len(tables), n + 1), dtype=i64)
    set_sec: list[int] = []
    set_need: list[int] = [0]
    need: list[int] = []
    bo_start = np.zeros((len(tables), n + 1), dtype=i64)
    bo_sec: list[int] = []
    for ti, ct in enumerate(tables):
        for c in range(n):
            set_start[ti, c] = len(set_sec)
            for k, needs in ct.set_claims[c]:
                set_sec.append(k)
                need.extend(needs)
                set_need.append(len(need))
            bo_start[ti, c] = len(bo_sec)
            bo_sec.extend(ct.boodle_of[c])
        set_start[ti, n] = len(set_sec)
        bo_start[ti, n] = len(bo_sec)
    lc = _LeadCompiler(r, t.cards, t.index, t.suit_of, t.suit_masks)
    specs: list[LeadRule] = []
    cands: list[list[tuple[int, int]]] = []

    def spec(rule: LeadRule) -> int:
        specs.append(rule)
        return len(specs) - 1

    for lead in (phase.first_lead, phase.restart):  # specs 0 and 1: the rules themselves
        spec(lead)
    spec(phase.fallback.rule if LEADS_INSTEAD[phase.fallback.kind] and phase.fallback.rule
         else LeadRule("left of dealer", "lowest", "all"))  # 2: the fallback (if any)
    none_held = spec(LeadRule("left of dealer", "lowest", "all"))  # 3: a holder held by none
    for lead in (phase.first_lead, phase.restart):
        found = holder_candidates(r, lead) if HELD_BY[lead.who] and (
            lead.holder_suit is not None or lead.card is not None) else []
        cands.append([(t.index[c], spec(in_force)) for c, in_force in found
                      if c in t.index] + [(-1, none_held)])
    allowed = np.zeros((len(specs), nsuits + 1, 2, nsuits), dtype=i64)
    allowed_n = np.zeros((len(specs), nsuits + 1, 2), dtype=i64)
    kind = np.zeros(len(specs), dtype=i64)
    target = np.full(len(specs), -1, dtype=i64)
    for i, rule in enumerate(specs):
        kind[i] = _kind(rule)
        if kind[i] == EXACT:
            target[i] = lc.target(rule)
            continue
        for st, row in enumerate(lc._allowed(rule)):
            for flip, masks in enumerate(row):
                allowed_n[i, st, flip] = len(masks)
                allowed[i, st, flip, :len(masks)] = masks
    width = max(len(c) for c in cands)
    cand = np.full((2, width, 2), -1, dtype=i64)
    cand_n = np.array([len(c) for c in cands], dtype=i64)
    for li, cl in enumerate(cands):
        for j, (c, s) in enumerate(cl):
            cand[li, j] = (c, s)
    rec = np.array([t.receivers(players, d) for d in range(players)], dtype=i64)
    turn_pos = np.array([t.turn_position(players, d) for d in range(players)], dtype=i64)
    antes = [t.antes(players, d) for d in range(players)]
    ints = [n, players, ns, t.kitty, int(t.trumps), int(t.turn_up_takes),
            WHO_CODES[phase.first_lead.who], WHO_CODES[phase.restart.who],
            int(t.fallback is not None), {"none": 0, "end": 1, "flip": 2}[t.all_pass],
            t.all_pass_charge[0], t.all_pass_charge[1], int(t.bonus is not None),
            t.bonus[0] if t.bonus else 0, t.bonus[1] if t.bonus else -1,
            t.out_per_card, t.out_to_kitty, t.out_excused, t.all_mask, nsuits]
    return KernelTables(
        t=t, players=players, ints=np.array(ints, dtype=i64),
        nxt=np.array(t.nxt, dtype=i64), suit_of=np.array(t.suit_of, dtype=i64),
        ranks=np.array(t.ranks, dtype=i64), suit_mask=np.array(t.suit_masks, dtype=i64),
        simple=simple, set_start=set_start, set_sec=np.array(set_sec + [0], dtype=i64),
        set_need=np.array(set_need, dtype=i64), need=np.array(need + [0], dtype=i64),
        bo_start=bo_start, bo_sec=np.array(bo_sec + [0], dtype=i64),
        boodle_mask=np.array([ct.boodle_mask for ct in tables], dtype=i64),
        spec_kind=kind, spec_target=target, allowed=allowed, allowed_n=allowed_n,
        cand=cand, cand_n=cand_n, rec=rec, turn_pos=turn_pos,
        pay=np.array([a[0] for a in antes], dtype=i64),
        put=np.array([a[1] for a in antes], dtype=i64),
        dues=np.array(t.pass_dues or [(0, 0, 0)], dtype=i64).reshape(-1, 3)[
            :len(t.pass_dues) or 0] if t.pass_dues else np.zeros((0, 3), dtype=i64),
        out_takes=np.array(t.out_takes, dtype=i64),
        poker=_poker_array(t),
        before=_before_array(t),
    )


def _before_array(t: CompiledRules) -> np.ndarray:
    """The phases before the stops phase (spec §8.1-§8.3) as one array: their count ``m``,
    then per phase its kind (0 holding, 1 poker: the ``poker`` array) and the offset of its
    record; a holding phase's record is its split (:data:`SPLIT_CODES`), how many sections
    it pays, their indices, then per claim table (one, or one per trump suit) and per
    section the number of card masks that qualify a hand and the masks (spec §8.1)."""
    heads: list[int] = []
    records: list[int] = []
    base = 1 + 2 * len(t.before)
    for b in t.before:
        if isinstance(b, CompiledHolding):
            heads += [0, base + len(records)]
            records += [SPLIT_CODES[b.split], len(b.sections), *b.sections]
            for table in b.masks:
                for k in b.sections:
                    records += [len(table[k]), *table[k]]
        else:
            heads += [1, 0]
    return np.array([len(t.before), *heads, *records], dtype=np.int64)


def _poker_array(t: CompiledRules) -> np.ndarray:
    """The kernel's ``poker`` array of ``t`` (see ``P_POT`` …): ``[0]`` without a poker
    phase."""
    if not t.pokers:
        return np.zeros(1, dtype=np.int64)
    ph = t.pokers[0]
    head = [1, ph.pot, int(ph.betting), BET_CODES[ph.phase.bets], ph.phase.bet, ph.raises,
            OPENER_CODES[ph.phase.opener], SPLIT_CODES[ph.split], int(ph.ace_low),
            ph.best_of, len(ph.blinds), P_BLINDS + len(ph.blinds)]
    return np.array([*head, *ph.blinds, *t.poker_value], dtype=np.int64)


# ---------------------------------------------------------------- the kernel


CTZ16 = np.array([0] + [(i & -i).bit_length() - 1 for i in range(1, 1 << 16)], dtype=np.int64)
"""The index of the lowest set bit of every 16-bit number (0 for 0)."""

POP16 = np.array([i.bit_count() for i in range(1 << 16)], dtype=np.int64)
"""The set bits of every 16-bit number."""


def _ctz(x: int) -> int:
    """The index of the lowest set bit of ``x`` (> 0), 16 bits at a time."""
    i = 0
    while (x & 0xFFFF) == 0:
        x >>= 16
        i += 16
    return i + CTZ16[x & 0xFFFF]


def _popcount(x: int) -> int:
    """The set bits of ``x`` (>= 0), 16 bits at a time."""
    n = 0
    while x:
        n += POP16[x & 0xFFFF]
        x >>= 16
    return n


def _random(mts: Any, r: int) -> float:
    """The next :meth:`random.Random.random` of the Mersenne Twister state ``mts[r]`` (624
    words then the index, as in :meth:`random.Random.getstate`), stepped in place."""
    a = _genrand(mts, r) >> 5
    b = _genrand(mts, r) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def _genrand(mt: Any, r: int) -> int:
    """MT19937's next 32-bit output (CPython's ``genrand_uint32``) of the state ``mt[r]``."""
    m32 = 0xFFFFFFFF
    if mt[r, 624] >= 624:  # the reload, in three runs (no index taken modulo 624)
        for kk in range(227):
            y = (mt[r, kk] & 0x80000000) | (mt[r, kk + 1] & 0x7FFFFFFF)
            mt[r, kk] = mt[r, kk + 397] ^ (y >> 1) ^ ((y & 1) * 0x9908B0DF)
        for kk in range(227, 623):
            y = (mt[r, kk] & 0x80000000) | (mt[r, kk + 1] & 0x7FFFFFFF)
            mt[r, kk] = mt[r, kk - 227] ^ (y >> 1) ^ ((y & 1) * 0x9908B0DF)
        y = (mt[r, 623] & 0x80000000) | (mt[r, 0] & 0x7FFFFFFF)
        mt[r, 623] = mt[r, 396] ^ (y >> 1) ^ ((y & 1) * 0x9908B0DF)
        mt[r, 624] = 0
    y = mt[r, mt[r, 624]]
    mt[r, 624] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & m32


def _log(log: Any, at: int, code: int, a: int, b: int, c: int, d: int) -> int:
    if at < log.shape[0]:
        log[at, 0] = code
        log[at, 1] = a
        log[at, 2] = b
        log[at, 3] = c
        log[at, 4] = d
    return at + 1


def _take(sections: Any, seats: Any, taken: Any, k: int, p: int) -> int:
    amount = sections[k]
    sections[k] = 0
    seats[p] += amount
    taken[k] = amount if taken[k] < 0 else taken[k] + amount
    return amount


# ---------------------------------------------------------------- the poker phase


def _tops(values: int, k: int, acc: int, length: int) -> tuple[int, int]:
    """``acc`` (values, 4 bits each) with the ``k`` highest values of the mask ``values``
    (bit v: value v) appended, highest first, and its new length."""
    v = 14
    added = 0
    while added < k and v >= 2:
        if (values >> v) & 1:
            acc = acc * 16 + v
            length += 1
            added += 1
        v -= 1
    return acc, length


def _straight_top(values: int, ace_low: int) -> int:
    """The top value of the highest straight in the mask ``values`` (0: none)."""
    if ace_low and (values >> 14) & 1:
        values |= 2  # the ace also plays as 1: A-2-3-4-5, whose top card is 5
    for top in range(14, 4, -1):
        if (values >> (top - 4)) & 0b11111 == 0b11111:
            return top
    return 0


def _hand_value(hand: int, poker: Any, suit_of: Any, counts: Any, by_suit: Any
                ) -> tuple[int, int]:
    """The strength of the best poker hand of the phase's ``best: N cards`` in ``hand`` (spec
    §8.2), as :func:`boodle.compiled.poker.hand_strength` gives it, packed so that integers
    compare as the strengths do: the category in bits 20-23, then the tie-break values 4 bits
    each from bit 16 down (zeros after the last); and how many values (the strength's length
    less 1).  A hand of fewer than five cards, or N < 5, makes pairs and sets only: the best
    N cards (all of a shorter hand), as :mod:`boodle.engine.poker_hands` ranks them."""
    off = poker[P_VALUES]
    ace_low = poker[P_ACE_LOW]
    for v in range(15):
        counts[v] = 0
    for q in range(by_suit.shape[0]):
        by_suit[q] = 0
    x = hand
    held = 0
    while x:
        low = x & -x
        c = _ctz(low)
        v = poker[off + c]
        counts[v] += 1
        by_suit[suit_of[c]] |= 1 << v
        x ^= low
        held += 1
    size = min(poker[P_BEST], held)
    cat = 0
    acc = 0
    length = 0
    best_sf = 0
    best_flush = -1
    for q in range(by_suit.shape[0]):
        if _popcount(by_suit[q]) >= 5:
            best_sf = max(best_sf, _straight_top(by_suit[q], ace_low))
            fl, _ = _tops(by_suit[q], 5, 0, 0)
            best_flush = max(best_flush, fl)
    present = 0
    quad = 0
    trip = 0
    pair1 = 0
    pair2 = 0
    full = 0
    for v in range(14, 1, -1):
        if counts[v]:
            present |= 1 << v
        if counts[v] >= 4 and quad == 0:
            quad = v
        if counts[v] >= 3 and trip == 0:
            trip = v
        elif counts[v] >= 2 and full == 0:
            full = v  # the best pair beside the best trips (another trips included)
        if counts[v] >= 2:
            if pair1 == 0:
                pair1 = v
            elif pair2 == 0:
                pair2 = v
    if size < 5:  # pairs and sets only, of ``size`` cards
        if quad and size >= 4:
            cat = 7
            acc, length = _tops(present & ~(1 << quad), size - 4, quad, 1)
        elif trip and size >= 3:
            cat = 3
            acc, length = _tops(present & ~(1 << trip), size - 3, trip, 1)
        elif pair2 and size >= 4:
            cat = 2
            acc, length = _tops(present & ~(1 << pair1) & ~(1 << pair2), size - 4,
                                pair1 * 16 + pair2, 2)
        elif pair1 and size >= 2:
            cat = 1
            acc, length = _tops(present & ~(1 << pair1), size - 2, pair1, 1)
        else:
            acc, length = _tops(present, size, 0, 0)
    elif best_sf:
        cat, acc, length = 8, best_sf, 1
    elif quad:
        cat = 7
        acc, length = _tops(present & ~(1 << quad), 1, quad, 1)
    elif trip and full:
        cat, acc, length = 6, trip * 16 + full, 2
    elif best_flush >= 0:
        cat, acc, length = 5, best_flush, 5
    elif _straight_top(present, ace_low):
        cat, acc, length = 4, _straight_top(present, ace_low), 1
    elif trip:
        cat = 3
        acc, length = _tops(present & ~(1 << trip), 2, trip, 1)
    elif pair2:
        cat = 2
        acc, length = _tops(present & ~(1 << pair1) & ~(1 << pair2), 1, pair1 * 16 + pair2, 2)
    elif pair1:
        cat = 1
        acc, length = _tops(present & ~(1 << pair1), 3, pair1, 1)
    else:
        acc, length = _tops(present, 5, 0, 0)
    return (cat << 20) | (acc << (4 * (5 - length))), length


def _bet_sizes(poker: Any, pot: int, owed: int) -> tuple[int, int, int]:
    """(least, most or -1 for no bound, step) of one bet or raise, as
    :data:`boodle.engine.stages.poker.BET_SIZES` (spec §8.3), by :data:`BET_CODES`."""
    limit = poker[P_LIMIT]
    size = poker[P_SIZE]
    if limit == 1:  # fixed
        return size, size, size
    if limit == 2:  # up to
        return 1, size, 1
    if limit == 3:  # pot limit: the pot after the call
        return 1, max(pot + owed, 1), 1
    return 1, -1, 1  # no limit


def _holding_phase(before: Any, rec: int, ti: int, n: int, dealer: int, hands: Any,
                   seats: Any, sections: Any, taken: Any, log: Any, at: int) -> int:
    """The holding phase whose record starts at ``before[rec]`` (spec §8.1), as
    :func:`boodle.compiled.deal._pay_holders` pays it, for claim table ``ti``: each
    section in turn to the seats holding one of its masks, split by the phase's rule in
    whole chips (spec §9), the shares clockwise from the dealer's left.  Returns the log's
    next row."""
    split = before[rec]
    nsec = before[rec + 1]
    pos = rec + 2 + nsec
    for _ in range(ti):  # skip the tables before ti
        for _ in range(nsec):
            pos += 1 + before[pos]
    for j in range(nsec):
        k = before[rec + 2 + j]
        nalt = before[pos]
        count = 0
        for s in range(n):
            for a in range(nalt):
                m = before[pos + 1 + a]
                if hands[s] & m == m:
                    count += 1
                    break
        if count:
            ways = count if split == 0 else 1
            share = sections[k] // ways
            for i in range(n):
                s = i if split == 2 else (dealer + 1 + i) % n
                if ways == 0:
                    break
                for a in range(nalt):
                    m = before[pos + 1 + a]
                    if hands[s] & m == m:
                        ways -= 1
                        sections[k] -= share
                        seats[s] += share
                        taken[k] = share if taken[k] < 0 else taken[k] + share
                        if log.shape[0] > 0:
                            at = _log(log, at, 3, s, k, share, 0)
                        break
        pos += 1 + nalt
    return at


def _poker_phase(poker: Any, n: int, dealer: int, hands: Any, seats: Any, sections: Any,
                 taken: Any, players: Any, mts: Any, suit_of: Any, log: Any, at: int,
                 put: Any, folded: Any, acted: Any, shown: Any, counts: Any,
                 by_suit: Any) -> int:
    """The poker phase (spec §8.2, §8.3) as :func:`boodle.compiled.poker.play_poker` plays
    it: the blinds, the betting round (the players' bets as :mod:`boodle.compiled.players`
    makes them: random by ``_randbelow``, draw for draw as :meth:`random.Random.randrange`;
    greedy and tips by the category of the best hand), then the showdown paid in layers to
    the best hands.  Chips whole (the kernel refuses exact chips here).  Returns the log's
    next row."""
    do_log = log.shape[0] > 0
    pot = poker[P_POT]
    betting = poker[P_BETTING]
    for s in range(n):
        put[s] = 0
        folded[s] = 0
        acted[s] = 0
    if betting:
        level = 0
        raises = 0
        opener = dealer if poker[P_OPENER] == 0 else (dealer + 1) % n
        last = -1
        for i in range(min(poker[P_NBLINDS], n)):
            who = (opener + i) % n
            last = who
            amount = min(poker[P_BLINDS + i], max(seats[who], 0))
            if amount < 1:
                continue
            seats[who] -= amount
            sections[pot] += amount
            put[who] += amount
            level = max(level, put[who])
            if do_log:
                at = _log(log, at, 13, who, 0 * 2 + int(seats[who] < 1), amount, level)
        start = opener if last < 0 else last
        first = last < 0
        while True:
            live = 0
            able = 0
            lone = -1
            for s in range(n):
                if not folded[s]:
                    live += 1
                    if seats[s] >= 1:
                        able += 1
                        lone = s
            if live == 1 or (able == 1 and level == put[lone]):
                break
            who = -1
            for i in range(0 if first else 1, n + 1):
                c = (start + i) % n
                if not folded[c] and seats[c] >= 1 and (not acted[c] or level > put[c]):
                    who = c
                    break
            if who < 0:
                break
            balance = max(seats[who], 0)
            owed = level - put[who]
            least, most, step = _bet_sizes(poker, max(sections[pot], 0), owed)
            lo = -1
            hi = -1
            if owed == 0:
                if balance >= least:
                    lo = least
                    hi = balance if most < 0 else min(most, balance)
            elif (poker[P_RAISES] < 0 or raises < poker[P_RAISES]) and balance >= owed + least:
                lo = owed
                hi = owed + (balance - owed if most < 0 else min(most, balance - owed))
            else:
                lo = min(owed, balance)
                hi = lo
            if hi <= lo:
                step = 1
            size = 0 if lo < 0 else (hi - lo) // step + 1
            amount = -1  # the pass
            if players[who] == 0:  # random (players.random_bettor)
                r = who if mts.shape[0] > 1 else 0
                if _randbelow(mts, r, 1 if lo < 0 else 2) == 1:
                    amount = lo + step * _randbelow(mts, r, size)
            elif lo >= 0:  # greedy and tips (players.greedy_bettor)
                value, _ = _hand_value(hands[who], poker, suit_of, counts, by_suit)
                cat = value >> 20
                if cat >= 2:
                    amount = lo + step * (size - 1)
                elif cat == 1 and owed > 0:
                    amount = lo
            if amount < 0:
                if owed == 0:
                    acted[who] = 1
                    action = 1  # check
                else:
                    folded[who] = 1
                    action = 5  # fold
                if do_log:
                    at = _log(log, at, 13, who, action * 2, 0, level)
            else:
                seats[who] -= amount
                sections[pot] += amount
                put[who] += amount
                if put[who] > level:
                    action = 2 if level == 0 else 4  # bet, raise
                    if action == 4:
                        raises += 1
                    level = put[who]
                    for s in range(n):
                        acted[s] = 0
                else:
                    action = 3  # call
                acted[who] = 1
                if do_log:
                    at = _log(log, at, 13, who, action * 2 + int(seats[who] < 1), amount,
                              level)
            start = who
            first = False
    # ---- the showdown (spec §8.2): the hands of the seats still in, clockwise
    live = 0
    for s in range(n):
        live += 1 - folded[s]
    folded_out = betting != 0 and live == 1
    best = -1
    n_shown = 0
    for i in range(n):
        s = (dealer + 1 + i) % n
        shown[s] = -1
        if not folded[s] and hands[s] and not folded_out:
            shown[s], _ = _hand_value(hands[s], poker, suit_of, counts, by_suit)
            best = max(best, shown[s])
            n_shown += 1
    split = poker[P_SPLIT]
    if do_log:
        n_win = 0
        for s in range(n):
            n_win += int(shown[s] == best and best >= 0) + int(folded_out and not folded[s])
        at = _log(log, at, 14, n_shown, n_win, 0, 0)
        for i in range(n):
            s = (dealer + 1 + i) % n
            if shown[s] >= 0:
                _, length = _hand_value(hands[s], poker, suit_of, counts, by_suit)
                at = _log(log, at, 15, s, shown[s], length, 0)
        for i in range(n):  # the winners in the split's order
            s = i if split == 2 else (dealer + 1 + i) % n
            if (shown[s] == best and best >= 0) or (folded_out and not folded[s]):
                at = _log(log, at, 16, s, 0, 0, 0)
    # ---- the pots: each layer of bets to the best hands that put in that much (§8.3);
    # without bets (every put 0) one layer: the whole pot to the best hands
    pot_chips = sections[pot]
    if folded_out:  # everyone else folded: the whole pot, no layers
        for s in range(n):
            if not folded[s]:
                sections[pot] -= pot_chips
                seats[s] += pot_chips
                taken[pot] = pot_chips if taken[pot] < 0 else taken[pot] + pot_chips
                if do_log:
                    at = _log(log, at, 3, s, pot, pot_chips, 0)
        return at
    total = 0
    for s in range(n):
        total += put[s]
    below = -1  # the level of the layer before (-1: none yet)
    while True:
        level = -1  # the next level a seat still in put in
        for s in range(n):
            if not folded[s] and put[s] > below and (level < 0 or put[s] < level):
                level = put[s]
        if level < 0:
            break
        chips = pot_chips - total if below < 0 else 0  # the main pot holds the antes
        for s in range(n):
            chips += min(put[s], level) - min(put[s], max(below, 0))
        top = -1
        takers = 0
        for s in range(n):
            if not folded[s] and put[s] >= level and shown[s] >= 0:
                if shown[s] > top:
                    top = shown[s]
                    takers = 0
                if shown[s] == top:
                    takers += 1
        if takers:
            ways = takers if split == 0 else 1
            share = chips // ways
            for i in range(n):
                s = i if split == 2 else (dealer + 1 + i) % n
                if ways > 0 and not folded[s] and put[s] >= level and shown[s] == top:
                    ways -= 1
                    sections[pot] -= share
                    seats[s] += share
                    taken[pot] = share if taken[pot] < 0 else taken[pot] + share
                    if do_log:
                        at = _log(log, at, 3, s, pot, share, 0)
        below = level
    return at


def play_many(ints: Any, nxt: Any, suit_of: Any, ranks: Any, suit_mask: Any, simple: Any,
              set_start: Any, set_sec: Any, set_need: Any, need: Any, bo_start: Any,
              bo_sec: Any, boodle_mask: Any, spec_kind: Any, spec_target: Any, allowed: Any,
              allowed_n: Any, cand: Any, cand_n: Any, rec: Any, turn_pos: Any, pay: Any,
              put: Any, dues: Any, out_takes: Any, poker: Any, before: Any, perms: Any,
              dealers: Any, players: Any,
              mts: Any, seats: Any, sections: Any, winners: Any, counts: Any, log: Any,
              log_end: Any, taken_out: Any, session: Any, seats_after: Any,
              sections_after: Any, done: Any) -> int:
    """Play deal ``i`` of ``perms`` (card orders) with dealer ``dealers[i]``, for each i.

    ``players[seat]``: :data:`PLAYER_CODES`; ``mts[seat]``: its random state (625 words;
    ``mts`` of one row: one state that every seat draws from, in the order of play);
    ``seats``, ``sections``: chips, changed in place; ``winners[i]``: the seat that went
    out (-1: none); ``counts[i]``: plays, leads, passes; ``log`` (rows of
    :data:`LOG_WIDTH`, may have no rows): the events, ``log_end[i]`` the rows written up
    to deal ``i``'s end (past the log's end: not written); ``taken_out[i, k]`` (may have
    no rows): the chips section ``k`` paid out in deal ``i`` (-1: not taken).  Returns 0,
    or ``1 + i`` for a deal ``i`` where a lead rule and its fallback both allowed no card
    (the deal stops there; the reference engine's ``NotSupported``).

    ``session``: ``[0, ...]``, or ``[1, dealer, step, low_end, target]`` to play up to
    ``winners.shape[0]`` deals of a session as :func:`play_session` describes (``perms``
    then unused: each deal shuffled from ``mts[0]``; ``dealers`` written, from ``dealer``
    on); ``seats_after[i]``, ``sections_after[i]`` (session only): the chips after deal
    ``i``; ``done[0]`` (session only): the deals played.
    """
    n_cards = ints[I_N]
    n = ints[I_P]
    ns = ints[I_S]
    at = 0
    do_log = log.shape[0] > 0  # the events are written only into a log with rows
    own = np.zeros(n_cards, dtype=np.int64)
    hands = np.zeros(n, dtype=np.int64)
    held = np.zeros(n, dtype=np.int64)
    taken = np.zeros(ns, dtype=np.int64)
    opts = np.zeros(n_cards, dtype=np.int64)
    cards = np.zeros(n_cards, dtype=np.int64)
    keys = np.zeros(n_cards, dtype=np.float64)
    bet_put = np.zeros(n, dtype=np.int64)  # the poker phase's scratch (_poker_phase)
    folded = np.zeros(n, dtype=np.int64)
    acted = np.zeros(n, dtype=np.int64)
    shown = np.zeros(n, dtype=np.int64)
    value_counts = np.zeros(15, dtype=np.int64)
    by_suit = np.zeros(suit_mask.shape[0], dtype=np.int64)
    shuffling = session[0]
    dealer = session[1]
    for i in range(winners.shape[0] if shuffling else perms.shape[0]):
        if shuffling:  # n_cards uniform keys in card order, a stable sort (as sorted()):
            for j in range(n_cards):  # each card inserted after those of keys <= its own
                key = _random(mts, 0)  # (numba's argsort took 2/3 of a simulated deal)
                q = j
                while q > 0 and keys[q - 1] > key:
                    keys[q] = keys[q - 1]
                    cards[q] = cards[q - 1]
                    q -= 1
                keys[q] = key
                cards[q] = j
            dealers[i] = dealer
        else:
            for j in range(n_cards):
                cards[j] = perms[i, j]
            dealer = dealers[i]
        for s in range(n):
            hands[s] = 0
            held[s] = 0
        for j in range(n_cards):
            c = cards[j]
            w = rec[dealer, j]
            own[c] = w
            if w >= 0:
                hands[w] |= 1 << c
                held[w] += 1
        for s in range(n):
            seats[s] -= pay[dealer, s]
        for k in range(ns):
            sections[k] += put[dealer, k]
            taken[k] = -1
        widow_size = n_cards
        for s in range(n):
            widow_size -= held[s]
        ti = 0
        if ints[I_TRUMPS]:
            tu = cards[turn_pos[dealer]]
            ti = suit_of[tu]
            if do_log:
                at = _log(log, at, 11, tu, 0, 0, 0)
            if ints[I_TAKES]:
                for j in range(bo_start[ti, tu], bo_start[ti, tu + 1]):
                    k = bo_sec[j]
                    amount = _take(sections, seats, taken, k, dealer)
                    if do_log:
                        at = _log(log, at, 3, dealer, k, amount, 0)
        for bi in range(before[0]):  # the phases before the stops phase (spec §8.1-§8.3)
            if before[1 + 2 * bi] == 1:
                at = _poker_phase(poker, n, dealer, hands, seats, sections, taken, players,
                                  mts, suit_of, log, at, bet_put, folded, acted, shown,
                                  value_counts, by_suit)
            else:
                at = _holding_phase(before, before[2 + 2 * bi], ti, n, dealer, hands, seats,
                                    sections, taken, log, at)
        restart = 0
        flipped = 0
        stopped = -1
        passes = 0
        plays = 0
        leads = 0
        npass = 0
        winner = -1
        revealed = 0
        played = 0  # the cards played (a mask)
        lead = 0  # 0: the first lead's rule, 1: the restart's
        who = ints[I_FIRST]
        p = -1
        failed = False
        # the leader and the spec in force (spec §6.1)
        while True:
            # ---- who leads, and under which options
            if p < 0 or (restart and who != 3):
                if who == 0:
                    p = (dealer + 1) % n
                elif who == 1:
                    p = dealer
                elif who == 4:
                    p = (p + 1) % n
                elif who == 2:
                    p = -1
            sp = lead
            if who == 2:
                for j in range(cand_n[lead]):
                    c = cand[lead, j, 0]
                    if c < 0 or own[c] >= 0:
                        sp = cand[lead, j, 1]
                        if p < 0:
                            p = (dealer + 1) % n if c < 0 else own[c]
                        break
            # ---- a lead is due by p (spec §6.1, §6.4, §6.5)
            use = sp  # the rule whose options are taken: sp, then the fallback (2)
            while True:
                hand = hands[p]
                st = stopped + 1
                # the cards rule ``use`` allows from ``hand`` (allowed[use, st, flipped]: the
                # suits), ascending, into opts[:k_opts] (written out, as the choice below)
                kind = spec_kind[use]
                k_opts = 0
                if kind == EXACT:  # the named card
                    tg = spec_target[use]
                    if tg >= 0 and (hand >> tg) & 1:
                        opts[0] = tg
                        k_opts = 1
                else:
                    most = 0
                    for ia in range(allowed_n[use, st, flipped]):
                        y = hand & allowed[use, st, flipped, ia]
                        if y == 0:
                            continue
                        if kind == ANY:  # every card of the suit
                            while y:
                                lowb = y & -y
                                opts[k_opts] = _ctz(lowb)
                                k_opts += 1
                                y ^= lowb
                        elif kind == LONGEST:  # the lowest of the longest suits
                            mm = _popcount(y)
                            if mm >= most:
                                if mm > most:
                                    most = mm
                                    k_opts = 0
                                opts[k_opts] = _ctz(y)
                                k_opts += 1
                        else:  # the lowest of each suit
                            opts[k_opts] = _ctz(y)
                            k_opts += 1
                    if kind == LOWEST_RANK and k_opts > 1:  # of those, the lowest ranked
                        lr = ranks[opts[0]]
                        for ia in range(1, k_opts):
                            lr = min(lr, ranks[opts[ia]])
                        jj = 0
                        for ia in range(k_opts):
                            if ranks[opts[ia]] == lr:
                                opts[jj] = opts[ia]
                                jj += 1
                        k_opts = jj
                if k_opts == 0:
                    if not ints[I_FB]:
                        npass += 1
                        for d in range(dues.shape[0]):
                            amount = dues[d, 0]
                            to = dues[d, 1]
                            if dues[d, 2] and seats[p] < amount:
                                continue
                            if to >= 0:
                                seats[p] -= amount
                                sections[to] += amount
                                if do_log:
                                    at = _log(log, at, 6, p, amount, to, 0)
                            else:
                                for q in range(1, n):
                                    seats[p] -= amount
                                    seats[(p + q) % n] += amount
                                    if do_log:
                                        at = _log(log, at, 6, p, amount, -1 - (p + q) % n, 0)
                        if do_log:
                            at = _log(log, at, 4, p, 0, 0, 0)
                        passes += 1
                        p = (p + 1) % n
                        if passes < n:
                            continue
                        if ints[I_ALLPASS] == 1:
                            to = ints[I_APTO]
                            if to >= 0:
                                for q in range(1, n + 1):
                                    payer = (dealer + q) % n
                                    amount = ints[I_APPER] * held[payer]
                                    seats[payer] -= amount
                                    sections[to] += amount
                                    if do_log:
                                        at = _log(log, at, 10, payer, amount, 0, 0)
                            break
                        flipped = 1 - flipped
                        passes = 0
                        if do_log:
                            at = _log(log, at, 5, flipped, 0, 0, 0)
                        continue
                    if use != 2:
                        use = 2  # the fallback's options, for the same seat
                        continue
                    failed = True
                break
            if failed or k_opts == 0:
                break  # the all-pass ended the deal, or no card at all (failed)
            # ---- the player's choice
            # (written out here, not called: each array handed to an inlined function
            # costs a reference count, more than the choice itself; see the profile in
            # bench/kernel_profile.py)
            if k_opts == 1:
                c = opts[0]
            elif players[p] == 0:  # random (players.random_chooser)
                c = opts[int(_random(mts, p if mts.shape[0] > 1 else 0) * k_opts)]
            elif players[p] == 1:  # greedy (players.greedy_chooser)
                c = opts[0] if held[p] == 1 else -1  # go out
                for io in range(k_opts):  # else a claim
                    if c >= 0:
                        break
                    o = opts[io]
                    sk = simple[ti, o]
                    if sk >= 0:
                        if sections[sk] > 0:
                            c = o
                        continue
                    for j in range(set_start[ti, o], set_start[ti, o + 1]):
                        if sections[set_sec[j]] > 0:
                            ok = True
                            for x in range(set_need[j], set_need[j + 1]):
                                if own[need[x]] != -2 - p:
                                    ok = False
                                    break
                            if ok:
                                c = o
                                break
                if c < 0:  # else the longest suit
                    c = opts[0]
                    most = -1
                    for io in range(k_opts):
                        m = _popcount(hand & suit_mask[suit_of[opts[io]]])
                        if m > most:
                            most = m
                            c = opts[io]
            else:  # tips (players.tips_chooser)
                dead = played | revealed
                unseen = _popcount(ints[I_ALL] & ~hand & ~dead)
                hidden = widow_size - _popcount(revealed)
                p_widow = hidden / unseen if unseen else 0.0
                comes_back = ints[I_RESTART] == 3
                c = opts[0]
                best_score = -np.inf
                for io in range(k_opts):
                    o = opts[io]
                    y = o
                    chain = 1 << o
                    gain = 0
                    for j in range(bo_start[ti, o], bo_start[ti, o + 1]):
                        gain += sections[bo_sec[j]]
                    ny = nxt[y]
                    while ny >= 0 and (hand >> ny) & 1:
                        y = ny
                        chain |= 1 << ny
                        for j in range(bo_start[ti, ny], bo_start[ti, ny + 1]):
                            gain += sections[bo_sec[j]]
                        ny = nxt[y]
                    length = _popcount(chain)
                    if length == held[p]:
                        c = o
                        break
                    suit = hand & suit_mask[suit_of[o]]
                    waiting = 0
                    rest = suit & ~chain & boodle_mask[ti]
                    while rest:
                        low = rest & -rest
                        b = _ctz(low)
                        for j in range(bo_start[ti, b], bo_start[ti, b + 1]):
                            waiting += sections[bo_sec[j]]
                        rest ^= low
                    p_stop = 1.0 if ny < 0 or (dead >> ny) & 1 else p_widow
                    score = (gain - waiting + (2.0 * p_stop if comes_back else 0.0)
                             + 0.5 * length - 0.25 * _popcount(suit))
                    if score > best_score:
                        c = o
                        best_score = score
            passes = 0
            flipped = 0
            leads += 1
            if do_log:
                at = _log(log, at, 1, p, c, restart, 0)
            # ---- the run: c, then every forced follow (spec §6.2, §6.3, §6.6)
            nx = -1
            while True:
                hands[p] ^= 1 << c
                played |= 1 << c
                own[c] = -2 - p
                held[p] -= 1
                plays += 1
                k = simple[ti, c]
                if k >= 0:
                    amount = _take(sections, seats, taken, k, p)
                    if do_log:
                        at = _log(log, at, 3, p, k, amount, 0)
                else:
                    for j in range(set_start[ti, c], set_start[ti, c + 1]):
                        ok = True
                        for x in range(set_need[j], set_need[j + 1]):
                            if own[need[x]] != -2 - p:
                                ok = False
                                break
                        if ok:
                            k = set_sec[j]
                            amount = _take(sections, seats, taken, k, p)
                            if do_log:
                                at = _log(log, at, 3, p, k, amount, 0)
                if held[p] == 0:
                    break
                nx = nxt[c]
                if nx < 0:
                    break
                q = own[nx]
                if q < 0:
                    break
                c = nx
                p = q
                if do_log:
                    at = _log(log, at, 2, p, c, 0, 0)
            if held[p] == 0:
                winner = p
                if do_log:
                    at = _log(log, at, 9, p, 0, 0, 0)
                kitty = ints[I_OUTK]
                if kitty >= 0:
                    at = _payments(ints, p, n, hands, held, seats, sections, kitty, log, at)
                for j in range(out_takes.shape[0]):
                    k = out_takes[j]
                    amount = _take(sections, seats, taken, k, p)
                    if do_log:
                        at = _log(log, at, 3, p, k, amount, 0)
                if kitty < 0:
                    at = _payments(ints, p, n, hands, held, seats, sections, -1, log, at)
                break
            # ---- a stop (spec §6.3, §6.7)
            if nx >= 0 and own[nx] == -1:
                revealed |= 1 << nx
            if do_log:
                at = _log(log, at, 7, p, c, nx, -1 if nx < 0 else (2 if own[nx] == -1 else 3))
            if ints[I_BONUS]:
                each = ints[I_BAMT]
                src = ints[I_BSRC]
                if src < 0:
                    for q in range(1, n):
                        seats[(p + q) % n] -= each
                        seats[p] += each
                        if do_log:
                            at = _log(log, at, 8, p, each, 0, 0)
                else:
                    amount = min(each, sections[src])
                    sections[src] -= amount
                    seats[p] += amount
                    if do_log:
                        at = _log(log, at, 8, p, amount, 0, 0)
            if not restart:
                restart = 1
                lead = 1
                who = ints[I_RESTART]
            stopped = suit_of[c]
        if do_log:
            at = _log(log, at, 12, winner, 0, 0, 0)
        winners[i] = winner
        counts[i, 0] = plays
        counts[i, 1] = leads
        counts[i, 2] = npass
        log_end[i] = at
        if taken_out.shape[0] > 0:
            for k in range(ns):
                taken_out[i, k] = taken[k]
        if failed:
            return 1 + i
        if shuffling:
            low = seats[0]
            high = seats[0]
            for s in range(n):
                seats_after[i, s] = seats[s]
                low = min(low, seats[s])
                high = max(high, seats[s])
            for k in range(ns):
                sections_after[i, k] = sections[k]
            done[0] = i + 1
            if (session[3] and low <= 0) or high >= session[4]:
                return 0
            dealer = (dealer + session[2] + n) % n
    return 0


def play_session(ints: Any, nxt: Any, suit_of: Any, ranks: Any, suit_mask: Any,
                 simple: Any, set_start: Any, set_sec: Any, set_need: Any, need: Any,
                 bo_start: Any, bo_sec: Any, boodle_mask: Any, spec_kind: Any,
                 spec_target: Any, allowed: Any, allowed_n: Any, cand: Any, cand_n: Any,
                 rec: Any, turn_pos: Any, pay: Any, put: Any, dues: Any, out_takes: Any,
                 poker: Any, before: Any, players: Any, mt: Any, seats: Any, sections: Any,
                 dealer: int,
                 step: int,
                 low_end: int, target: int, dealers: Any, winners: Any, counts: Any,
                 taken: Any, seats_after: Any, sections_after: Any) -> int:
    """Up to ``winners.shape[0]`` deals of one session (spec §10), as ``boodle simulate``
    plays them: each deal shuffled from the one random state ``mt`` (1 × 625 words, shared
    with the random players), the cards sorted by ``n_cards`` uniform keys drawn in card
    order (a stable sort, as :func:`sorted`), then played by :func:`play_many`; the deal
    passes ``step`` (+1 left, -1 right) seats on.

    Stops after a deal that leaves a seat at or below 0 chips (``low_end``: the session
    has an end rule or an elimination that reads it) or one at or above ``target``
    chips, so that the caller decides the session's end and the next dealer there (spec
    §10).  Per deal ``d``: ``dealers[d]``, ``winners[d]``, ``counts[d]`` (plays, leads,
    passes), ``taken[d, k]`` (-1: section k not taken), ``seats_after[d]`` and
    ``sections_after[d]`` (chips).  Returns the deals played, or ``-1 - d`` when deal ``d``
    had a seat that could lead no card (see :func:`play_many`).
    """
    n_cards = ints[I_N]
    session = np.array([1, dealer, step, low_end, target], dtype=np.int64)
    done = np.zeros(1, dtype=np.int64)
    failed = play_many(ints, nxt, suit_of, ranks, suit_mask, simple, set_start, set_sec,
                       set_need, need, bo_start, bo_sec, boodle_mask, spec_kind, spec_target,
                       allowed, allowed_n, cand, cand_n, rec, turn_pos, pay, put, dues,
                       out_takes, poker, before, np.zeros((0, n_cards), dtype=np.int64),
                       dealers,
                       players,
                       mt, seats, sections, winners, counts,
                       np.zeros((0, LOG_WIDTH), dtype=np.int64),
                       np.zeros(winners.shape[0], dtype=np.int64), taken, session,
                       seats_after, sections_after, done)
    return -failed if failed else done[0]


def play_sessions(ints: Any, nxt: Any, suit_of: Any, ranks: Any, suit_mask: Any,
                  simple: Any, set_start: Any, set_sec: Any, set_need: Any, need: Any,
                  bo_start: Any, bo_sec: Any, boodle_mask: Any, spec_kind: Any,
                  spec_target: Any, allowed: Any, allowed_n: Any, cand: Any, cand_n: Any,
                  rec: Any, turn_pos: Any, pay: Any, put: Any, dues: Any, out_takes: Any,
                  poker: Any, before: Any, players: Any, keys: Any, key_n: Any, start: int,
                  caps: Any,
                  step: int,
                  low_end: int, target: int, played: Any, dealers: Any, winners: Any,
                  counts: Any, taken: Any, seats_after: Any, sections_after: Any,
                  final_seats: Any, final_sections: Any) -> None:
    """Many sessions (spec §10) in one call, each as ``boodle simulate`` starts it: its
    random state seeded from the words ``keys[s, :key_n[s]]`` (:func:`seed_words`), its
    first dealer by the high cut (:func:`_high_cut`), every seat ``start`` chips and the
    board empty, then up to ``caps[s]`` deals by :func:`play_session` (same ``step``,
    ``low_end`` and ``target``).

    Session ``s``'s deals are rows ``sum(caps[:s])`` on of the per-deal arrays (as
    :func:`play_session`'s); ``played[s]``: what :func:`play_session` returned (fewer than
    ``caps[s]``: stopped where the caller decides the end, or ``-1 - d``: deal ``d``
    failed); ``final_seats[s]``, ``final_sections[s]``: the chips where it stopped.
    """
    n = ints[I_P]
    n_cards = ints[I_N]
    mt = np.zeros((1, 625), dtype=np.int64)
    seats = np.zeros(n, dtype=np.int64)
    sections = np.zeros(ints[I_S], dtype=np.int64)
    tied = np.zeros(n, dtype=np.int64)
    drawn = np.zeros(n, dtype=np.int64)
    pool = np.zeros(n_cards, dtype=np.int64)
    at = 0
    for s in range(caps.shape[0]):
        _seed(mt, 0, keys[s], key_n[s])
        dealer = _high_cut(mt, 0, ranks, n_cards, n, tied, drawn, pool)
        for q in range(n):
            seats[q] = start
        for k in range(sections.shape[0]):
            sections[k] = 0
        end = at + caps[s]
        played[s] = play_session(ints, nxt, suit_of, ranks, suit_mask, simple, set_start,
                                 set_sec, set_need, need, bo_start, bo_sec, boodle_mask,
                                 spec_kind, spec_target, allowed, allowed_n, cand, cand_n,
                                 rec, turn_pos, pay, put, dues, out_takes, poker, before,
                                 players,
                                 mt, seats,
                                 sections, dealer, step, low_end, target, dealers[at:end],
                                 winners[at:end], counts[at:end], taken[at:end],
                                 seats_after[at:end], sections_after[at:end])
        for q in range(n):
            final_seats[s, q] = seats[q]
        for k in range(sections.shape[0]):
            final_sections[s, k] = sections[k]
        at = end


def _seed(mt: Any, r: int, key: Any, nkey: int) -> None:
    """``mt[r]`` as :class:`random.Random` seeds itself from the 32-bit words ``key[:nkey]``
    (CPython's ``init_by_array``; the words of a string seed: :func:`seed_words`)."""
    m32 = 0xFFFFFFFF
    mt[r, 0] = 19650218
    for i in range(1, 624):
        prev = mt[r, i - 1]
        mt[r, i] = (1812433253 * (prev ^ (prev >> 30)) + i) & m32
    i = 1
    j = 0
    for _ in range(max(624, nkey)):
        prev = mt[r, i - 1]
        mt[r, i] = ((mt[r, i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & m32
        i += 1
        j += 1
        if i >= 624:
            mt[r, 0] = mt[r, 623]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(623):
        prev = mt[r, i - 1]
        mt[r, i] = ((mt[r, i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & m32
        i += 1
        if i >= 624:
            mt[r, 0] = mt[r, 623]
            i = 1
    mt[r, 0] = 0x80000000
    mt[r, 624] = 624


def _randbelow(mt: Any, r: int, n: int) -> int:
    """:meth:`random.Random._randbelow` (``n`` >= 1, < 2**32): ``getrandbits`` of
    ``n.bit_length()`` bits until one is below ``n``."""
    k = 0
    while (n >> k) > 0:
        k += 1
    x = _genrand(mt, r) >> (32 - k)
    while x >= n:
        x = _genrand(mt, r) >> (32 - k)
    return x


def _high_cut(mt: Any, r: int, ranks: Any, n_cards: int, players: int, tied: Any,
              drawn: Any, pool: Any) -> int:
    """The first dealer by the high cut (spec §5.1), as :func:`boodle.simulate.runner.
    high_cut` draws it: the tied seats (at first all) each draw a card by
    :meth:`random.Random.sample` of the pack (CPython's two methods: a pool for a small
    pack, else redraws of a seen card), the highest rank stays tied, until one is left."""
    nt = players
    for q in range(players):
        tied[q] = q
    while nt > 1:
        setsize = 21
        if nt > 5:
            p4 = 1
            while p4 < 3 * nt:
                p4 *= 4
            setsize += p4  # 4 ** ceil(log(3 k, 4)); 3 k is never a power of 4
        if n_cards <= setsize:
            for c in range(n_cards):
                pool[c] = c
            for i in range(nt):
                j = _randbelow(mt, r, n_cards - i)
                drawn[i] = ranks[pool[j]]
                pool[j] = pool[n_cards - i - 1]
        else:
            for c in range(n_cards):
                pool[c] = 0
            for i in range(nt):
                j = _randbelow(mt, r, n_cards)
                while pool[j]:
                    j = _randbelow(mt, r, n_cards)
                pool[j] = 1
                drawn[i] = ranks[j]
        best = drawn[0]
        for i in range(1, nt):
            best = max(best, drawn[i])
        k = 0
        for i in range(nt):
            if drawn[i] == best:
                tied[k] = tied[i]
                k += 1
        nt = k
    return tied[0]


def seed_words(text: str) -> np.ndarray:
    """The 32-bit words :class:`random.Random` seeds ``text`` from (Python 3.11+, seed
    version 2): the integer ``int.from_bytes(b + sha512(b).digest())`` of ``b =
    text.encode()``, least significant word first (for :func:`_seed`)."""
    import hashlib

    b = text.encode()
    b = (b + hashlib.sha512(b).digest()).lstrip(b"\0")[::-1] or b"\0"
    return np.frombuffer(b + bytes(-len(b) % 4), dtype="<u4").astype(np.int64)


def _payments(ints: Any, p: int, n: int, hands: Any, held: Any, seats: Any, sections: Any,
              kitty: int, log: Any, at: int) -> int:
    """Spec §7: each opponent from the winner's left pays per card left."""
    per = ints[I_PER]
    excused = ints[I_EXC]
    for q in range(1, n):
        payer = (p + q) % n
        amount = 0 if hands[payer] & excused else per * held[payer]
        seats[payer] -= amount
        if kitty >= 0:
            sections[kitty] += amount
        else:
            seats[p] += amount
        if log.shape[0] > 0:
            at = _log(log, at, 10, payer, amount, 0, 0)
    return at


# ---------------------------------------------------------------- compiling it


_JIT: dict[str, Any] = {}


def jitted() -> Any | None:
    """:func:`play_many` compiled by numba (cached on disk), or ``None`` without numba."""
    if "play_many" in _JIT:
        return _JIT["play_many"]
    try:
        import numba
    except ImportError:
        _JIT["play_many"] = None
        return None
    folder = cache_folder()
    if folder is not None and not os.environ.get("NUMBA_CACHE_DIR"):
        config: Any = numba.config  # set before the first njit: its cache is then there
        config.CACHE_DIR = str(folder)
    cache = folder is not None
    g = globals()
    for name in ("_ctz", "_popcount", "_genrand", "_random", "_log", "_take",
                 "_payments", "_seed", "_randbelow", "_high_cut", "_tops", "_straight_top",
                 "_hand_value", "_bet_sizes", "_poker_phase", "_holding_phase"):
        # inlined into the kernel: a call of a compiled function counts a reference to
        # each array it is passed, which cost more than the work of a lead
        g[name] = numba.njit(cache=cache, inline="always")(g[name])
    _JIT["play_many"] = numba.njit(cache=cache)(play_many)
    g["play_many"] = _JIT["play_many"]  # what play_session calls, compiled
    _JIT["play_session"] = numba.njit(cache=cache)(play_session)
    g["play_session"] = _JIT["play_session"]  # what play_sessions calls, compiled
    _JIT["play_sessions"] = numba.njit(cache=cache)(play_sessions)
    return _JIT["play_many"]


def numba_available() -> bool:
    """Whether numba can be imported (the ``kernel`` extra), without importing it."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def mt_state(rng: random.Random) -> np.ndarray:
    """The Mersenne Twister state of ``rng`` as the kernel's 625 words."""
    return np.array(rng.getstate()[1], dtype=np.int64)


def set_mt_state(rng: random.Random, mt: np.ndarray) -> None:
    """Put the kernel's words ``mt`` back into ``rng`` (it goes on where the kernel left)."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(mt.tolist()), gauss))


@dataclass
class KernelRun:
    """The outcome of :func:`run_deals`: ``winners`` (seat or -1) per deal; ``counts``
    (deals × 3 integers: plays, leads, passes; an array, not a list of tuples, whose
    thousands of containers cost a full garbage collection a call in a process that has
    loaded numba); ``trace``: per deal, the :data:`~.deal.TraceItem` list (when asked
    for)."""

    winners: list[int]
    counts: np.ndarray
    trace: list[list[tuple[object, ...]]] | None


def run_deals(kt: KernelTables, perms: Sequence[Sequence[int]] | np.ndarray,
              dealers: Sequence[int] | np.ndarray,
              players: Sequence[str], rngs: Sequence[random.Random], seats: list[int],
              sections: list[int], *, trace: bool = False, jit: bool = True) -> KernelRun:
    """Play ``perms`` on the kernel (compiled when numba is there and ``jit``; else the
    same function as Python), chips moved in ``seats`` and ``sections``, each ``rngs[s]``
    left where the seat's draws leave it.  Raises ``ValueError`` for a deal where no card
    could be led (see :func:`play_many`)."""
    fn: Any = (jitted() if jit else None) or _PYTHON["play_many"]
    k = len(perms)
    perm_a = np.asarray(perms, dtype=np.int64).reshape(k, kt.t.n_cards)
    mts = np.array([mt_state(r) for r in rngs], dtype=np.int64)
    seat_a = np.array(seats, dtype=np.int64)
    sec_a = np.array(sections, dtype=np.int64)
    winners = np.zeros(k, dtype=np.int64)
    counts = np.zeros((k, 3), dtype=np.int64)
    log = np.zeros(((8 * kt.t.n_cards + 64) * k if trace else 0, LOG_WIDTH), dtype=np.int64)
    log_end = np.zeros(k, dtype=np.int64)
    failed = fn(*kt.arrays(), perm_a, np.asarray(dealers, dtype=np.int64),
                np.array([PLAYER_CODES[p] for p in players], dtype=np.int64), mts, seat_a,
                sec_a, winners, counts, log, log_end, np.zeros((0, 0), dtype=np.int64),
                np.zeros(5, dtype=np.int64), np.zeros((0, 0), dtype=np.int64),
                np.zeros((0, 0), dtype=np.int64), np.zeros(1, dtype=np.int64))
    seats[:] = seat_a.tolist()
    sections[:] = sec_a.tolist()
    for r, mt in zip(rngs, mts, strict=True):
        set_mt_state(r, mt)
    if failed:
        raise ValueError(f"deal {failed - 1}: a seat may lead no card under the lead rule "
                         "nor its fallback")
    traces = None
    if trace:
        if log_end[-1] > log.shape[0]:
            raise ValueError("the kernel's log is too short for these deals")
        traces = []
        start = 0
        for i in range(k):
            traces.append(_items(kt.t, log[start:log_end[i]]))
            start = int(log_end[i])
    return KernelRun(winners.tolist(), counts, traces)


def _items(t: CompiledRules, rows: np.ndarray) -> list[tuple[object, ...]]:
    """A deal's log rows as the :data:`~.deal.TraceItem` list the compiled engine records: a
    ``showdown`` row and the ``shown`` and ``winner`` rows after it make one item (the phase,
    (seat, strength) per hand shown, the winners)."""
    out: list[tuple[object, ...]] = []
    i = 0
    while i < len(rows):
        code, a, b = int(rows[i, 0]), int(rows[i, 1]), int(rows[i, 2])
        if EVENT_NAMES[code] != "showdown":
            out.append(_item(t, rows[i]))
            i += 1
            continue
        hands = tuple((int(r[1]), _strength(int(r[2]), int(r[3]))) for r in rows[i + 1:i + 1 + a])
        winners = tuple(int(r[1]) for r in rows[i + 1 + a:i + 1 + a + b])
        out.append(("showdown", t.pokers[0].name, hands, winners))
        i += 1 + a + b
    return out


def _strength(value: int, length: int) -> tuple[int, ...]:
    """A strength packed by :func:`_hand_value` as the tuple of
    :func:`boodle.compiled.poker.hand_strength`."""
    return (value >> 20, *((value >> (16 - 4 * k)) & 15 for k in range(length)))


def _item(t: CompiledRules, row: np.ndarray) -> tuple[object, ...]:
    """A log row as the :data:`~.deal.TraceItem` the compiled engine records."""
    code, a, b, c, d = (int(x) for x in row)
    name = EVENT_NAMES[code]
    if name == "lead":
        return ("lead", a, str(t.cards[b]), bool(c))
    if name == "play":
        return ("play", a, str(t.cards[b]))
    if name == "claim":
        return ("claim", a, t.section_names[b], c)
    if name in ("pass", "out"):
        return (name, a)
    if name == "flip":
        return ("flip", bool(a))
    if name == "penalty":
        return ("penalty", a, b, t.section_names[c] if c >= 0 else -1 - c)
    if name == "stop":
        card = t.cards[b]
        if c < 0:
            reason = t.stop_reason_none[b]
            after = t.ruleset.deck.next_card(card)
            return ("stop", a, str(card), reason, None if reason == "top rank" else str(after))
        return ("stop", a, str(card), "widow" if d == 2 else "played", str(t.cards[c]))
    if name in ("bonus", "pay"):
        return (name, a, b)
    if name == "turn-up":
        return ("turn-up", str(t.cards[a]), t.cards[a].suit)
    if name == "bet":
        return ("bet", a, BET_ACTIONS[b >> 1], c, d, bool(b & 1))
    return ("end", None if a < 0 else a)


@dataclass
class SessionDeals:
    """The outcome of :func:`run_session`, per deal played (lists, one entry a deal):
    ``dealers``, ``winners`` (-1: none), ``counts`` (plays, leads, passes), ``taken``
    (chips per section, -1: not taken), ``seats`` and ``sections`` (chips after it);
    ``mt``: the random state after the deals (625 words, see :func:`set_mt_state`)."""

    dealers: list[int]
    winners: list[int]
    counts: list[list[int]]
    taken: list[list[int]]
    seats: list[list[int]]
    sections: list[list[int]]
    mt: np.ndarray


def run_session(kt: KernelTables, players: Sequence[str], rng: random.Random,
                seats: list[int], sections: list[int], dealer: int, step: int, deals: int,
                low_end: bool, target: int, *, jit: bool = True,
                advance: bool = True, mt: np.ndarray | None = None) -> SessionDeals:
    """Up to ``deals`` deals of a session from ``dealer`` on (:func:`play_session`),
    shuffled and chosen with ``rng`` (left where the deals leave it; with ``advance``
    off, ``rng`` is not touched and the state after is only the result's ``mt``), chips
    moved in ``seats`` and ``sections``; compiled when numba is there and ``jit``, else as
    Python.  ``mt``: the random state to start from instead of ``rng``'s (the ``mt`` of a
    previous call).
    Raises ``ValueError`` for a deal where no card could be led."""
    fn: Any = (jitted() and _JIT["play_session"] if jit else None) or _PYTHON["play_session"]
    n, ns = kt.players, len(sections)
    mt = (mt_state(rng) if mt is None else mt.copy()).reshape(1, 625)
    seat_a = np.array(seats, dtype=np.int64)
    sec_a = np.array(sections, dtype=np.int64)
    dealers = np.zeros(deals, dtype=np.int64)
    winners = np.zeros(deals, dtype=np.int64)
    counts = np.zeros((deals, 3), dtype=np.int64)
    taken = np.zeros((deals, ns), dtype=np.int64)
    seats_after = np.zeros((deals, n), dtype=np.int64)
    sections_after = np.zeros((deals, ns), dtype=np.int64)
    played = fn(*kt.arrays(), np.array([PLAYER_CODES[p] for p in players], dtype=np.int64),
                mt, seat_a, sec_a, dealer, step, int(low_end), target, dealers, winners,
                counts, taken, seats_after, sections_after)
    if advance:
        set_mt_state(rng, mt[0])
    if played < 0:
        raise ValueError(f"a seat may lead no card under the lead rule nor its fallback "
                         f"(deal {-played} of this call)")
    seats[:] = seat_a.tolist()
    sections[:] = sec_a.tolist()
    return SessionDeals(dealers[:played].tolist(), winners[:played].tolist(),
                        counts[:played].tolist(), taken[:played].tolist(),
                        seats_after[:played].tolist(), sections_after[:played].tolist(), mt[0])


@dataclass
class SessionsRun:
    """The outcome of :func:`run_sessions`: per session ``s`` (arrays of the sessions'
    length), ``played[s]`` (as :func:`play_sessions`), ``final_seats[s]`` and
    ``final_sections[s]`` (chips where it stopped); per deal row (session ``s``'s rows
    start at ``starts[s]``, ``caps[s]`` of them, the first ``played[s]`` played):
    ``dealers``, ``winners`` (-1: none), ``counts`` (plays, leads, passes), ``taken``
    (chips per section, -1: not taken), ``seats_after``, ``sections_after`` (chips)."""

    played: np.ndarray
    starts: np.ndarray
    caps: np.ndarray
    dealers: np.ndarray
    winners: np.ndarray
    counts: np.ndarray
    taken: np.ndarray
    seats_after: np.ndarray
    sections_after: np.ndarray
    final_seats: np.ndarray
    final_sections: np.ndarray


def run_sessions(kt: KernelTables, players: Sequence[str], seeds: Sequence[str], start: int,
                 caps: Sequence[int], step: int, low_end: bool, target: int, *,
                 jit: bool = True) -> SessionsRun:
    """Sessions of ``seeds`` (each its ``random.Random(seed)``: the high cut, the shuffles
    and the random players' draws), up to ``caps[s]`` deals each, in one call of
    :func:`play_sessions`; every seat starts with ``start`` chips, the board empty, the
    deal passing ``step`` seats on; compiled when numba is there and ``jit``, else as
    Python.  Sessions whose first dealer is not drawn by the high cut are not for this
    function (the caller draws those and uses :func:`run_session`)."""
    fn: Any = (jitted() and _JIT["play_sessions"] if jit else None) or _PYTHON["play_sessions"]
    n, ns, m = kt.players, len(kt.t.section_names), len(seeds)
    words = [seed_words(text) for text in seeds]
    keys = np.zeros((m, max((len(w) for w in words), default=0) or 1), dtype=np.int64)
    for i, w in enumerate(words):
        keys[i, :len(w)] = w
    key_n = np.array([len(w) for w in words], dtype=np.int64)
    cap_a = np.array(caps, dtype=np.int64)
    starts = np.zeros(m, dtype=np.int64)
    if m:
        starts[1:] = np.cumsum(cap_a)[:-1]
    rows = int(cap_a.sum())
    i64 = np.int64
    out = SessionsRun(played=np.zeros(m, dtype=i64), starts=starts, caps=cap_a,
                      dealers=np.zeros(rows, dtype=i64), winners=np.zeros(rows, dtype=i64),
                      counts=np.zeros((rows, 3), dtype=i64),
                      taken=np.zeros((rows, ns), dtype=i64),
                      seats_after=np.zeros((rows, n), dtype=i64),
                      sections_after=np.zeros((rows, ns), dtype=i64),
                      final_seats=np.zeros((m, n), dtype=i64),
                      final_sections=np.zeros((m, ns), dtype=i64))
    fn(*kt.arrays(), np.array([PLAYER_CODES[p] for p in players], dtype=i64), keys, key_n,
       start, cap_a, step, int(low_end), target, out.played, out.dealers, out.winners,
       out.counts, out.taken, out.seats_after, out.sections_after, out.final_seats,
       out.final_sections)
    return out


_PYTHON: dict[str, Any] = {"play_many": play_many, "play_session": play_session,
                           "play_sessions": play_sessions}
"""The kernel's functions as Python (what runs with ``jit=False`` or without numba)."""

assert WIDOW == -1  # the kernel reads own[c] == -1 as a widow card

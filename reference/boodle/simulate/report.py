"""The simulation report: one JSON-able summary, rendered as text or CSV rows.

Every estimate is ``{"mean": m, "low": l, "high": h, "n": samples}`` with
the 95 % interval of :mod:`.stats`.  Chips are per deal unless named per
session; positions count from the dealer's left (0) to the dealer (n-1), and are listed
dealer first.
``deals`` is the number of deals played, which differs from the number
asked (``deals_asked``) when sessions end early or a tie adds a deal; the
report's ``definitions`` say what each net counts (:data:`DEFINITIONS`).
"""

from __future__ import annotations

import csv
import io
import math
import textwrap
from typing import Any

from boodle.language.kind_facts import BALANCE_FACTS
from boodle.language.model import EndTie
from boodle.simulate.runner import RunSpec, engine_label
from boodle.simulate.stats import Moments, RunStats, wilson

DEFINITIONS = {
    "net_per_deal": "a seat's balance after a deal less its balance before it: antes, claims, "
                    "payments, penalties and stop bonuses; the split of the leftover at a "
                    "session's end is not in it (spec §10), net per session includes it",
    "net_per_session": "a seat's final balance less the start chips, after the session-end "
                       "split of the leftover; only sessions that reached their end count",
}
"""What the two kinds of net chips count (printed under the tables, and in the JSON)."""


def _est(values: tuple[float, float, float], n: int) -> dict[str, Any]:
    mean, low, high = values
    return {"mean": _num(mean), "low": _num(low), "high": _num(high), "n": n}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def _mean(m: Moments, scale: int = 1) -> dict[str, Any]:
    return _est(m.ci95(scale), m.n)


def _rate(hits: int, n: int) -> dict[str, Any]:
    return _est(wilson(hits, n), n)


def position_label(position: int, players: int) -> str:
    """``left of dealer``, ``2nd from dealer's left`` … ``dealer`` for a position."""
    if position == players - 1:
        return "dealer"
    if position == 0:
        return "left of dealer"
    return f"{position + 1}th from dealer's left" if position > 2 else (
        f"{position + 1}{'nd' if position == 1 else 'rd'} from dealer's left")


def dealer_first(players: int) -> list[int]:
    """The positions (0 = left of dealer … ``players - 1`` = dealer) in the order the report
    shows them: the dealer, then round the table from the dealer's left."""
    return [players - 1, *range(players - 1)]


def summary(spec: RunSpec, stats: RunStats, *, workers: int, backend: str,
            seconds: float, cpu_seconds: float | None = None) -> dict[str, Any]:
    """The whole report as plain data (what ``--json`` prints).

    ``seconds``: the run's wall-clock time; ``cpu_seconds``: the CPU time it took, this
    process's and its workers' together (``None``: not known, as for a remote Dask
    cluster).  Each gives its own rate, ``deals_per_wall_second`` and
    ``deals_per_cpu_second``: the first is what a user waits and moves with the machine's
    load, the second is the work done.  ``positions`` come dealer first
    (:func:`dealer_first`): the deal rotates, so what a place at the table wins is told by
    its position relative to the dealer, not by its seat; ``seats`` compare the strategies
    the seats play."""
    n, deals = spec.players, stats.deals
    seats = [{"seat": s, "strategy": spec.strategies[s],
              "net_per_deal": _mean(stats.seat_net[s]),
              "going_out_rate": _rate(stats.seat_out[s], deals),
              "net_per_session": _mean(stats.session_net[s], n),
              "session_wins": float(stats.wins[s])} for s in range(n)]
    strategies = [{"strategy": name, "seats": spec.strategies.count(name),
                   "net_per_deal_per_seat": _mean(m, spec.strategies.count(name))}
                  for name, m in stats.strategy_net.items()]
    positions = [{"position": p, "label": position_label(p, n),
                  "going_out_rate": _rate(stats.position_out[p], deals),
                  "net_per_deal": _mean(stats.position_net[p])} for p in dealer_first(n)]
    sections = [{"section": name, "claim_rate": _rate(stats.claimed[k], deals),
                 "chips_after_ante": _mean(stats.after_ante[k]),
                 "chips_when_taken": _mean(stats.taken[k]),
                 "carry_over": _mean(stats.carry[k])}
                for k, name in enumerate(stats.sections)]
    return {
        "variant": spec.ruleset.name, "players": n, "deals": deals, "deals_asked": spec.deals,
        "sessions_played": spec.sessions, "ends_early": _ends_early(spec),
        "sessions_completed": stats.sessions, "session_length": spec.session_length,
        "seed": spec.seed, "engine": engine_label(spec), "backend": backend,
        "workers": workers,
        "wall_seconds": round(seconds, 3),
        "cpu_seconds": None if cpu_seconds is None else round(cpu_seconds, 3),
        "deals_per_wall_second": _per(deals, seconds),
        "deals_per_cpu_second": None if cpu_seconds is None else _per(deals, cpu_seconds),
        "seats": seats, "strategies": strategies, "positions": positions, "sections": sections,
        "kitty": _kitty_entry(spec, sections),
        "plays_per_deal": _mean(stats.plays), "leads_per_deal": _mean(stats.leads),
        "passes_per_deal": _mean(stats.passes),
        "no_winner_rate": _rate(stats.no_winner, deals),
        "definitions": DEFINITIONS,
    }


def _per(deals: int, seconds: float) -> float | None:
    return round(deals / seconds, 1) if seconds > 0 else None


def _ends_early(spec: RunSpec) -> list[str]:
    """The session rules (spec §10) that can make a run play other than the deals asked."""
    session = spec.ruleset.session
    why = []
    if session.end_when_broke:
        why.append("a session ends after a deal that leaves a player with no chips")
    if session.end_last_with_chips:
        why.append("a session ends after a deal that leaves one player with chips")
    if session.end_target is not None:
        why.append(f"a session ends after a deal that leaves a player with "
                   f"{session.end_target} chips or more")
    if session.end_never:
        why.append("a session has no end: no session results are counted")
    if BALANCE_FACTS[session.negative].eliminates and not session.end_last_with_chips:
        why.append(f"a session ends when fewer than {spec.ruleset.players.low} players "
                   "have chips left")
    tie = TIE_WORDS[session.ties]
    if tie is not None:
        why.append(tie)
    return why


TIE_WORDS: dict[EndTie, str | None] = {
    "share": None,
    "one more deal": "a tie at a session's end adds one more deal",
}
"""What the report says of a tie rule that makes a run play other deals than asked (spec
§10), one row per member of :data:`~boodle.language.model.EndTie` (``None``: it does not)."""


def _kitty_entry(spec: RunSpec, sections: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The section of kind kitty (the going-out prize, spec §7), with its label as the rules
    name it (Pope Joan's is ``Game``); ``None`` if the board has none."""
    kitty = spec.ruleset.kitty()
    if kitty is None:
        return None
    entry = next(s for s in sections if s["section"] == kitty.name)
    return {**entry, "label": kitty.label}


def _fmt(e: dict[str, Any], pct: bool = False) -> str:
    if e["mean"] is None:
        return "n/a"
    k = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    if e["low"] is None:
        return f"{e['mean'] * k:8.2f}{unit}"
    if pct:  # a Wilson interval: not symmetric about the rate, and within 0-100 %
        return f"{e['mean'] * k:7.2f}% [{e['low'] * k:.2f}, {e['high'] * k:.2f}]"
    half = (e["high"] - e["low"]) / 2 * k  # a normal interval: symmetric about the mean
    return f"{e['mean'] * k:8.2f}{unit} ± {half:.2f}"


def _timing(r: dict[str, Any]) -> str:
    """``1.25 s wall, 2.4 s CPU; 3,200 deals per wall second, 1,667 deals per CPU second``
    (the CPU figures left out where they are not known)."""
    times = [f"{r['wall_seconds']} s wall"]
    rates = []
    if r["deals_per_wall_second"] is not None:
        rates.append(f"{r['deals_per_wall_second']:,.0f} deals per wall second")
    if r.get("cpu_seconds") is not None:
        times.append(f"{r['cpu_seconds']} s CPU")
        if r["deals_per_cpu_second"] is not None:
            rates.append(f"{r['deals_per_cpu_second']:,.0f} deals per CPU second")
    return ", ".join(times) + ("; " + ", ".join(rates) if rates else "")


def render_text(report: dict[str, Any]) -> str:
    """The report as readable text: means with their 95 % normal interval as ± (symmetric),
    rates with their 95 % Wilson interval as [low, high] (not symmetric, within 0-100 %)."""
    r = report
    sessions, workers = r["sessions_completed"], r["workers"]
    lines = [
        f"{r['variant']}: {_plural(r['deals'], 'deal')} played, {r['players']} players, "
        f"seed {r['seed']} ({_plural(sessions, 'whole session')} of up to "
        f"{_plural(r['session_length'], 'deal')}; "
        f"{r['engine']} engine, {r['backend']}, {_plural(workers, 'worker')}, "
        f"{_timing(r)})",
        *_asked(r),
        "95% confidence intervals: means ± half the interval (normal); rates [low, high] "
        "(Wilson).",
        "",
        "position (the deal rotates: every seat plays each position in turn)",
        "position                 net chips/deal     going out",
    ]
    for p in r["positions"]:
        lines.append(f"{p['label']:<24} {_fmt(p['net_per_deal']):>15}  "
                     f"{_fmt(p['going_out_rate'], True):>25}")
    lines += ["", "seat  strategy   net chips/deal      going out                 "
              "net chips/session   wins"]
    for s in r["seats"]:
        lines.append(f"{s['seat']:>4}  {s['strategy']:<9} {_fmt(s['net_per_deal']):>17}  "
                     f"{_fmt(s['going_out_rate'], True):>25}  "
                     f"{_fmt(s['net_per_session']):>18}  {s['session_wins']:.1f}")
    for name, label in (("net_per_deal", "net chips/deal"),
                        ("net_per_session", "net chips/session")):
        lines += textwrap.wrap(f"{label}: {r['definitions'][name]}.", 100,
                               subsequent_indent="  ")
    lines += textwrap.wrap("wins: whole sessions the seat ended with the most chips; a tie "
                           "shares one win among the tied seats (so 0.5, 0.3…).", 100,
                           subsequent_indent="  ")
    lines += ["", "strategy   seats  net chips/deal per seat"]
    for s in r["strategies"]:
        lines.append(f"{s['strategy']:<10} {s['seats']:>5}  {_fmt(s['net_per_deal_per_seat'])}")
    w = max(10, *(len(s["section"]) for s in r["sections"]))
    lines += ["", f"{'section':<{w}}   claimed                   after ante         taken"
              "          carry-over"]
    for s in r["sections"]:
        lines.append(f"{s['section']:<{w}} {_fmt(s['claim_rate'], True):>25} "
                     f"{_fmt(s['chips_after_ante']):>16} {_fmt(s['chips_when_taken']):>16} "
                     f"{_fmt(s['carry_over']):>16}")
    lines += ["", f"plays per deal  {_fmt(r['plays_per_deal'])}",
              f"leads per deal  {_fmt(r['leads_per_deal'])}",
              f"passes per deal {_fmt(r['passes_per_deal'])}",
              f"deals nobody went out {_fmt(r['no_winner_rate'], True)}"]
    if r["kitty"] is not None:
        k = r["kitty"]
        lines.append(f"{k['label']} (section {k['section']}, the going-out prize): "
                     f"{_fmt(k['chips_after_ante']).strip()} chips after the ante, "
                     f"{_fmt(k['chips_when_taken']).strip()} when taken")
    return "\n".join(lines) + "\n"


def _plural(count: int, noun: str) -> str:
    """``"1 whole session"``, ``"3 whole sessions"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _asked(r: dict[str, Any]) -> list[str]:
    """The line saying why the deals played differ from the deals asked (none if equal)."""
    if r["deals"] == r["deals_asked"]:
        return []
    why = "; ".join(r["ends_early"]) or "the sessions ended early"
    asked = _plural(r["deals_asked"], "deal")
    return textwrap.wrap(f"{asked} {'was' if r['deals_asked'] == 1 else 'were'} asked: the run "
                         f"is {_plural(r['sessions_played'], 'session')} of up to "
                         f"{_plural(r['session_length'], 'deal')}, and {why} (spec §10).", 100,
                         subsequent_indent="  ")


def render_csv(report: dict[str, Any]) -> str:
    """One row per estimate: group, key, metric, mean, low, high, n."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["group", "key", "metric", "mean", "low", "high", "n"])

    def row(group: str, key: object, metric: str, e: dict[str, Any]) -> None:
        w.writerow([group, key, metric, e["mean"], e["low"], e["high"], e["n"]])

    for s in report["seats"]:
        for metric in ("net_per_deal", "going_out_rate", "net_per_session"):
            row("seat", s["seat"], metric, s[metric])
    for s in report["strategies"]:
        row("strategy", s["strategy"], "net_per_deal_per_seat", s["net_per_deal_per_seat"])
    for p in report["positions"]:  # dealer first, keyed by the position's name
        row("position", p["label"], "net_per_deal", p["net_per_deal"])
        row("position", p["label"], "going_out_rate", p["going_out_rate"])
    for s in report["sections"]:
        for metric in ("claim_rate", "chips_after_ante", "chips_when_taken", "carry_over"):
            row("section", s["section"], metric, s[metric])
    for metric in ("plays_per_deal", "leads_per_deal", "passes_per_deal", "no_winner_rate"):
        row("deal", "", metric, report[metric])
    return out.getvalue()

"""An optional figure of a simulation report (matplotlib, the ``plot`` extra).

Three panels with 95 % intervals as error bars: net chips per deal and the
going-out rate by position relative to the dealer (dealer first: the deal
rotates, so a seat has no fixed place), and each section's claim rate beside
its mean carry-over (chips, on a second axis), red cards' names in red.  The format
follows the file's suffix (``.png`` or ``.svg``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boodle.language.errors import BoodleError


def _bars(entries: list[dict[str, Any]], k: float = 1.0) -> tuple[list[float], list[list[float]]]:
    means = [(e["mean"] or 0.0) * k for e in entries]
    errs = [[((e["mean"] - e["low"]) * k) if e["low"] is not None else 0.0 for e in entries],
            [((e["high"] - e["mean"]) * k) if e["high"] is not None else 0.0 for e in entries]]
    return means, errs


def check_plot(path: str | Path) -> None:
    """Refuse, before a run, a plot ``path`` without a ``.png`` or ``.svg`` suffix, or
    ``--plot`` without matplotlib (:class:`BoodleError`)."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise BoodleError(f"--plot writes .png or .svg files, not {path.name}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BoodleError("--plot needs matplotlib", hint="pip install 'boodle[plot]'") from None


def save_plot(report: dict[str, Any], path: str | Path) -> None:
    """Draw ``report`` (from :func:`.report.summary`) into ``path`` (``.png`` or ``.svg``).

    Raises :class:`BoodleError` for another suffix, or when matplotlib is missing.
    """
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise BoodleError(f"--plot writes .png or .svg files, not {path.name}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BoodleError("--plot needs matplotlib", hint="pip install 'boodle[plot]'") from None
    fig = draw(report, plt)
    fig.savefig(path)
    plt.close(fig)


RED_SUITS = ("♥", "♦")


def label_colour(label: str) -> str:
    """The colour of an axis label: red for a card of a red suit (``A♥``, ``Q♦``), as on the
    card and in the rules site; black otherwise."""
    return "red" if any(suit in label for suit in RED_SUITS) else "black"


def draw(report: dict[str, Any], plt: Any) -> Any:
    """The figure of ``report`` (matplotlib's ``Figure``; ``plt`` is ``matplotlib.pyplot``):
    net chips per deal and going out by position relative to the dealer (dealer first: the
    deal rotates, so a seat's place is not fixed), and the sections, a red card's name in
    red."""
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4.5))
    positions = report["positions"]
    names = [p["label"].replace(" from dealer's left", " left") for p in positions]
    means, errs = _bars([p["net_per_deal"] for p in positions])
    ax1.bar(names, means, yerr=errs, capsize=4)
    ax1.axhline(0, color="grey", linewidth=0.8)
    ax1.set_title("net chips per deal, by position")
    ax1.tick_params(axis="x", labelrotation=30)
    means, errs = _bars([p["going_out_rate"] for p in positions], 100.0)
    ax2.bar(names, means, yerr=errs, capsize=4, color="tab:green")
    ax2.set_title("going out, % of deals, by position")
    ax2.tick_params(axis="x", labelrotation=30)
    sections = report["sections"]
    names = [s["section"] for s in sections]
    xs = list(range(len(names)))
    means, errs = _bars([s["claim_rate"] for s in sections], 100.0)
    ax3.bar([x - 0.2 for x in xs], means, width=0.4, yerr=errs, capsize=3, label="claimed, %")
    ax3.set_ylabel("claimed, % of deals")
    chips = ax3.twinx()  # chips on their own scale
    means, errs = _bars([s["carry_over"] for s in sections])
    chips.bar([x + 0.2 for x in xs], means, width=0.4, yerr=errs, capsize=3,
              label="carry-over, chips", color="tab:orange")
    chips.set_ylabel("chips carried over")
    ax3.set_xticks(xs, names)
    for tick in ax3.get_xticklabels():
        tick.set_color(label_colour(tick.get_text()))
    handles = ax3.get_legend_handles_labels()[0] + chips.get_legend_handles_labels()[0]
    ax3.set_ylim(0, 125)  # room above the bars for the legend
    chips.set_ylim(0, max([*means, 0.5]) * 1.25)
    ax3.legend(handles=handles, loc="upper center", ncol=2, fontsize="small")
    ax3.set_title("sections: claimed and carried over")
    fig.suptitle(f"{report['variant']}: {report['deals']} deals, {report['players']} players, "
                 f"seed {report['seed']}")
    fig.tight_layout()
    return fig

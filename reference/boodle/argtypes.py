"""Argument types for the command line: counts and durations checked by argparse.

A value out of range is a usage error, reported by argparse with the
option's name and exit status 2 (like a missing argument), never a rules
error (exit 1) found later in the run.  Each function is an argparse
``type=``: it takes the text of the argument and returns the number, or
raises :class:`argparse.ArgumentTypeError` with the reason.
"""

from __future__ import annotations

import argparse
import math

MAX_SECONDS = 86_400.0
"""The longest duration an option takes: a day.  Longer is surely a slip (``1e10``), and
beyond ``threading.TIMEOUT_MAX`` (about 292 years) a wait would fail with an
``OverflowError``."""


def positive_int(text: str) -> int:
    """A whole number of at least 1 (deals, workers); ``ArgumentTypeError`` otherwise."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number of at least 0 (a count of details to show); ``ArgumentTypeError``
    otherwise."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive_seconds(text: str) -> float:
    """A number of seconds above 0 and at most :data:`MAX_SECONDS` (a timeout);
    ``ArgumentTypeError`` otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text}")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SECONDS:.0f} seconds (a day), not {text}")
    return value


def session_name(text: str) -> str:
    """A session's name in a ledger (``friday``): any text but an empty or blank one
    (``ArgumentTypeError``), since no session is named so (spec §10: a session's name)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a name, not an empty one: give --session NAME "
                                         "(as in --session friday)")
    return text


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None

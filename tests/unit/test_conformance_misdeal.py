"""The misdeal step of ``boodle-protocol/2`` (PROTOCOL.md "Versions"; FORMAT.md "script").

A script entry ``{"misdeal": DEAL}`` declares a misdeal (spec §5.3) where it comes: every
transfer since the ante goes back, last first, and the same dealer deals DEAL with no new
ante.  The values below are worked out by hand from 001 §06 ("même donneur redonne après
restauration du registre, sans nouvelle mise"): Michigan, four players, D deals, 50 chips
each; the ante is 1 on each boodle and 2 on the kitty, so 44 each, 4 on each boodle, 8 on the
kitty.
"""

from __future__ import annotations

import copy

from boodle.conformance.cases import Case
from boodle.conformance.play_case import execute
from boodle.conformance.validation import check
from boodle.conformance.wire import Json

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "♣♦♥♠" for r in RANKS]


def _deal(*hands: str) -> Json:
    held = {c for h in hands for c in h.split()}
    return {"hands": [h.split() for h in hands], "widow": [c for c in DECK if c not in held]}


def _request(variant: str = "michigan") -> Json:
    return {"type": "run", "id": "michigan.misdeal-step.0123456789ab",
            "protocol": "boodle-protocol/2", "kind": "script",
            "variant": {"name": variant, "version": 1},
            "setup": {"players": 4, "dealer": 3,
                      "ledger": {"seats": [50, 50, 50, 50],
                                 "sections": {"A♥": 0, "K♣": 0, "Q♦": 0, "J♠": 0, "kitty": 0}},
                      "deal": _deal("Q♦ 5♣", "K♦ 6♣", "7♥", "8♠")},
            "script": [{"move": "lead", "seat": 0, "card": "Q♦"},
                       {"misdeal": _deal("2♣ 9♥", "4♣ 5♦", "6♦", "7♠")}],
            "legal_at": [1]}


def test_a_misdeal_gives_back_what_was_paid_since_the_ante_and_deals_again() -> None:
    result = execute(_request())
    assert result["status"] == "done"
    events = result["events"]
    kinds = [e["kind"] for e in events]
    # the lead of Q♦ took its section (4); then the misdeal gives the 4 back, the same
    # dealer deals the new hands, and no ante follows
    at = kinds.index("misdeal")
    assert events[at - 1] == {"kind": "claim", "seat": 0, "section": "Q♦", "amount": 4}
    assert events[at]["dealer"] == 3
    assert [(u["from"], u["to"], u["amount"]) for u in events[at]["undone"]] == [
        ({"seat": 0}, {"section": "Q♦"}, 4)]
    assert kinds[at + 1] == "deal" and "ante" not in kinds[at:]
    assert events[at + 1]["hands"][0] == ["2♣", "9♥"]
    # the point does not move: point 1 is A's lead from the new hands
    assert {m["card"] for m in result["legal"]["1"]} == {"2♣", "9♥"}
    assert result["final"]["ledger"] == {"seats": [44, 44, 44, 44],
                                         "sections": {"A♥": 4, "K♣": 4, "Q♦": 4, "J♠": 4,
                                                      "kitty": 8}}


def test_reshuffle_and_redeal_allows_no_misdeal_after_a_move() -> None:
    result = execute(_request("michigan-until-broke"))  # 000 "Fausse donne": while dealing
    assert result["status"] == "error" and "reshuffle and redeal" in result["message"]


def test_the_entry_is_valid_in_a_run_message_and_needs_the_feature_and_version_2() -> None:
    request = _request()
    assert check(request, "protocol.schema.json", "run") == []
    bad = copy.deepcopy(request)
    bad["script"][1] = {"misdeal": {"hands": [["2♣"]]}}  # no widow
    assert check(bad, "protocol.schema.json", "run") != []
    case = Case({**{k: v for k, v in request.items() if k not in ("type", "protocol")},
                 "expect": {}}, None)
    assert "misdeal" in case.needs()
    assert case.needs_protocol()[0] == 2

"""The model carries its sources (issue 19 step 3): the span of every line and the ruleset a
house rule extends are kept by the builder (``Ruleset.origin``), so the rules page, the
language server and ``boodle check`` read no rules file again."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from boodle.conformance.rules_files import rules_hash
from boodle.docs.spans import SpanIndex
from boodle.language.build import dropped_lines, load_file
from boodle.language.ruleset_diff import base_of, diff
from boodle.language.variants import builtin_path, load

HOUSE = ("variant house extends home {\n"
         "  phase play is stops {\n"
         "    follow: next in turn\n"
         "  }\n"
         "  deal {\n"
         "    first dealer: high cut\n"
         "    rotation: left\n"
         "    widow: last in each round, hidden\n"
         "  }\n"
         "}\n")
"""A house rule of a copy of michigan.boodle (called ``home``): turn order instead of the
owner of the next card (spec §6.2), and a deal block without michigan's ``cut`` and
``misdeal`` lines (spec §11.2: they take their defaults; the cut's, ``not stated``, differs
from michigan's, the misdeal's does not)."""


def _house(tmp_path: Path) -> Path:
    michigan = builtin_path("michigan").read_text(encoding="utf-8")
    (tmp_path / "home.boodle").write_text(michigan.replace("variant michigan {",
                                                           "variant home {"), encoding="utf-8")
    house = tmp_path / "house.boodle"
    house.write_text(HOUSE, encoding="utf-8")
    return house


def test_spans_and_the_base_are_read_from_the_model_not_from_the_files(tmp_path: Path) -> None:
    house = _house(tmp_path)
    r = load_file(house)
    (tmp_path / "home.boodle").unlink()  # nothing below may read the base's text again
    where = SpanIndex.of(r)
    (play,) = r.phases
    follow = where(play, "follow", play.follow)
    assert follow is not None and (follow.file, follow.line) == (str(house), 3)
    # michigan.boodle writes 'end: after 1 rotation' on its line 59 and 'follow:' on 47
    # (replaced here); the deal's 'rotation: left' is the house's line 7
    end = where(r.session, "rotations", r.session.rotations)
    assert end is not None and (Path(end.file).name, end.line) == ("home.boodle", 59)
    rotation = where(r.deal, "rotation", r.deal.rotation)
    assert rotation is not None and (rotation.file, rotation.line) == (str(house), 7)
    assert where(r.deal, "cut", r.deal.cut) is None  # not written: the default
    base = base_of(r)
    assert base is not None and base.name == "home" and base.deal == load("michigan").deal
    assert "phase play: follow: owner of next card → next in turn" in diff(base, r)
    notes = dropped_lines(r, diff(base, r))
    assert len(notes) == 1 and "the deal block replaces home's whole block" in notes[0]
    assert "its line 'cut: player right of dealer' is not written here" in notes[0]


def test_the_origin_is_out_of_equality_hashing_repr_and_the_rules_hash() -> None:
    r = load("michigan-dealer-double")
    bare = dataclasses.replace(r, origin=None)
    assert r.origin is not None and r == bare and hash(r) == hash(bare)
    assert "origin" not in repr(r)
    assert rules_hash(r) == rules_hash(bare)


def test_a_variant_that_extends_nothing_has_no_base() -> None:
    r = load("michigan")
    assert r.origin is not None and r.origin.base() is None and base_of(r) is None
    assert dropped_lines(r, []) == []

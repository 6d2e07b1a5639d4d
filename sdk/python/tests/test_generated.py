"""The committed stubs are what ``python -m cardroom._generate`` makes from the contract."""

from __future__ import annotations

from cardroom import _generate


def test_generated_stubs_match_the_proto() -> None:
    stale = _generate.stale_files()
    assert stale == [], f"stale generated files {stale}: run `python -m cardroom._generate`"

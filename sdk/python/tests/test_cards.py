"""Cards, hands, actions and phases: parsing, printing and the conversion to and from the
contract."""

from __future__ import annotations

import pytest
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from cardroom import (
    BigGin,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    Exchange,
    Gin,
    GinPhase,
    Hand,
    Knock,
    PassUpcard,
    Play,
    Rank,
    Suit,
    TakeUpcard,
    TwentyTwoPhase,
    action_from_pb,
    action_to_pb,
)
from cardroom.v1 import cardroom_pb2 as pb


def test_cards_print_as_the_server_writes_them() -> None:
    assert str(Card(Rank.ACE, Suit.SPADES)) == "A♠"
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10♥"
    assert str(Hand.parse("AS 2C 7d")) == "2♣ 7♦ A♠"


@pytest.mark.parametrize("text", ["AS", "A♠", "as", " AS "])
def test_cards_parse_from_records_and_symbols(text: str) -> None:
    assert Card.parse(text) == Card(Rank.ACE, Suit.SPADES)


@pytest.mark.parametrize("text", ["10H", "TH", "10♥"])
def test_ten_parses_every_way(text: str) -> None:
    assert Card.parse(text) == Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize("text", ["", "1", "ZS", "AX", "11S"])
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


def test_hand_helpers() -> None:
    hand = Hand.parse("KD 2C 7S 7D AH")
    assert hand.lowest(2) == Hand.parse("2C 7D")
    assert hand.highest(2) == Hand.parse("KD AH")
    assert hand.rank_counts()[Rank.SEVEN] == 2
    assert hand.without(Hand.parse("7S 9C")) == Hand.parse("2C 7D KD AH")
    assert Card.parse("AH") in hand and len(hand) == 5 and hand[0] == Card.parse("2C")


def test_values() -> None:
    assert [Rank.ACE.penalty, Rank.KING.penalty, Rank.SEVEN.penalty] == [11, 10, 7]
    assert [Rank.ACE.gin_value, Rank.QUEEN.gin_value] == [1, 10]


@pytest.mark.parametrize(
    "action",
    [
        Exchange(),
        Exchange(Hand.parse("KS AD")),
        Play(Hand.parse("7S 7D")),
        TakeUpcard(),
        PassUpcard(),
        DrawStock(),
        DrawDiscard(),
        Discard(Card.parse("QH")),
        Knock(Card.parse("KH"), (Hand.parse("2C 3C 4C"), Hand.parse("9S 9D 9H"))),
        Gin(Card.parse("KH")),
        BigGin(),
    ],
)
def test_actions_survive_the_wire(action: object) -> None:
    assert action_from_pb(action_to_pb(action)) == action  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ours", "contract", "prefix"),
    [
        (TwentyTwoPhase, pb.TwentyTwoPhase, "TWENTY_TWO_PHASE_"),
        (GinPhase, pb.GinPhase, "GIN_PHASE_"),
    ],
)
def test_phases_are_the_contracts(
    ours: type[TwentyTwoPhase | GinPhase], contract: EnumTypeWrapper, prefix: str
) -> None:
    assert [phase.name for phase in ours] == [name.removeprefix(prefix) for name in contract.keys()]
    for name, value in contract.items():
        assert ours.from_pb(value).name == name.removeprefix(prefix)
        assert ours.from_pb(value) == value
    assert ours.from_pb(99).name == "UNSPECIFIED", "a phase from a newer server"

"""Types of the Rust extension ``cardroom._engine`` (sdk/python/engine); use it through
:mod:`cardroom.engine`, which documents it."""

from collections.abc import Iterable
from typing import Any

from cardroom.actions import Action
from cardroom.cards import Card, Hand
from cardroom.model import Observation, Standing

#: JSON values as ``json.loads`` gives them (a dict for options, setups, records).
_Json = Any
#: A knock's melds: a tuple of hands.
Melds = tuple[Hand, ...]

class State:
    """One match of Gin Rummy, Twenty-Two or Hold'em, always a valid position."""

    @property
    def game(self) -> str:
        """``"gin"``, ``"twenty_two"`` or ``"holdem"``."""
    @property
    def players(self) -> int:
        """Seats at the table."""
    @property
    def num_action_ids(self) -> int:
        """How many action ids the game has: Gin Rummy 161, Twenty-Two 2048, Hold'em 7.

        Gin Rummy: 0 take the upcard, 1 pass, 2 draw from the stock, 3 draw the discard,
        4 + c discard card c, 56 + c knock discarding c (with the legal arrangement of least
        deadwood), 108 + c gin discarding c, 160 big gin; c is the card's byte, 0 = 2♣, 1 = 2♦,
        … 51 = A♠ (rank, then suit: the SDK's order). Twenty-Two: the position in the sorted
        legal list (an 11-card hand has at most 2048 choices). Hold'em: 0 fold, 1 check or call,
        then raises to 2 the smallest, 3 half the pot, 4 the pot, 5 twice the pot, 6 all in, each
        the nearest legal size (several ids may name one raise).
        """
    @property
    def tensor_len(self) -> int:
        """The length of :meth:`observation_tensor`: Gin Rummy 270, Twenty-Two 277, Hold'em 169."""
    def options(self) -> dict[str, _Json]:
        """The match's options, as JSON values."""
    def is_over(self) -> bool:
        """Whether the match is over."""
    def to_act(self) -> int | None:
        """The seat to act, ``None`` once the match is over."""
    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act, sorted; empty only when the match is over."""
    def num_legal_actions(self) -> int:
        """``len(legal_actions())``, without building the actions."""
    def apply(self, seat: int, action: Action) -> None:
        """Applies ``action`` for ``seat``.

        Raises ``IllegalActionError`` (with ``rule``), and nothing changes, when the rules
        refuse it; ``ActionTypeError`` for a value that is no action of this game.
        """
    def apply_with_events(self, seat: int, action: Action) -> list[dict[str, _Json]]:
        """As :meth:`apply`, returning the public events it caused, as JSON values."""
    def apply_index(self, index: int) -> None:
        """Applies ``legal_actions()[index]`` for the seat to act (the playouts' fast path).

        Raises ``NoSuchActionError`` past the list or when the match is over.
        """
    def legal_action_ids(self) -> list[int]:
        """The action ids (:attr:`num_action_ids`) of the legal actions, ascending."""
    def action_of_id(self, id: int) -> Action:
        """The legal action with this id; ``NoSuchActionError`` when no legal action has it."""
    def apply_id(self, id: int) -> None:
        """Applies the legal action with this id for the seat to act."""
    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` may see, as :attr:`tensor_len` numbers in 0..1.

        Gin Rummy: own hand, the opponent's known cards, the discard pile, the upcard, the card
        just drawn (52 each, by card byte); the phase (first upcard, draw, discard, wall, over);
        whether ``seat`` acts; stock size / 52; own and the opponent's score / target; the knock
        limit / 10. Twenty-Two: own hand, own exchange discards, the trick's strongest
        combination, the cards played this deal (52 each, copies / packs); per seat (16 slots)
        score / limit, cards in hand / 11, eliminated; ``seat`` one-hot (16); the phase
        (exchange, play, over); whether ``seat`` acts; whether it leads. Hold'em: own hole
        cards and the board (52 each); per seat (10 slots) chips behind, bet on this round and
        chips put in this hand over the table's chips, and whether it is in the hand; ``seat``
        one-hot and the button one-hot (10 each); the round (4); whether ``seat`` acts.
        """
    def clone(self) -> State:
        """An independent copy."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: dict[int, object], /) -> State: ...
    def observation(self, seat: int) -> dict[str, _Json]:
        """What ``seat`` may see: the engine's JSON form (the SDK's ``Observation.json``)."""
    def observation_json(self, seat: int) -> str:
        """:meth:`observation` as JSON text."""
    def public_view(self) -> dict[str, _Json]:
        """What spectators see, as JSON values."""
    def standings(self) -> list[Standing] | None:
        """Final standings, first place first; ``None`` until the match is over."""
    def end_reason(self) -> str | None:
        """Why the match ended, citing the rule (``"GR-17: drawn after 300 hands, …"``); ``None``
        until the match is over. The record's ``termination`` says the same."""
    def scores(self) -> list[int]:
        """Gin Rummy's hand points so far, Twenty-Two's penalty points, or Hold'em's chips, per
        seat."""
    def deal_number(self) -> int:
        """The Gin Rummy or Hold'em hand, or the Twenty-Two deal, under way, from 1."""
    def hand(self, seat: int) -> Hand:
        """The cards ``seat`` holds."""
    def default_action(self) -> Action | None:
        """What the server plays for a seat whose time ran out; ``None`` at the end."""
    def record_json(self) -> str | None:
        """The record, as the JSON ``cardroom replay`` reads; ``None`` for a sampled state."""
    def record(self) -> dict[str, _Json] | None:
        """The record as JSON values; ``None`` for a sampled state."""
    def sample(self, seat: int, seed: int) -> State:
        """A full state ``seat`` cannot tell from this one (see :func:`sample`)."""

def new(
    game: str,
    players: int | None = None,
    seed: int = 0,
    options: dict[str, _Json] | str | None = None,
) -> State:
    """A new match of ``game`` dealt from ``seed``; raises ``UnknownGameError``,
    ``OptionsError`` or ``SetupError``."""

def from_setup(
    game: str, setup: dict[str, _Json] | str, options: dict[str, _Json] | str | None = None
) -> State:
    """A match from an explicit position (the records' ``setup`` JSON); raises ``SetupError``."""

def from_record(record: dict[str, _Json] | str) -> State:
    """The final state of a replayed record; raises ``RecordError``."""

def sample(
    observation: Observation | dict[str, _Json] | str, seed: int, game: str | None = None
) -> State:
    """A full state the observing seat cannot tell from the one it observed; raises
    ``SampleError``."""

def games() -> list[str]:
    """The games' names: ``["twenty_two", "gin", "holdem"]``."""

def seats(game: str) -> tuple[int, int]:
    """The fewest and most seats of ``game`` with its default options."""

def deadwood(cards: Iterable[Card]) -> int:
    """The least deadwood of at most 11 cards (GR-3)."""

def best_melds(cards: Iterable[Card]) -> tuple[int, list[Melds]]:
    """The least deadwood and every arrangement reaching it."""

def knock_deadwood(cards: Iterable[Card]) -> int:
    """The knock check of 11 cards (GR-3): the least deadwood after any discard."""

def can_knock(cards: Iterable[Card], limit: int = 10) -> bool:
    """Whether 11 cards may knock or go gin with this knock limit."""

def discards(cards: Iterable[Card]) -> list[tuple[Card, int]]:
    """Each card of an 11-card hand with the deadwood left after discarding it, best first."""

def knock_arrangements(cards: Iterable[Card], limit: int) -> list[Melds]:
    """Every arrangement of at most 11 cards with deadwood at most ``limit`` (GR-7)."""

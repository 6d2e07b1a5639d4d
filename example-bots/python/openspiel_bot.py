#!/usr/bin/env python3
"""OpenSpiel's simple Gin Rummy bot (``pyspiel.make_simple_gin_rummy_bot``) playing on a
cardroom server, so cardroom's bots can be measured against a baseline researchers know.

cardroom plays a match to 100 points; OpenSpiel's ``gin_rummy`` is one hand. For every decision
the adapter rebuilds an OpenSpiel state of the current hand from the public events it received
(GR-15) and its own hand, asks the simple bot, and answers with the matching cardroom action:

- Seats: OpenSpiel's player 0 always acts first, so cardroom's non-dealer is player 0 and the
  dealer is player 1.
- Cards: OpenSpiel numbers them ``suit * 13 + rank``, suits spades, clubs, diamonds, hearts and
  ranks ace low (:func:`openspiel_card`).
- Actions: take the first upcard / draw the upcard (52), draw from the stock (53), pass (54), a
  card (discard), knock (55), then the knock's discard and melds (56 and up), which become one
  cardroom ``Knock`` (or ``Gin``). At the wall OpenSpiel's knock takes the upcard: cardroom's
  ``DrawDiscard`` there, then the planned knock.
- Hidden cards: OpenSpiel's state needs the opponent's cards, which the adapter does not know.
  The simple bot never looks at them (it reads only its own hand, the upcard, the discard pile,
  the stock size, the knock card and the opponent's laid melds), so any cards do, as long as the
  replay is legal: each card the opponent discarded without having taken it from the pile is put
  in its deal or in one of its stock draws before that discard (:func:`place_hidden_cards`),
  the rest are cards nobody has seen.

Play it under OpenSpiel's rules (:data:`OPENSPIEL_OPTIONS`; the README lists what still
differs). Run it::

    .venv/bin/pip install open_spiel==1.6
    .venv/bin/python example-bots/python/openspiel_bot.py --server 127.0.0.1:50051 --token T
    .venv/bin/python example-bots/python/openspiel_bot.py --queue-game gin \\
        --queue-options '{"discard_taken_upcard": true, "tie_is_undercut": false, "wall_knock": true}'
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

import cardroom
from cardroom import (
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    Event,
    Gin,
    GinPhase,
    Knock,
    MatchInfo,
    PassUpcard,
    Rank,
    Suit,
    TakeUpcard,
    Turn,
)

log = logging.getLogger("openspiel_bot")

#: cardroom's Gin Rummy options that give OpenSpiel's rules, where cardroom has the option
#: (GR-6, GR-7, GR-8, GR-10, GR-11, GR-12, GR-14). The others (``first_upcard``, ``target``,
#: ``max_hands``, the match bonuses) keep cardroom's defaults: OpenSpiel's first upcard is
#: cardroom's ``standard``, and OpenSpiel has no match, only hands.
OPENSPIEL_OPTIONS: dict[str, Any] = {
    "discard_taken_upcard": True,
    "tie_is_undercut": False,
    "wall_knock": True,
    "knock_limit": 10,
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "big_gin": False,
    "oklahoma": False,
    "max_upcard_draws": 50,
}

#: OpenSpiel's gin_rummy action numbers.
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56

_SUIT_ORDER = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def openspiel_card(card: Card) -> int:
    """OpenSpiel's number for ``card``: suit (spades, clubs, diamonds, hearts) × 13 + rank, ace
    low (A = 0, K = 12)."""
    rank = 0 if card.rank is Rank.ACE else int(card.rank) - 1
    return _SUIT_ORDER.index(card.suit) * 13 + rank


def cardroom_card(number: int) -> Card:
    """The card OpenSpiel numbers ``number`` (0 to 51)."""
    suit, rank = divmod(number, 13)
    return Card(Rank.ACE if rank == 0 else Rank(rank + 1), _SUIT_ORDER[suit])


def _meld_table(game: Any) -> dict[int, frozenset[int]]:
    """OpenSpiel's meld numbers (action − 56) and their cards, read from its action names."""
    state = game.new_initial_state()
    names = {"A23456789TJQK"[n % 13] + "scdh"[n // 13]: n for n in range(52)}
    melds: dict[int, frozenset[int]] = {}
    meld = 0
    while MELD_BASE + meld < game.num_distinct_actions():
        text = str(state.action_to_string(0, MELD_BASE + meld)).rsplit(" ", 1)[-1]
        melds[meld] = frozenset(names[text[i : i + 2]] for i in range(0, len(text), 2))
        meld += 1
    return melds


class ReplayError(Exception):
    """The events of this hand cannot be replayed in OpenSpiel's rules (a rule the two engines
    do not share, or events missing): the adapter answers with the first legal action."""


def place_hidden_cards(
    opponent_moves: Sequence[tuple[str, int | None]], deal_size: int, unseen: Iterable[int]
) -> tuple[list[int], list[int]]:
    """The opponent's dealt cards and the card of each of its stock draws, for a legal replay.

    ``opponent_moves`` are its moves in order: ``("stock", None)`` for a stock draw,
    ``("took", card)`` for a card taken from the discard pile and ``("discard", card)``. A
    discarded card it had not taken must be in its deal or in a stock draw before that discard:
    they are placed greedily, each into the earliest free place (earliest-deadline order, which
    finds a placement whenever one exists). Free places get cards from ``unseen``. Raises
    :class:`ReplayError` when no placement exists (the events contradict each other).
    """
    deal: list[int | None] = [None] * deal_size
    draws: list[int | None] = []
    held_known: set[int] = set()
    # Free places, earliest first: ("deal", i) or ("draw", j).
    free: list[tuple[str, int]] = [("deal", i) for i in range(deal_size)]
    for kind, card in opponent_moves:
        if kind == "stock":
            free.append(("draw", len(draws)))
            draws.append(None)
        elif kind == "took" and card is not None:
            held_known.add(card)
        elif kind == "discard" and card is not None:
            if card in held_known:
                held_known.discard(card)
                continue
            if not free:
                raise ReplayError(f"the opponent discarded {cardroom_card(card)}, unseen, twice")
            where, index = free.pop(0)
            (deal if where == "deal" else draws)[index] = card
    fillers = iter(sorted(unseen))
    try:
        filled_deal = [card if card is not None else next(fillers) for card in deal]
        filled_draws = [card if card is not None else next(fillers) for card in draws]
    except StopIteration:
        raise ReplayError("more hidden places than unseen cards") from None
    return filled_deal, filled_draws


@dataclass
class HandLog:
    """What the adapter saw of the current hand: the public events since it was dealt, its own
    dealt hand (what it held at its first turn of the hand) and the card of each of its stock
    draws."""

    #: The hand's number (``GinView.deal``).
    number: int
    dealer: int
    upcard: int
    #: The public events of the hand so far (the adapter's list, still growing).
    events: list[dict[str, Any]]
    dealt: list[int]
    #: Its stock draws' cards, by the draw's number in the hand.
    drawn: dict[int, int] = field(default_factory=dict)
    #: The knock planned at the wall (discard, melds), played on the next turn.
    wall_knock: tuple[int, frozenset[frozenset[int]]] | None = None


@dataclass(frozen=True)
class Decision:
    """The simple bot's answer: its first action, and for a knock its discard and melds."""

    action: int
    knock: tuple[int, frozenset[frozenset[int]]] | None = None


class OpenSpielSimpleBot(cardroom.Bot):
    """``pyspiel.make_simple_gin_rummy_bot`` behind the cardroom SDK (see the module's doc)."""

    name = "openspiel-simple"
    #: It replays each hand from the events' JSON (``Event.json``).
    wants_json = True

    def __init__(self) -> None:
        self.game: Any = None
        self.melds: dict[int, frozenset[int]] = {}
        self.meld_ids: dict[frozenset[int], int] = {}
        self.hand: HandLog | None = None
        #: The public events since the last hand ended.
        self.pending: list[dict[str, Any]] = []
        #: Decisions the simple bot made.
        self.decided = 0
        #: Decisions answered with the first legal action because the replay failed.
        self.fallbacks = 0

    def on_match_start(self, match: MatchInfo) -> None:
        """Makes OpenSpiel's game with the match's knock limit and bonuses."""
        options = match.options
        differing = {
            key: options.get(key) for key, value in OPENSPIEL_OPTIONS.items()
            if key in options and options[key] != value
        }
        if differing:
            log.warning("options differ from OpenSpiel's rules (see the README): %s", differing)
        self.game = pyspiel.load_game(
            "gin_rummy",
            {
                "knock_card": int(options.get("knock_limit", 10)),
                "gin_bonus": int(options.get("gin_bonus", 25)),
                "undercut_bonus": int(options.get("undercut_bonus", 25)),
                "oklahoma": False,
                "hand_size": 10,
            },
        )
        self.melds = _meld_table(self.game)
        self.meld_ids = {cards: meld for meld, cards in self.melds.items()}

    def on_events(self, events: list[Event]) -> None:
        """Keeps the current hand's events: those since the last hand ended (the first hand's
        deal happens before the seats join, so its ``hand_dealt`` is never seen)."""
        for event in events:
            data = event.json
            if data.get("event") in ("hand_ended", "hand_dealt"):
                self.hand = None
                self.pending = []
            else:
                self.pending.append(data)

    def choose(self, turn: Turn) -> int | cardroom.Action:
        """The simple bot's action, or the first legal action when the hand cannot be replayed."""
        view = turn.observation.gin
        if view is None or self.game is None:
            self.fallbacks += 1
            return 0
        me = turn.observation.seat
        if self.hand is None or self.hand.number != view.deal:
            # Its first turn of the hand: it has not acted yet, so it holds what it was dealt.
            self.hand = HandLog(
                number=view.deal,
                dealer=view.dealer,
                upcard=self._first_upcard(view),
                events=self.pending,
                dealt=[openspiel_card(card) for card in view.hand],
            )
        hand = self.hand
        if view.phase is GinPhase.DISCARD and view.drawn is not None:
            hand.drawn[self._stock_draws(me) - 1] = openspiel_card(view.drawn)
        try:
            action = self._decide(turn, me)
        except (ReplayError, RuntimeError) as error:
            # RuntimeError: pyspiel's SpielFatalError, a move OpenSpiel's rules refuse.
            self.fallbacks += 1
            log.warning("turn %d: cannot replay the hand in OpenSpiel (%s)", turn.number, error)
            return 0
        if action not in turn.actions:
            self.fallbacks += 1
            log.warning("turn %d: the simple bot's %s is not legal here", turn.number, action)
            return 0
        self.decided += 1
        return action

    def _first_upcard(self, view: cardroom.GinView) -> int:
        """The hand's first upcard: the card of the ``upcard_taken`` event if the opponent took
        it before this seat's first turn, else the bottom of the discard pile."""
        for data in self.pending:
            if data.get("event") == "upcard_taken":
                return openspiel_card(Card.parse(data["card"]))
        if not view.discard_pile:
            raise ReplayError("no first upcard")
        return openspiel_card(view.discard_pile[0])

    def _stock_draws(self, seat: int) -> int:
        assert self.hand is not None
        return sum(
            1 for e in self.hand.events if e.get("event") == "drew_stock" and e["seat"] == seat
        )

    def _decide(self, turn: Turn, me: int) -> cardroom.Action:
        view = turn.observation.gin
        assert view is not None and self.hand is not None
        hand = self.hand
        if view.phase is GinPhase.DISCARD and hand.wall_knock is not None:
            return self._knock_action(turn, hand.wall_knock)
        state, player = self._replay(me)
        if state.is_terminal() or state.current_player() != player:
            raise ReplayError("OpenSpiel's hand is over or waits for the other player")
        decision = self._ask(state, player)
        legal = {type(la.action): la.action for la in turn.legal_actions}
        if view.phase is GinPhase.FIRST_UPCARD:
            if decision.action == DRAW_UPCARD and TakeUpcard in legal:
                return TakeUpcard()
            if decision.action == DRAW_STOCK and DrawStock in legal:
                return DrawStock()
            return PassUpcard()
        if view.phase is GinPhase.DRAW:
            return DrawDiscard() if decision.action == DRAW_UPCARD else DrawStock()
        if view.phase is GinPhase.WALL:
            if decision.action == KNOCK and decision.knock is not None and DrawDiscard in legal:
                hand.wall_knock = decision.knock
                return DrawDiscard()
            return PassUpcard()
        if view.phase is GinPhase.DISCARD:
            if decision.knock is not None:
                return self._knock_action(turn, decision.knock)
            return Discard(cardroom_card(decision.action))
        raise ReplayError(f"no decision in phase {view.phase.name}")

    def _ask(self, state: Any, player: int) -> Decision:
        """Runs the simple bot from ``state``; a knock is followed through its discard and melds."""
        bot = pyspiel.make_simple_gin_rummy_bot(self.game.get_parameters(), player)
        action = int(bot.step(state))
        if action != KNOCK:
            return Decision(action)
        knocked = state.clone()
        knocked.apply_action(KNOCK)
        discard: int | None = None
        melds: set[frozenset[int]] = set()
        while not knocked.is_terminal() and knocked.current_player() == player:
            step = int(bot.step(knocked))
            if step == PASS:
                break
            if step < 52:
                discard = step
            elif step >= MELD_BASE:
                melds.add(self.melds[step - MELD_BASE])
            knocked.apply_action(step)
        if discard is None:
            raise ReplayError("the simple bot knocked without a discard")
        return Decision(KNOCK, (discard, frozenset(melds)))

    def _knock_action(
        self, turn: Turn, knock: tuple[int, frozenset[frozenset[int]]]
    ) -> cardroom.Action:
        """The cardroom knock (or gin) laying the simple bot's melds, else the nearest one: the
        same discard with the least deadwood."""
        discard, melds = knock
        best: tuple[int, cardroom.Action] | None = None
        for legal in turn.legal_actions:
            action = legal.action
            if isinstance(action, Gin) and openspiel_card(action.discard) == discard:
                return action
            if isinstance(action, Knock) and openspiel_card(action.discard) == discard:
                laid = frozenset(frozenset(openspiel_card(c) for c in m) for m in action.melds)
                if laid == melds:
                    return action
                melded = {c for m in action.melds for c in m}
                deadwood = sum(
                    c.rank.gin_value for c in turn.hand if c not in melded and c != action.discard
                )
                if best is None or deadwood < best[0]:
                    best = (deadwood, action)
        if best is not None:
            return best[1]
        return Discard(cardroom_card(discard))

    def _replay(self, me: int) -> tuple[Any, int]:
        """OpenSpiel's state of this hand at the current decision, and the adapter's player."""
        hand = self.hand
        if hand is None:
            raise ReplayError("no hand dealt yet")
        dealt = hand.dealt
        dealer = hand.dealer
        player_of = {1 - dealer: 0, dealer: 1}
        opponent = 1 - me
        moves: list[tuple[str, int | None]] = []
        seen: set[int] = set(dealt) | {hand.upcard} | set(hand.drawn.values())
        for event in hand.events:
            kind = event.get("event")
            card = openspiel_card(Card.parse(event["card"])) if "card" in event else None
            if card is not None:
                seen.add(card)
            if event.get("seat") != opponent:
                continue
            if kind == "drew_stock":
                moves.append(("stock", None))
            elif kind in ("upcard_taken", "drew_discard"):
                moves.append(("took", card))
            elif kind == "discarded":
                moves.append(("discard", card))
        unseen = set(range(52)) - seen
        their_deal, their_draws = place_hidden_cards(moves, 10, unseen)

        state = self.game.new_initial_state()
        deals = {me: list(dealt), opponent: their_deal}
        for seat in sorted(player_of, key=player_of.__getitem__):
            for card in deals[seat]:
                state.apply_action(card)
        state.apply_action(hand.upcard)
        draws = {me: 0, opponent: 0}
        for event in hand.events:
            kind = event.get("event")
            seat = int(event.get("seat", -1))
            if kind not in ("upcard_taken", "upcard_passed", "drew_stock", "drew_discard", "discarded"):
                continue
            if state.is_terminal():
                raise ReplayError("OpenSpiel's hand ended (repeated move or 50 upcard draws)")
            if kind == "upcard_taken":
                state.apply_action(DRAW_UPCARD)
            elif kind == "upcard_passed":
                state.apply_action(PASS)
            elif kind == "drew_stock":
                state.apply_action(DRAW_STOCK)
                number = draws[seat]
                draws[seat] += 1
                if seat == me:
                    if number not in hand.drawn:
                        raise ReplayError(f"the card of stock draw {number + 1} is unknown")
                    state.apply_action(hand.drawn[number])
                else:
                    state.apply_action(their_draws[number])
            elif kind == "drew_discard":
                if DRAW_UPCARD in state.legal_actions():
                    state.apply_action(DRAW_UPCARD)
                else:
                    raise ReplayError("a take at the wall is a knock, and the hand is over")
            else:
                state.apply_action(openspiel_card(Card.parse(event["card"])))
        return state, player_of[me]


if __name__ == "__main__":
    sys.exit(cardroom.main(OpenSpielSimpleBot(), description=__doc__))

"""The rules engines from Python (cardroom.engine): typed rule errors, whole random matches of
both games, independent clones, records that the Rust ``cardroom replay`` replays to the same
end, samples the observing seat cannot tell from the real state, and the Gin Rummy solver."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from cardroom import (
    GOING_OUT,
    Action,
    Card,
    Discard,
    DrawStock,
    Exchange,
    Hand,
    Knock,
    PassUpcard,
    Play,
    Standing,
    TakeUpcard,
    engine,
)
from conftest import server_binary


def play_out(state: engine.State, seed: int, go_out: bool = True) -> int:
    """Plays random legal actions to the end (in Gin Rummy going out whenever it can, so that
    matches end in tens of hands); returns the number of actions."""
    rng = random.Random(seed)
    actions = 0
    while (seat := state.to_act()) is not None:
        legal = state.legal_actions()
        out = [action for action in legal if isinstance(action, GOING_OUT)] if go_out else []
        state.apply(seat, rng.choice(out or legal))
        actions += 1
    return actions


# ---- typed errors ---------------------------------------------------------------------------


def test_an_illegal_action_raises_the_rule_it_breaks_and_changes_nothing() -> None:
    state = engine.new("gin", seed=3)
    seat = state.to_act()
    assert seat is not None
    before = state.observation(seat)
    with pytest.raises(engine.IllegalActionError) as out_of_turn:
        state.apply(1 - seat, PassUpcard())
    assert out_of_turn.value.rule == "GR-6"
    assert str(out_of_turn.value).startswith("GR-6: ")
    with pytest.raises(engine.IllegalActionError) as draw_first:
        state.apply(seat, DrawStock())
    assert draw_first.value.rule == "GR-5"
    assert state.observation(seat) == before

    tt = engine.new("twenty_two", players=3, seed=1)
    seat = tt.to_act()
    assert seat is not None
    with pytest.raises(engine.IllegalActionError) as lead_now:
        tt.apply(seat, Play(tt.hand(seat)[:1]))
    assert lead_now.value.rule == "TT-9"
    # Every engine error is an EngineError.
    assert isinstance(lead_now.value, engine.EngineError)


def test_a_knock_with_no_meld_is_refused_by_gr_2() -> None:
    state = engine.new("gin", seed=3)
    seat = state.to_act()
    assert seat is not None
    hand = state.hand(seat)
    with pytest.raises(engine.IllegalActionError) as error:
        state.apply(seat, Knock(hand[0], (hand[1:4],)))
    assert error.value.rule in ("GR-2", "GR-5")


def test_bad_values_raise_typed_errors_not_crashes() -> None:
    with pytest.raises(engine.UnknownGameError, match="poker"):
        engine.new("poker")
    with pytest.raises(engine.OptionsError) as limit:
        engine.new("gin", options={"knock_limit": 11})
    assert limit.value.rule == "GR-7"
    with pytest.raises(engine.OptionsError):
        engine.new("gin", options={"no_such_option": 1})
    with pytest.raises(engine.SetupError) as players:
        engine.new("gin", players=3)
    assert players.value.rule == "GR-1"
    with pytest.raises(engine.SetupError) as table:
        engine.new("twenty_two", players=13)
    assert table.value.rule == "TT-4"
    state = engine.new("twenty_two", players=2, seed=5)
    with pytest.raises(engine.ActionTypeError):
        state.apply(0, DrawStock())
    with pytest.raises(engine.ActionTypeError):
        state.apply(0, "exchange nothing")  # type: ignore[arg-type]
    with pytest.raises(engine.NoSuchSeatError):
        state.observation(2)
    with pytest.raises(engine.NoSuchSeatError):
        state.apply(-1, Exchange(Hand()))
    with pytest.raises(engine.IllegalActionError) as past_the_table:
        state.apply(7, Exchange(Hand()))
    assert past_the_table.value.rule == "TT-9"
    with pytest.raises(engine.NoSuchActionError):
        state.apply_index(10_000)
    with pytest.raises(engine.RecordError):
        engine.from_record("{}")
    with pytest.raises(engine.SampleError):
        engine.sample({"seat": 0}, seed=1)
    with pytest.raises(engine.SolverError):
        engine.knock_deadwood(Hand.parse("AS 2S 3S"))


def test_explicit_setups_are_checked_naming_the_rule() -> None:
    pack = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS"]
    setup = {
        "dealer": 0,
        "hands": [pack[0:10], pack[10:20]],
        "discard_pile": [pack[20]],
        "stock": pack[21:],
    }
    state = engine.from_setup("gin", setup)
    assert state.hand(0) == Hand.parse(" ".join(pack[0:10]))
    assert state.to_act() == 1
    setup["hands"] = [pack[0:9], pack[9:20]]
    with pytest.raises(engine.SetupError) as error:
        engine.from_setup("gin", setup)
    assert error.value.rule == "GR-4"


# ---- whole matches --------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("gin", 2), ("twenty_two", 2), ("twenty_two", 5)])
def test_random_matches_end_with_standings(game: str, players: int) -> None:
    for seed in range(3):
        state = engine.new(game, players=players, seed=seed)
        actions = play_out(state, seed)
        assert actions > 0 and state.is_over()
        assert state.legal_actions() == [] and state.to_act() is None
        standings = state.standings()
        assert standings is not None
        assert sorted(s.seat for s in standings) == list(range(players))
        assert all(isinstance(s, Standing) and s.place >= 1 for s in standings)
        reason = state.end_reason()
        assert reason is not None and reason[:3] in ("GR-", "TT-")
        record = state.record()
        assert record is not None and record["termination"] == reason
        with pytest.raises(engine.NoSuchActionError) as over:
            state.apply_index(0)
        assert over.value.rule == ("GR-13" if game == "gin" else "TT-21")


def test_a_gin_match_of_bots_that_never_go_out_ends_drawn_at_the_hand_limit() -> None:
    # Issue 45: the first legal action never goes out, so every hand is drawn at the wall
    # (GR-10); the match ends drawn after max_hands hands (GR-17).
    state = engine.new("gin", seed=4, options={"max_hands": 3})
    assert state.end_reason() is None
    while (seat := state.to_act()) is not None:
        state.apply(seat, state.legal_actions()[0])
    assert state.deal_number() == 3 and state.scores() == [0, 0]
    standings = state.standings()
    assert standings is not None and [s.place for s in standings] == [1, 1]
    reason = "GR-17: drawn after 3 hands, neither seat reached the target of 100 points"
    assert state.end_reason() == reason
    record = state.record_json()
    assert record is not None and json.loads(record)["termination"] == reason
    assert engine.from_record(record).end_reason() == reason


def test_legal_actions_are_the_sdks_values_and_apply_takes_equal_ones() -> None:
    state = engine.new("gin", seed=11)
    assert state.legal_actions() == [TakeUpcard(), PassUpcard()]
    seat = state.to_act()
    assert seat is not None
    state.apply(seat, TakeUpcard())
    discards = state.legal_actions()
    assert all(isinstance(action, Discard) for action in discards)
    # A Discard built by hand from a parsed card is the same action.
    card = Card.parse(str(discards[0].card))  # type: ignore[union-attr]
    state.apply(seat, Discard(card))
    tt = engine.new("22", players=3, seed=2)
    legal: list[Action] = tt.legal_actions()
    assert legal[0] == Exchange(Hand())
    # The engine's hands are sorted as the SDK sorts them.
    for action in legal:
        assert isinstance(action, Exchange)
        assert action.cards == Hand(reversed(action.cards.cards))


def test_a_clone_is_independent() -> None:
    state = engine.new("twenty_two", players=4, seed=9)
    copy = state.clone()
    play_out(copy, 1)
    assert copy.is_over() and not state.is_over()
    assert state.record() != copy.record()
    again = state.clone()
    play_out(again, 1)
    assert again.public_view() == copy.public_view()


# ---- records --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("gin", 2), ("twenty_two", 4)])
def test_a_record_replays_in_python_and_in_rust_to_the_same_end(
    game: str, players: int, tmp_path: Path
) -> None:
    state = engine.new(game, players=players, seed=21, options={})
    play_out(state, 21)
    record = state.record_json()
    assert record is not None and json.loads(record)["game"] == game
    replayed = engine.from_record(record)
    assert replayed.public_view() == state.public_view()
    assert engine.from_record(json.loads(record)).standings() == state.standings()
    path = tmp_path / "match.json"
    path.write_text(record)
    rust = subprocess.run(
        [str(server_binary()), "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(rust.stdout)
    assert report["over"] is True
    assert report["final"] == state.public_view()
    standings = state.standings()
    assert standings is not None
    assert report["standings"] == [{"place": s.place, "seat": s.seat} for s in standings]


def test_a_record_with_an_illegal_action_names_it() -> None:
    state = engine.new("gin", seed=4)
    record = state.record()
    assert record is not None
    record["actions"] = [{"seat": 0, "action": "draw_stock"}]
    with pytest.raises(engine.RecordError, match="action 0"):
        engine.from_record(record)


# ---- sampling -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("gin", 2), ("twenty_two", 4)])
def test_a_sample_is_consistent_with_the_observation(game: str, players: int) -> None:
    state = engine.new(game, players=players, seed=5)
    rng = random.Random(5)
    for step in range(60):
        seat = state.to_act()
        if seat is None:
            break
        observer = step % players
        observation = state.observation(observer)
        hidden = set()
        for seed in range(4):
            sample = engine.sample(observation, seed=seed)
            assert sample.observation(observer) == observation
            assert sample.record() is None
            assert state.sample(observer, seed).observation(observer) == observation
            others = [sample.hand(s) for s in range(players) if s != observer]
            hidden.add(tuple(others))
        # The seat's own cards are kept; the others' are dealt again.
        assert len(hidden) > 1
        state.apply(seat, rng.choice(state.legal_actions()))


# ---- the Gin Rummy solver -------------------------------------------------------------------


def test_the_solver_counts_deadwood_and_finds_the_melds() -> None:
    hand = Hand.parse("AS 2S 3S 5C 5D 5H 7D 8D 9D KC")
    assert engine.deadwood(hand) == 10
    deadwood, arrangements = engine.best_melds(hand)
    assert deadwood == 10
    assert {frozenset(meld) for meld in arrangements[0]} == {
        frozenset(Hand.parse("AS 2S 3S")),
        frozenset(Hand.parse("5C 5D 5H")),
        frozenset(Hand.parse("7D 8D 9D")),
    }
    eleven = Hand([*hand, Card.parse("TD")])
    assert engine.knock_deadwood(eleven) == 0
    assert engine.can_knock(eleven, limit=0)
    assert engine.discards(eleven)[0] == (Card.parse("KC"), 0)
    assert len(engine.knock_arrangements(hand, limit=10)) >= 1
    with pytest.raises(engine.SolverError, match="GR-1"):
        engine.deadwood([Card.parse("AS"), Card.parse("AS")])


def test_sampling_an_observation_that_came_without_its_json_says_how_to_ask_for_it() -> None:
    class Received:
        """An SDK observation as a bot receives it by default: the engine JSON omitted."""

        json: dict[str, object] = {}

    with pytest.raises(engine.SampleError, match="wants_json"):
        engine.sample(Received(), seed=1)  # type: ignore[arg-type]  # shaped as the SDK's Observation

"""The Python search bot on the engine's bindings plays a Gin Rummy match against a real server:
it samples engine states from the observations it is sent, and every sample is one its seat
cannot tell from the real position."""

from __future__ import annotations

from conftest import Server, play_all
from helpers import load_example

import cardroom
from cardroom import Game, Turn, engine


def test_the_search_bot_plays_a_live_match_from_sampled_states(server: Server) -> None:
    search = load_example("gin_search_bot")
    gin_bot = load_example("gin_bot")

    class Checked(search.GinSearchBot):  # type: ignore[name-defined,misc]
        """The search bot, checking each turn that a sample keeps what the seat sees."""

        def __init__(self) -> None:
            super().__init__(samples=2, move_ms=50, seed=1)
            self.turns = 0

        def choose(self, turn: Turn) -> int:
            sample = engine.sample(turn.observation, seed=self.turns)
            assert sample.observation(turn.seat) == turn.observation.json
            assert sample.legal_actions() == turn.actions
            self.turns += 1
            choice: int = super().choose(turn)
            return choice

    bot = Checked()
    created = server.create(Game.GIN_RUMMY, seats=2, seed=17, options={"target": 10})
    bots: list[cardroom.Bot] = [bot, gin_bot.GinBot()]
    results = play_all(
        [
            lambda bot=bot, seat=seat: cardroom.run(bot, server=server.address, token=seat.token)  # type: ignore[misc]
            for bot, seat in zip(bots, created.seats)
        ]
    )
    assert all(not result.aborted for result in results)
    assert results[0].standings == results[1].standings and results[0].standings
    assert bot.turns > 0


def test_the_search_compares_few_candidates_and_keeps_the_greedy_choice_unless_beaten() -> None:
    search = load_example("gin_search_bot")
    options = {"discard_taken_upcard": True, "tie_is_undercut": False, "wall_knock": True}
    state = engine.new("gin", players=2, seed=5, options=options)
    discards_seen = 0
    bot = search.GinSearchBot(samples=4, move_ms=60_000, seed=3, confidence=float("inf"))
    while not state.is_over() and discards_seen < 6:
        seat = state.to_act()
        assert seat is not None
        legal = state.legal_actions()
        guide = search.greedy(state, seat)
        arms = search.candidates(state, seat, legal)
        # The greedy choice comes first, every candidate is legal, there are no duplicates.
        assert arms[0] == guide
        assert all(arm in legal for arm in arms) and len(set(map(repr, arms))) == len(arms)
        assert len(arms) <= search.MAX_CANDIDATES
        discards = [arm for arm in arms if isinstance(arm, cardroom.Discard)]
        if discards:
            discards_seen += 1
            ranked = dict(engine.discards(state.hand(seat)))
            least = min(ranked.values())
            assert all(ranked[arm.card] <= least + search.DISCARD_SLACK for arm in discards)
        if len(legal) > 1:
            # With an infinite confidence nothing beats the guide: the search plays it.
            assert bot.search(state.observation(seat), seat, legal) == guide
        state.apply(seat, guide)
    assert discards_seen > 0

"""Python bots against a real ``cardroom serve`` over gRPC: whole matches, the queue,
reconnection and refused actions."""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from conftest import PATIENCE, Server, play_all, server_binary
from helpers import EXAMPLES, Dropper, DroppingProxy, IllegalLeader, Recorder, load_example

import cardroom
from cardroom import Card, ErrorCode, Game
from cardroom.v1 import cardroom_pb2 as pb


def check_standings(results: list[cardroom.MatchResult], seats: int) -> None:
    """Every bot saw the same finished match, with one standing per seat and a winner."""
    assert len({r.match.match_id for r in results}) == 1
    assert sorted(r.match.seat for r in results) == list(range(seats))
    for result in results:
        assert not result.aborted, result.reason
        assert result.standings == results[0].standings
        assert sorted(s.seat for s in result.standings) == list(range(seats))
        assert result.standings[0].place == 1
        assert not any(s.forfeited for s in result.standings)


def check_typed_views(turns: list[cardroom.Turn]) -> None:
    """Each turn's typed view says what the engine's JSON says: the phase (an enum named after
    the engine's phase), the fields renamed alike across games (``deal``, ``stock_size``,
    ``cards_dealt``, a seat's ``hand_size``) and the details the JSON alone once carried (won
    cards, hands won, hand sizes, the multiplier, the phase's details)."""
    assert turns
    for turn in turns:
        public = turn.observation.json["public"]
        tt, gin = turn.observation.twenty_two, turn.observation.gin
        if tt is not None:
            assert tt.phase.name.lower() == public["phase"]["phase"]
            assert tt.deal == public["deal"] and tt.stock_size == public["stock_len"]
            assert tt.cards_dealt == public["hand_size"]
            assert [s.hand_size for s in tt.seats] == [s["hand_len"] for s in public["seats"]]
            assert [[str(c) for c in s.won] for s in tt.seats] == [
                [str(Card.parse(c)) for c in s["won"]] for s in public["seats"]
            ]
            assert tt.standings is None and public["standings"] is None, "not over yet"
        else:
            assert gin is not None
            assert gin.phase.name.lower() == public["phase"]["phase"]
            assert gin.deal == public["hand_number"] and gin.stock_size == public["stock_size"]
            assert list(gin.hands_won) == public["hands_won"]
            assert list(gin.hand_sizes) == public["hand_sizes"]
            assert gin.multiplier == public["multiplier"]
            assert gin.stock_only == public["phase"].get("stock_only", False)
            assert gin.must_go_out == public["phase"].get("must_go_out", False)


def test_a_twenty_two_match_of_python_bots_plays_to_the_end(server: Server, tmp_path: Path) -> None:
    tt_bot = load_example("tt_bot")
    created = server.create(Game.TWENTY_TWO, seats=4, seed=22)
    bots: list[cardroom.Bot] = [
        tt_bot.TwentyTwoBot(),
        tt_bot.TwentyTwoBot(),
        Recorder(),
        Recorder(),
    ]
    results = play_all(
        [
            lambda bot=bot, seat=seat: cardroom.run(bot, server=server.address, token=seat.token)  # type: ignore[misc]
            for bot, seat in zip(bots, created.seats)
        ]
    )
    check_standings(results, 4)
    recorder = bots[2]
    assert isinstance(recorder, Recorder)
    assert recorder.errors == [], "every answer was accepted"
    assert len(recorder.starts) == 1 and recorder.results == [results[2]]
    assert recorder.events, "public events arrived"
    first = recorder.turns[0]
    assert first.observation.json == {}, "the JSON is left out unless asked for"
    assert first.observation.twenty_two is not None
    assert first.observation.raw.json == "" and first.observation.seat == first.seat
    assert first.match.game is Game.TWENTY_TWO and first.legal_actions[0].index == 0
    # The record the server wrote replays.
    record = tmp_path / f"{created.match_id}.json"
    replay = subprocess.run(
        [str(server_binary()), "replay", str(record)],
        check=False,
        capture_output=True,
        timeout=PATIENCE,
    )
    assert replay.returncode == 0, replay.stderr


def test_a_bot_gets_the_json_only_when_it_asks(server: Server) -> None:
    created = server.create(Game.TWENTY_TWO, seats=2, seed=5)
    lean, full = Recorder(), Recorder()
    results = play_all(
        [
            lambda: cardroom.run(lean, server=server.address, token=created.seats[0].token),
            lambda: cardroom.run(
                full, server=server.address, token=created.seats[1].token, json=True
            ),
        ]
    )
    check_standings(results, 2)
    assert lean.turns and lean.events and full.turns and full.events
    for turn in lean.turns:
        assert turn.observation.json == {} and turn.observation.twenty_two is not None
        assert turn.legal_actions, "the typed legal actions still come"
    assert all(event.json == {} and event.text for event in lean.events)
    assert all(turn.observation.json["seat"] == turn.seat for turn in full.turns)
    assert all(event.json for event in full.events)
    check_typed_views(full.turns)


class Wordy(Recorder):
    """Reads each turn in words (``wants_text``) and answers with a reply in them: the last
    action its text lists, once as a word no action has, to see the reason."""

    name = "wordy"
    wants_text = True

    def choose(self, turn: cardroom.Turn) -> int | cardroom.Action | cardroom.Reply:
        self.turns.append(turn)
        listed = [line for line in turn.text.splitlines() if line[:1].isdigit()]
        if len(self.turns) == 1:
            return cardroom.Reply("fold")
        return cardroom.Reply(listed[-1])


def test_a_bot_that_wants_text_reads_its_turns_in_words_and_replies_in_them(
    server: Server,
) -> None:
    created = server.create(Game.GIN_RUMMY, seats=2, seed=9, options={"target": 25})
    wordy, plain = Wordy(), Recorder()
    results = play_all(
        [
            lambda: cardroom.run(wordy, server=server.address, token=created.seats[0].token),
            lambda: cardroom.run(plain, server=server.address, token=created.seats[1].token),
        ]
    )
    check_standings(results, 2)
    assert len(wordy.turns) > 5
    for turn in wordy.turns:
        assert f"seat {turn.seat} (you):" in turn.text and "Legal actions:" in turn.text
    assert all(turn.text == "" for turn in plain.turns), "no text unless asked for"
    # The first reply named no action: refused with the reason, and the runner played on.
    assert [e.code for e in wordy.errors] == [ErrorCode.UNREADABLE_REPLY]
    assert '"fold" is neither a card' in wordy.errors[0].message


class Talker(Recorder):
    """Says something beside each action (``Bot.comment``), once too much."""

    name = "talker"

    def comment(self) -> str | None:
        if len(self.turns) == 1:
            return "x" * 2049  # Over the limit: the runner drops it, and plays the action.
        return f"turn {self.turns[-1].number}: the first legal action"


def test_a_bots_comments_are_kept_in_the_record(server: Server) -> None:
    created = server.create(Game.TWENTY_TWO, seats=2, seed=5)
    talker, plain = Talker(), Recorder()
    results = play_all(
        [
            lambda: cardroom.run(talker, server=server.address, token=created.seats[0].token),
            lambda: cardroom.run(plain, server=server.address, token=created.seats[1].token),
        ]
    )
    check_standings(results, 2)
    assert talker.errors == [], "an overlong comment is dropped, never sent"
    comments = server.record(created.match_id)["comments"]
    assert isinstance(comments, list)
    said = [turn.number for turn in talker.turns[1:]]
    assert [c["action"] for c in comments] == said, "each at its action's index"
    assert all(c["text"] == f"turn {c['action']}: the first legal action" for c in comments)


def test_gin_bots_meet_in_the_queue_and_play_to_the_end(server: Server) -> None:
    gin_bot = load_example("gin_bot")
    bots: list[cardroom.Bot] = [gin_bot.GinBot(), Recorder()]
    config = cardroom.RunConfig(server=server.address, game=Game.GIN_RUMMY, seats=2, json=True)
    results = play_all([lambda bot=bot: cardroom.run(bot, config) for bot in bots])  # type: ignore[misc]
    check_standings(results, 2)
    assert results[0].match.game is Game.GIN_RUMMY
    recorder = bots[1]
    assert isinstance(recorder, Recorder)
    check_typed_views(recorder.turns)
    info = server.match_info(results[0].match.match_id)
    assert info.over and [s.bot_name for s in info.seats].count("gin-heuristic") == 1


def test_a_bot_reconnects_with_its_seat_token_after_its_connection_drops(server: Server) -> None:
    proxy = DroppingProxy(server.address)
    try:
        created = server.create(Game.TWENTY_TWO, seats=2, seed=5)
        dropper = Dropper(proxy, at=3)
        other = Recorder()
        results = play_all(
            [
                lambda: cardroom.run(dropper, server=proxy.address, token=created.seats[0].token),
                lambda: cardroom.run(other, server=server.address, token=created.seats[1].token),
            ]
        )
    finally:
        proxy.close()
    check_standings(results, 2)
    assert dropper.dropped and proxy.accepted >= 2, "the bot connected again"
    assert len(dropper.starts) == 1, "on_match_start is called once, not on reconnection"
    assert dropper.errors == [] and other.errors == []
    info = server.match_info(created.match_id)
    assert info.seats[0].strikes == 0, "back within the grace: no strike"


def test_a_bot_in_the_lobby_is_seated_by_the_organizer(server: Server) -> None:
    """A remote bot waits in the lobby; ``CreateMatch`` names it for seat 1 and it plays there."""
    lobby_bot, token_bot = Recorder(), Recorder()
    config = cardroom.RunConfig(server=server.address, lobby="py-remote")
    with ThreadPoolExecutor(max_workers=2) as pool:
        waiting = pool.submit(cardroom.run, lobby_bot, config)
        request = pb.CreateMatchRequest(
            game=Game.TWENTY_TWO.value,  # type: ignore[arg-type]
            seats=2,
            seed=3,
            lobby_bots=["", "py-remote"],
        )
        deadline = time.monotonic() + PATIENCE
        while True:  # until the bot is in the lobby (bounded; not a fixed sleep)
            try:
                created = server.stub.CreateMatch(request, timeout=PATIENCE)
                break
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error
                assert time.monotonic() < deadline, "the lobby bot never arrived"
                time.sleep(0.02)
        other = pool.submit(cardroom.run, token_bot, server=server.address, token=created.seats[0].token)
        results = [other.result(timeout=PATIENCE * 3), waiting.result(timeout=PATIENCE * 3)]
    check_standings(results, 2)
    assert results[1].match.seat == 1 and results[1].match.match_id == created.match_id
    assert lobby_bot.errors == []


def test_an_illegal_action_is_refused_and_the_match_goes_on(server: Server) -> None:
    created = server.create(Game.TWENTY_TWO, seats=2, seed=9)
    cheat, honest = IllegalLeader(), Recorder()
    results = play_all(
        [
            lambda: cardroom.run(cheat, server=server.address, token=created.seats[0].token),
            lambda: cardroom.run(honest, server=server.address, token=created.seats[1].token),
        ]
    )
    check_standings(results, 2)
    assert cheat.illegal is not None, "the bot led at least once"
    assert len(cheat.errors) == 1, cheat.errors
    error = cheat.errors[0]
    assert error.code is ErrorCode.ILLEGAL_ACTION
    assert error.rule == "TT-11" and "TT-11" in error.message
    # The runner answered the same turn with the first legal action, and the match went on.
    turn = next(t for t in cheat.turns if t.number == error.turn)
    record = server.record(created.match_id)
    actions = record["actions"]
    assert isinstance(actions, list) and len(actions) > turn.number + 1
    assert cheat.turns[-1].number > error.turn
    assert server.match_info(created.match_id).seats[0].strikes == 0


def test_an_unknown_seat_token_is_refused(server: Server) -> None:
    with pytest.raises(cardroom.CardroomError, match="UNAUTHENTICATED"):
        cardroom.run(Recorder(), server=server.address, token="00" * 16)


def test_the_example_bot_runs_with_one_command(server: Server) -> None:
    created = server.create(Game.TWENTY_TWO, seats=2, seed=3)
    script = subprocess.Popen(
        [
            sys.executable,
            str(EXAMPLES / "tt_bot.py"),
            "--server",
            server.address,
            "--token",
            created.seats[0].token,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    result = cardroom.run(Recorder(), server=server.address, token=created.seats[1].token)
    stdout, stderr = script.communicate(timeout=PATIENCE)
    assert script.returncode == 0, stderr
    assert f"match {created.match_id} over" in stdout
    assert "(you)" in stdout and not result.aborted


def test_configuration_comes_from_the_environment_and_arguments() -> None:
    env = {
        "CARDROOM_SERVER": "http://example:1",
        "CARDROOM_QUEUE_GAME": "gin",
        "CARDROOM_QUEUE_SEATS": "2",
    }
    config = cardroom.RunConfig.from_env(env)
    assert config.target == "example:1" and config.game is Game.GIN_RUMMY and config.token is None
    args = cardroom.RunConfig.from_args(
        ["--token", "abc", "--server", "h:2", "--name", "n", "--queue-seats", "3"]
    )
    assert (args.token, args.server, args.bot_name, args.seats) == ("abc", "h:2", "n", 3)
    join = args.join("n", args.token)
    assert join.WhichOneof("seat") == "seat_token" and join.seat_token == "abc"
    queued = config.join("n", None)
    assert queued.WhichOneof("seat") == "queue" and queued.queue.seats == 2
    lobby = cardroom.RunConfig.from_env({"CARDROOM_LOBBY": "alice"}).join("n", None)
    assert lobby.WhichOneof("seat") == "lobby" and lobby.lobby == "alice"


def test_a_bot_that_calls_sys_exit_in_choose_stops_with_its_code(server: Server, tmp_path: Path) -> None:
    # `choose` runs in a thread of the runner's, where SystemExit would end only that thread and
    # the runner would play on for the bot: the program ends instead, with the bot's code.
    script = tmp_path / "leaver.py"
    script.write_text(
        "import sys\n"
        "import cardroom\n\n"
        "class Leaver(cardroom.Bot):\n"
        "    def choose(self, turn):\n"
        "        sys.exit(4)\n\n"
        "sys.exit(cardroom.main(Leaver()))\n"
    )
    created = server.create(Game.TWENTY_TWO, seats=2, seed=3)
    leaver = subprocess.Popen(
        [sys.executable, str(script), "--server", server.address, "--token", created.seats[0].token],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    other = ThreadPoolExecutor(1).submit(
        cardroom.run, Recorder(), server=server.address, token=created.seats[1].token
    )
    _, stderr = leaver.communicate(timeout=PATIENCE)
    assert leaver.returncode == 4, stderr
    assert "choose called sys.exit(4)" in stderr and "the bot stops" in stderr
    assert not other.result(timeout=PATIENCE).aborted, "the other seat's match goes on to its end"

"""The runner: connects a :class:`~cardroom.Bot` to a server and plays one match.

It does what every bot must: join (by seat token, or through a queue), answer every ``Turn``
with its turn number within the time, recover from refused answers, and reconnect with the
seat token after a dropped connection, backing off between attempts.
"""

from __future__ import annotations

import argparse
import copy
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import grpc

from cardroom.actions import action_to_pb
from cardroom.bot import Bot
from cardroom.games import GAMES
from cardroom.model import (
    ActError,
    ErrorCode,
    Event,
    Game,
    MatchInfo,
    MatchResult,
    Reply,
    Turn,
)
from cardroom.v1 import cardroom_pb2 as pb
from cardroom.v1 import cardroom_pb2_grpc as pb_grpc

#: The most bytes a comment may have (``Act.comment``, UTF-8).
MAX_COMMENT_BYTES = 2048

log = logging.getLogger("cardroom")

#: The server when neither ``--server`` nor ``CARDROOM_SERVER`` says otherwise.
DEFAULT_SERVER = "127.0.0.1:50051"

#: Status codes after which the runner gives up instead of reconnecting: the server will not
#: accept this join however often it is tried (an unknown token, a bad queue request), or
#: another connection took the seat over (ABORTED).
FATAL_CODES = frozenset(
    {
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)


#: What gRPC's details say when the server's certificate is not trusted.
_CERTIFICATE_REFUSED = "CERTIFICATE_VERIFY_FAILED"

#: The games' names, for ``--queue-game``'s help: ``twenty_two or gin``.
_GAME_NAMES = " or ".join(game.name for game in GAMES)


class CardroomError(Exception):
    """The runner cannot play the match: the server refused the join (:class:`Refused`), the
    bot's seat could not be taken back (:class:`SeatLost`), or the server stayed unreachable
    for longer than :attr:`RunConfig.reconnect_timeout` (:class:`Unreachable`)."""

    #: Whether waiting and joining again (the lobby, the queue) may succeed where this failed.
    can_rejoin = False


class Refused(CardroomError):
    """The server refused the join: a wrong or revoked key, a name not registered on a server
    that seats registered bots only, bad queue options. Joining again would be refused the
    same way."""


class SeatLost(CardroomError):
    """The bot lost its seat in a match and could not take it back: the server restarted (it
    no longer knows the seat's token), the match ended while the bot was away, or another
    connection took the seat over. A bot in the lobby or a queue joins again."""

    can_rejoin = True


class Unreachable(CardroomError):
    """No connection to the server for :attr:`RunConfig.reconnect_timeout` seconds. A bot in
    the lobby or a queue keeps trying."""

    can_rejoin = True


@dataclass(frozen=True, slots=True)
class RunConfig:
    """How :func:`run` connects and joins. :meth:`from_env` and :meth:`from_args` build one."""

    #: ``host:port`` (an ``http://`` prefix is accepted), or ``https://host:port`` for a server
    #: that speaks TLS.
    server: str = DEFAULT_SERVER
    #: For an ``https://`` server: a PEM file of the certificate authorities to trust instead of
    #: gRPC's default roots.
    ca_file: str | None = None
    #: For an ``https://`` server: the name its certificate must carry, when it is not the
    #: URL's host.
    tls_server_name: str | None = None
    #: A seat token from ``CreateMatch``; when absent the bot joins the queue for ``game``.
    token: str | None = None
    #: The game to queue for (without a token).
    game: Game | None = None
    #: Queue: the options as a JSON object; empty for the defaults.
    options_json: str = ""
    #: Queue: seats at the table.
    seats: int = 2
    #: Wait in the server's lobby under this name until an organizer (an arena) seats the bot.
    lobby: str | None = None
    #: The name to join with; the bot's :attr:`Bot.name` when absent.
    bot_name: str | None = None
    #: The bot account's key (``cardroom bots add``), sent as ``authorization: Bearer <key>``
    #: with every ``Play`` stream: a server with accounts seats a registered lobby name only on
    #: its own key. Left out of the config's ``repr``.
    key: str | None = field(default=None, repr=False)
    #: The bot's version (a tag or a commit hash), sent in ``Join.bot_version``.
    bot_version: str = ""
    #: Stop reconnecting after this many seconds without a connection.
    reconnect_timeout: float = 30.0
    #: The first wait before reconnecting, doubled on every failure up to :attr:`max_backoff`.
    initial_backoff: float = 0.05
    #: The longest wait between reconnection attempts.
    max_backoff: float = 2.0
    #: Seconds kept in hand when the runner must answer for a slow :meth:`Bot.choose`.
    safety_margin: float = 0.15
    #: Ask for the engine's JSON form of observations and events too (:attr:`Observation.json`,
    #: :attr:`Event.json`). Off by default (``Join.omit``): the typed views hold every detail,
    #: and the server need not build, nor the bot parse, a second form of every observation.
    json: bool = False
    #: Matches :func:`main` plays at once, each on its own stream (with :attr:`lobby`: how
    #: many matches a hosted ladder may seat the bot in at a time).
    concurrency: int = 1
    #: Matches :func:`main` plays in all, joining again after each (0: until stopped).
    matches: int = 1

    @classmethod
    def from_env(cls, environ: os._Environ[str] | dict[str, str] | None = None) -> RunConfig:
        """Reads ``CARDROOM_SERVER``, ``CARDROOM_CA_FILE``, ``CARDROOM_TLS_SERVER_NAME``,
        ``CARDROOM_TOKEN``, ``CARDROOM_QUEUE_GAME``,
        ``CARDROOM_QUEUE_OPTIONS``, ``CARDROOM_QUEUE_SEATS``, ``CARDROOM_LOBBY``,
        ``CARDROOM_BOT_NAME``, ``CARDROOM_KEY``, ``CARDROOM_BOT_VERSION``,
        ``CARDROOM_CONCURRENCY`` and ``CARDROOM_MATCHES``."""
        env = os.environ if environ is None else environ
        game = env.get("CARDROOM_QUEUE_GAME")
        return cls(
            server=env.get("CARDROOM_SERVER") or DEFAULT_SERVER,
            ca_file=env.get("CARDROOM_CA_FILE") or None,
            tls_server_name=env.get("CARDROOM_TLS_SERVER_NAME") or None,
            token=env.get("CARDROOM_TOKEN") or None,
            game=Game.parse(game) if game else None,
            options_json=env.get("CARDROOM_QUEUE_OPTIONS", ""),
            seats=int(env.get("CARDROOM_QUEUE_SEATS") or 2),
            lobby=env.get("CARDROOM_LOBBY") or None,
            bot_name=env.get("CARDROOM_BOT_NAME") or None,
            key=env.get("CARDROOM_KEY") or None,
            bot_version=env.get("CARDROOM_BOT_VERSION", ""),
            concurrency=int(env.get("CARDROOM_CONCURRENCY") or 1),
            matches=int(env.get("CARDROOM_MATCHES") or 1),
        )

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        """Adds ``--server``, ``--ca-file``, ``--tls-server-name``, ``--token``, ``--queue-game``, ``--queue-options``,
        ``--queue-seats``, ``--lobby``, ``--name``, ``--key`` and ``--bot-version`` to ``parser`` (the Rust SDK's flags), each defaulting to
        its environment variable."""
        env = cls.from_env()
        parser.add_argument(
            "--server",
            default=env.server,
            help="host:port, https://host:port for TLS, or unix:PATH for a Unix socket "
            "(CARDROOM_SERVER)",
        )
        parser.add_argument(
            "--ca-file",
            default=env.ca_file,
            help="https: trust the CAs in this PEM file (CARDROOM_CA_FILE)",
        )
        parser.add_argument(
            "--tls-server-name",
            default=env.tls_server_name,
            help="https: the name the server's certificate carries (CARDROOM_TLS_SERVER_NAME)",
        )
        parser.add_argument("--token", default=env.token, help="seat token (CARDROOM_TOKEN)")
        parser.add_argument(
            "--queue-game",
            type=Game.parse,
            default=env.game,
            help=f"without a token, queue for this game: {_GAME_NAMES} (CARDROOM_QUEUE_GAME)",
        )
        parser.add_argument(
            "--queue-options",
            default=env.options_json,
            help="queue: options as a JSON object (CARDROOM_QUEUE_OPTIONS)",
        )
        parser.add_argument(
            "--queue-seats",
            type=int,
            default=env.seats,
            help="queue: seats at the table (CARDROOM_QUEUE_SEATS)",
        )
        parser.add_argument(
            "--lobby",
            default=env.lobby,
            help="wait in the server's lobby under this name until an arena seats the bot "
            "(CARDROOM_LOBBY)",
        )
        parser.add_argument("--name", default=env.bot_name, help="bot name (CARDROOM_BOT_NAME)")
        parser.add_argument(
            "--key", default=env.key, help="the bot account's key (CARDROOM_KEY)"
        )
        parser.add_argument(
            "--bot-version",
            default=env.bot_version,
            help="the bot's version, a tag or a hash (CARDROOM_BOT_VERSION)",
        )
        parser.add_argument(
            "--concurrency",
            type=_at_least_one,
            default=env.concurrency,
            help="matches played at once, each on its own stream; with --lobby, how many a "
            "hosted ladder may seat the bot in at a time (CARDROOM_CONCURRENCY)",
        )
        parser.add_argument(
            "--matches",
            type=int,
            default=env.matches,
            help="matches to play, joining again after each; 0: until stopped (CARDROOM_MATCHES)",
        )

    @classmethod
    def from_args(cls, argv: Sequence[str] | None = None, description: str = "") -> RunConfig:
        """Parses command-line arguments (see :meth:`add_arguments`)."""
        parser = argparse.ArgumentParser(description=description)
        cls.add_arguments(parser)
        return cls.from_namespace(parser.parse_args(argv))

    @classmethod
    def from_namespace(cls, args: argparse.Namespace) -> RunConfig:
        """Builds a config from arguments added by :meth:`add_arguments`."""
        return cls(
            server=args.server,
            ca_file=args.ca_file,
            tls_server_name=args.tls_server_name,
            token=args.token,
            game=args.queue_game,
            options_json=args.queue_options,
            seats=args.queue_seats,
            lobby=args.lobby,
            bot_name=args.name,
            key=args.key,
            bot_version=args.bot_version,
            concurrency=args.concurrency,
            matches=args.matches,
        )

    @property
    def target(self) -> str:
        """The gRPC target: :attr:`server` without a scheme."""
        for scheme in ("https://", "http://", "grpc://"):
            if self.server.startswith(scheme):
                return self.server[len(scheme) :].rstrip("/")
        return self.server

    @property
    def tls(self) -> bool:
        """Whether the server speaks TLS: an ``https://`` URL."""
        return self.server.startswith("https://")

    def channel(self, options: Sequence[tuple[str, object]] = ()) -> grpc.Channel:
        """A new channel to the server: TLS for ``https://`` (trusting :attr:`ca_file`, else
        gRPC's default roots), plaintext otherwise, over a Unix socket for ``unix:PATH``. Raises
        :class:`CardroomError` when TLS settings are given for a plaintext server or the CA file
        cannot be read."""
        if not self.tls:
            if self.ca_file or self.tls_server_name:
                raise CardroomError(
                    f"TLS settings (a CA file, a server name) were given, but {self.server!r} "
                    "is not an https:// URL"
                )
            options = list(options)
            if self.server.startswith("unix:"):
                # gRPC sends the socket's path as `:authority`, which the server's HTTP/2 refuses
                # (RST_STREAM PROTOCOL_ERROR): any host name does.
                options.append(("grpc.default_authority", "localhost"))
            return grpc.insecure_channel(self.target, options=options)
        roots = None
        if self.ca_file:
            try:
                with open(self.ca_file, "rb") as file:
                    roots = file.read()
            except OSError as error:
                raise CardroomError(f"the CA file {self.ca_file}: {error}") from error
            if b"-----BEGIN CERTIFICATE-----" not in roots:
                raise CardroomError(
                    f"the CA file {self.ca_file}: no `-----BEGIN CERTIFICATE-----` in it"
                )
        credentials = grpc.ssl_channel_credentials(root_certificates=roots)
        options = list(options)
        if self.tls_server_name:
            options.append(("grpc.ssl_target_name_override", self.tls_server_name))
        return grpc.secure_channel(self.target, credentials, options=options)

    def join(
        self, bot_name: str, token: str | None, *, json: bool = False, text: bool = False
    ) -> pb.Join:
        """The ``Join`` message: by ``token`` when there is one, else in the lobby or the queue;
        with the engine's JSON forms when ``json`` or :attr:`RunConfig.json` asks for them, and
        each turn's text form when ``text`` does."""
        omit = None if self.json or json else pb.Omit(json=True)
        version = self.bot_version
        if token:
            return pb.Join(
                seat_token=token, bot_name=bot_name, omit=omit, bot_version=version, text=text
            )
        if self.lobby:
            return pb.Join(
                lobby=self.lobby, bot_name=bot_name, omit=omit, bot_version=version, text=text
            )
        if self.game is None:
            raise CardroomError(
                "give a seat token (--token), a game to queue for (--queue-game) or a lobby name "
                "(--lobby)"
            )
        queue_request = pb.QueueRequest(
            game=self.game.value,  # type: ignore[arg-type]
            options_json=self.options_json,
            seats=self.seats,
        )
        return pb.Join(
            queue=queue_request, bot_name=bot_name, omit=omit, bot_version=version, text=text
        )

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The ``Play`` stream's metadata: the bot's key, when it has one."""
        if self.key is None:
            return ()
        return (("authorization", f"Bearer {self.key.strip()}"),)


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


class _StreamEnded(Exception):
    """The server closed the stream before ``MatchEnd``."""


class _Session:
    """One match's state across connections: the token, the match, the last answer."""

    def __init__(self, bot: Bot, config: RunConfig) -> None:
        self.bot = bot
        self.config = config
        self.name = config.bot_name or bot.name
        self.token = config.token
        self.match: MatchInfo | None = None
        #: The turn being answered and the answer sent, to answer a repeated turn the same way.
        self.current: Turn | None = None
        self.answer: pb.Act | None = None
        self.fell_back = False
        #: True once the current connection has reached ``Joined``.
        self.joined_here = False

    def play(self, channel: grpc.Channel) -> MatchResult:
        """Plays over one connection until ``MatchEnd``; raises ``grpc.RpcError`` or
        :class:`_StreamEnded` when the connection ends first."""
        outbox: queue.SimpleQueue[pb.BotMessage | None] = queue.SimpleQueue()

        def requests() -> Iterator[pb.BotMessage]:
            while (message := outbox.get()) is not None:
                yield message

        outbox.put(
            pb.BotMessage(
                join=self.config.join(
                    self.name, self.token, json=self.bot.wants_json, text=self.bot.wants_text
                )
            )
        )
        stub = pb_grpc.CardroomStub(channel)  # type: ignore[no-untyped-call]
        responses = stub.Play(requests(), metadata=self.config.metadata)
        send: Callable[[pb.Act], None] = lambda act: outbox.put(pb.BotMessage(act=act))
        try:
            for message in responses:
                result = self.handle(message, send)
                if result is not None:
                    return result
        finally:
            outbox.put(None)
            responses.cancel()
        raise _StreamEnded("the server closed the stream before the match ended")

    def handle(
        self, message: pb.ServerMessage, send: Callable[[pb.Act], None]
    ) -> MatchResult | None:
        """Handles one server message; returns the result at the end."""
        kind = message.WhichOneof("message")
        if kind == "joined":
            first = self.match is None
            self.match = MatchInfo.from_pb(message.joined)
            self.token = message.joined.seat_token
            self.joined_here = True
            log.info(
                "%s joined match %s as seat %d%s",
                self.name,
                self.match.match_id,
                self.match.seat,
                "" if first else " (reconnected)",
            )
            if first:
                self.bot.on_match_start(self.match)
        elif kind == "turn":
            if self.match is None:
                raise CardroomError("the server sent a turn before Joined")
            raw = message.turn
            if (
                self.current is not None
                and self.answer is not None
                and raw.turn == self.current.number
            ):
                send(self.answer)  # The same turn again after a reconnection: the same answer.
                return None
            turn = Turn.from_pb(raw, self.match)
            self.current, self.fell_back = turn, False
            self.answer = self.decide(turn)
            send(self.answer)
        elif kind == "events":
            self.bot.on_events([Event.from_pb(event) for event in message.events.events])
        elif kind == "error":
            error = ActError.from_pb(message.error)
            log.warning("%s: answer refused: %s", self.name, error)
            self.bot.on_error(error)
            current = self.current
            refused = error.code in (
                ErrorCode.ILLEGAL_ACTION,
                ErrorCode.MALFORMED,
                ErrorCode.UNREADABLE_REPLY,
            )
            if (
                refused
                and current is not None
                and error.turn == current.number
                and not self.fell_back
            ):
                # The bot's choice was refused: play the first legal action instead.
                self.fell_back = True
                self.answer = pb.Act(turn=current.number, index=0)
                send(self.answer)
        elif kind == "end":
            if self.match is None:
                raise CardroomError("the server ended the match before Joined")
            result = MatchResult.from_pb(message.end, self.match)
            log.info("%s: match %s over: place %s", self.name, self.match.match_id, result.place)
            self.bot.on_match_end(result)
            return result
        return None

    def decide(self, turn: Turn) -> pb.Act:
        """Asks the bot, within the turn's time; the first legal action when it fails or is
        late."""
        budget = (turn.move_ms + turn.bank_ms) / 1000 - self.config.safety_margin
        box: list[int | object] = []
        done = threading.Event()

        def think() -> None:
            try:
                box.append(self.bot.choose(turn))
            except Exception:  # A bug in the bot must not lose the match.
                log.exception("%s: choose failed on turn %d", self.name, turn.number)
            except SystemExit as exit:
                # The bot asked to stop. In this thread SystemExit would end only the thread,
                # and the runner would play on for it: the program ends, as the bot asked.
                code = exit.code if isinstance(exit.code, int) else int(exit.code is not None)
                log.error(
                    "%s: choose called sys.exit(%r) on turn %d: the bot stops",
                    self.name,
                    exit.code,
                    turn.number,
                )
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            done.set()

        threading.Thread(target=think, name=f"choose-{turn.number}", daemon=True).start()
        if not done.wait(max(budget, 0.0)):
            log.warning("%s: choose overran its time on turn %d", self.name, turn.number)
            return pb.Act(turn=turn.number, index=0)
        if not box:
            return pb.Act(turn=turn.number, index=0)
        choice = box[0]
        comment = self.comment()
        if isinstance(choice, Reply):
            return pb.Act(turn=turn.number, reply=choice.text, comment=comment)
        if isinstance(choice, bool) or not isinstance(choice, int):
            try:
                action = action_to_pb(choice)  # type: ignore[arg-type]
                return pb.Act(turn=turn.number, action=action, comment=comment)
            except TypeError:
                log.error("%s: choose returned %r, not an index or an action", self.name, choice)
                return pb.Act(turn=turn.number, index=0)
        return pb.Act(turn=turn.number, index=choice, comment=comment)

    def comment(self) -> str:
        """The bot's comment on its last choice, or "" (a failing or overlong one is dropped,
        saying so: the action matters more)."""
        try:
            said = self.bot.comment()
        except Exception:
            log.exception("%s: comment failed", self.name)
            return ""
        if not said:
            return ""
        if len(said.encode()) > MAX_COMMENT_BYTES:
            log.warning(
                "%s: a comment of %d bytes is over the limit of %d: not sent",
                self.name,
                len(said.encode()),
                MAX_COMMENT_BYTES,
            )
            return ""
        return said


def run(bot: Bot, config: RunConfig | None = None, **overrides: object) -> MatchResult:
    """Plays one match with ``bot`` and returns its result.

    ``config`` defaults to :meth:`RunConfig.from_env`; keyword arguments override its fields
    (``run(bot, server="127.0.0.1:50051", token="…")``). Joins by seat token when there is one,
    else through the queue; reconnects with the seat token after a dropped connection, backing
    off from :attr:`RunConfig.initial_backoff` up to :attr:`RunConfig.max_backoff`.

    Raises :class:`CardroomError` when the server refuses the join or stays unreachable for
    :attr:`RunConfig.reconnect_timeout` seconds.
    """
    config = replace(config or RunConfig.from_env(), **overrides)  # type: ignore[arg-type]
    session = _Session(bot, config)
    backoff = config.initial_backoff
    unreachable_since: float | None = None
    while True:
        # A connection of its own per seat (grpc shares one between channels to the same
        # target otherwise): a misbehaving stream elsewhere cannot cost this seat its
        # connection (docs/protocol.md, "Errors").
        channel = config.channel(options=[("grpc.use_local_subchannel_pool", 1)])
        session.joined_here = False
        try:
            return session.play(channel)
        except grpc.RpcError as error:
            code = error.code()
            details = error.details()
            if code in FATAL_CODES:
                if session.match is not None:
                    # The seat this runner held: the server restarted and no longer knows its
                    # token, the match is over and forgotten, the seat was taken over.
                    raise SeatLost(
                        f"{session.name}: match {session.match.match_id} could not be "
                        f"resumed: {code.name}: {details}"
                    ) from error
                raise Refused(
                    f"the server refused {session.name}: {code.name}: {details}"
                ) from error
            if config.tls and _CERTIFICATE_REFUSED in (details or ""):
                # gRPC reports no typed cause, only this text; no retry can fix it.
                raise CardroomError(
                    f"{session.name}: the server's TLS certificate was refused ({details}); "
                    "give the CA that signed it with --ca-file or CARDROOM_CA_FILE"
                ) from error
            log.warning("%s: connection lost (%s: %s)", session.name, code.name, details)
        except _StreamEnded as error:
            log.warning("%s: %s", session.name, error)
        finally:
            channel.close()
        now = time.monotonic()
        if session.joined_here or unreachable_since is None:
            # This connection worked (or is the first to fail): start backing off afresh.
            unreachable_since, backoff = now, config.initial_backoff
        if now - unreachable_since > config.reconnect_timeout:
            raise Unreachable(
                f"{session.name}: no connection to {config.server} "
                f"for {config.reconnect_timeout:g} s"
            )
        time.sleep(backoff)
        backoff = min(backoff * 2, config.max_backoff)


def run_many(bot: Bot, config: RunConfig | None = None, **overrides: object) -> int:
    """Plays :attr:`RunConfig.matches` matches (0: until stopped), :attr:`RunConfig.concurrency`
    of them at once, each worker with its own copy of ``bot`` and joining again after each
    match: how a bot waits in the lobby for a hosted ladder. Prints each result; returns the
    number played.

    What it does on each failure, in the lobby or a queue: a match that could not be resumed
    (:class:`SeatLost`: the server restarted, the seat was taken over) or a server unreachable
    for :attr:`RunConfig.reconnect_timeout` (:class:`Unreachable`) is logged, not counted, and
    followed by a wait (from :attr:`RunConfig.initial_backoff`, doubling with each failure in a
    row up to :attr:`RunConfig.max_backoff`) and a new join. Any other failure
    (:class:`Refused`: a wrong or revoked key, a name not registered) is one that waiting cannot
    change: it is raised, once the other workers have finished the match they are in. With a
    seat token the first failure is raised: that match cannot be joined again."""
    config = replace(config or RunConfig.from_env(), **overrides)  # type: ignore[arg-type]
    rejoins = config.token is None
    lock = threading.Lock()
    counts = {"started": 0, "played": 0}
    failures: list[CardroomError] = []

    def worker(own: Bot) -> None:
        backoff = config.initial_backoff
        while True:
            with lock:
                done = config.matches and counts["started"] >= config.matches
                if done or failures:
                    return
                counts["started"] += 1
            try:
                result = run(own, config)
            except CardroomError as error:
                if rejoins and error.can_rejoin:
                    with lock:
                        counts["started"] -= 1  # Not played: another takes its place.
                    log.warning("%s; joining again in %.2f s", error, backoff)
                    time.sleep(backoff)
                    backoff = min(backoff * 2, config.max_backoff)
                    continue
                with lock:
                    failures.append(error)
                return
            backoff = config.initial_backoff
            with lock:
                counts["played"] += 1
                _print_result(result)

    bots = [bot] if config.concurrency <= 1 else [copy.deepcopy(bot) for _ in range(config.concurrency)]
    threads = [threading.Thread(target=worker, args=(own,), daemon=True) for own in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return counts["played"]


def _print_result(result: MatchResult) -> None:
    print(
        f"match {result.match.match_id} over{' (aborted)' if result.aborted else ''}: {result.reason}"
    )
    for standing in result.standings:
        mark = " (you)" if standing.seat == result.match.seat else ""
        forfeit = " forfeited" if standing.forfeited else ""
        print(f"  place {standing.place}: seat {standing.seat}{forfeit}{mark}")


def main(bot: Bot, argv: Sequence[str] | None = None, description: str = "") -> int:
    """A bot script's entry point: reads the configuration from ``argv`` and the environment,
    plays ``--matches`` matches (one by default), ``--concurrency`` at once, and prints each
    one's standings; returns the exit code (0, or 1 on error)."""
    config = RunConfig.from_args(argv, description or (type(bot).__doc__ or ""))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        run_many(bot, config)
    except Refused as error:
        print(f"error: {error}; waiting cannot change this, so the bot stops")
        return 1
    except CardroomError as error:
        print(f"error: {error}")
        return 1
    return 0

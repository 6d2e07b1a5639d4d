from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Game(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_UNSPECIFIED: _ClassVar[Game]
    GAME_TWENTY_TWO: _ClassVar[Game]
    GAME_GIN_RUMMY: _ClassVar[Game]
    GAME_HOLDEM: _ClassVar[Game]

class Suit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUIT_UNSPECIFIED: _ClassVar[Suit]
    SUIT_CLUBS: _ClassVar[Suit]
    SUIT_DIAMONDS: _ClassVar[Suit]
    SUIT_HEARTS: _ClassVar[Suit]
    SUIT_SPADES: _ClassVar[Suit]

class Rank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RANK_UNSPECIFIED: _ClassVar[Rank]
    RANK_TWO: _ClassVar[Rank]
    RANK_THREE: _ClassVar[Rank]
    RANK_FOUR: _ClassVar[Rank]
    RANK_FIVE: _ClassVar[Rank]
    RANK_SIX: _ClassVar[Rank]
    RANK_SEVEN: _ClassVar[Rank]
    RANK_EIGHT: _ClassVar[Rank]
    RANK_NINE: _ClassVar[Rank]
    RANK_TEN: _ClassVar[Rank]
    RANK_JACK: _ClassVar[Rank]
    RANK_QUEEN: _ClassVar[Rank]
    RANK_KING: _ClassVar[Rank]
    RANK_ACE: _ClassVar[Rank]

class TwentyTwoTieBreak(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TWENTY_TWO_TIE_BREAK_UNSPECIFIED: _ClassVar[TwentyTwoTieBreak]
    TWENTY_TWO_TIE_BREAK_NONE: _ClassVar[TwentyTwoTieBreak]
    TWENTY_TWO_TIE_BREAK_POINTS: _ClassVar[TwentyTwoTieBreak]
    TWENTY_TWO_TIE_BREAK_RANDOM: _ClassVar[TwentyTwoTieBreak]

class TwentyTwoPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TWENTY_TWO_PHASE_UNSPECIFIED: _ClassVar[TwentyTwoPhase]
    TWENTY_TWO_PHASE_EXCHANGE: _ClassVar[TwentyTwoPhase]
    TWENTY_TWO_PHASE_PLAY: _ClassVar[TwentyTwoPhase]
    TWENTY_TWO_PHASE_OVER: _ClassVar[TwentyTwoPhase]

class HoldemStreet(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HOLDEM_STREET_UNSPECIFIED: _ClassVar[HoldemStreet]
    HOLDEM_STREET_PREFLOP: _ClassVar[HoldemStreet]
    HOLDEM_STREET_FLOP: _ClassVar[HoldemStreet]
    HOLDEM_STREET_TURN: _ClassVar[HoldemStreet]
    HOLDEM_STREET_RIVER: _ClassVar[HoldemStreet]

class HoldemSeatStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HOLDEM_SEAT_STATUS_UNSPECIFIED: _ClassVar[HoldemSeatStatus]
    HOLDEM_SEAT_STATUS_ACTIVE: _ClassVar[HoldemSeatStatus]
    HOLDEM_SEAT_STATUS_ALL_IN: _ClassVar[HoldemSeatStatus]
    HOLDEM_SEAT_STATUS_FOLDED: _ClassVar[HoldemSeatStatus]
    HOLDEM_SEAT_STATUS_OUT: _ClassVar[HoldemSeatStatus]

class GinHandEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GIN_HAND_END_UNSPECIFIED: _ClassVar[GinHandEnd]
    GIN_HAND_END_SHOWDOWN: _ClassVar[GinHandEnd]
    GIN_HAND_END_WALL: _ClassVar[GinHandEnd]
    GIN_HAND_END_UPCARD_LIMIT: _ClassVar[GinHandEnd]

class GinGoOut(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GIN_GO_OUT_UNSPECIFIED: _ClassVar[GinGoOut]
    GIN_GO_OUT_KNOCK: _ClassVar[GinGoOut]
    GIN_GO_OUT_GIN: _ClassVar[GinGoOut]
    GIN_GO_OUT_BIG_GIN: _ClassVar[GinGoOut]

class GinPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GIN_PHASE_UNSPECIFIED: _ClassVar[GinPhase]
    GIN_PHASE_FIRST_UPCARD: _ClassVar[GinPhase]
    GIN_PHASE_DRAW: _ClassVar[GinPhase]
    GIN_PHASE_DISCARD: _ClassVar[GinPhase]
    GIN_PHASE_WALL: _ClassVar[GinPhase]
    GIN_PHASE_MATCH_OVER: _ClassVar[GinPhase]

class ActErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACT_ERROR_CODE_UNSPECIFIED: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_ILLEGAL_ACTION: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_NOT_YOUR_TURN: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_STALE_TURN: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_MALFORMED: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_TIMED_OUT: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_FORFEITED: _ClassVar[ActErrorCode]
    ACT_ERROR_CODE_UNREADABLE_REPLY: _ClassVar[ActErrorCode]

class MatchState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATE_UNSPECIFIED: _ClassVar[MatchState]
    MATCH_STATE_RUNNING: _ClassVar[MatchState]
    MATCH_STATE_FINISHED: _ClassVar[MatchState]

class BotStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_STATUS_UNSPECIFIED: _ClassVar[BotStatus]
    BOT_STATUS_ACTIVE: _ClassVar[BotStatus]
    BOT_STATUS_REVOKED: _ClassVar[BotStatus]

class SubmittedBy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUBMITTED_BY_UNSPECIFIED: _ClassVar[SubmittedBy]
    SUBMITTED_BY_ADMIN: _ClassVar[SubmittedBy]
    SUBMITTED_BY_BOT: _ClassVar[SubmittedBy]
    SUBMITTED_BY_AUTHOR: _ClassVar[SubmittedBy]
GAME_UNSPECIFIED: Game
GAME_TWENTY_TWO: Game
GAME_GIN_RUMMY: Game
GAME_HOLDEM: Game
SUIT_UNSPECIFIED: Suit
SUIT_CLUBS: Suit
SUIT_DIAMONDS: Suit
SUIT_HEARTS: Suit
SUIT_SPADES: Suit
RANK_UNSPECIFIED: Rank
RANK_TWO: Rank
RANK_THREE: Rank
RANK_FOUR: Rank
RANK_FIVE: Rank
RANK_SIX: Rank
RANK_SEVEN: Rank
RANK_EIGHT: Rank
RANK_NINE: Rank
RANK_TEN: Rank
RANK_JACK: Rank
RANK_QUEEN: Rank
RANK_KING: Rank
RANK_ACE: Rank
TWENTY_TWO_TIE_BREAK_UNSPECIFIED: TwentyTwoTieBreak
TWENTY_TWO_TIE_BREAK_NONE: TwentyTwoTieBreak
TWENTY_TWO_TIE_BREAK_POINTS: TwentyTwoTieBreak
TWENTY_TWO_TIE_BREAK_RANDOM: TwentyTwoTieBreak
TWENTY_TWO_PHASE_UNSPECIFIED: TwentyTwoPhase
TWENTY_TWO_PHASE_EXCHANGE: TwentyTwoPhase
TWENTY_TWO_PHASE_PLAY: TwentyTwoPhase
TWENTY_TWO_PHASE_OVER: TwentyTwoPhase
HOLDEM_STREET_UNSPECIFIED: HoldemStreet
HOLDEM_STREET_PREFLOP: HoldemStreet
HOLDEM_STREET_FLOP: HoldemStreet
HOLDEM_STREET_TURN: HoldemStreet
HOLDEM_STREET_RIVER: HoldemStreet
HOLDEM_SEAT_STATUS_UNSPECIFIED: HoldemSeatStatus
HOLDEM_SEAT_STATUS_ACTIVE: HoldemSeatStatus
HOLDEM_SEAT_STATUS_ALL_IN: HoldemSeatStatus
HOLDEM_SEAT_STATUS_FOLDED: HoldemSeatStatus
HOLDEM_SEAT_STATUS_OUT: HoldemSeatStatus
GIN_HAND_END_UNSPECIFIED: GinHandEnd
GIN_HAND_END_SHOWDOWN: GinHandEnd
GIN_HAND_END_WALL: GinHandEnd
GIN_HAND_END_UPCARD_LIMIT: GinHandEnd
GIN_GO_OUT_UNSPECIFIED: GinGoOut
GIN_GO_OUT_KNOCK: GinGoOut
GIN_GO_OUT_GIN: GinGoOut
GIN_GO_OUT_BIG_GIN: GinGoOut
GIN_PHASE_UNSPECIFIED: GinPhase
GIN_PHASE_FIRST_UPCARD: GinPhase
GIN_PHASE_DRAW: GinPhase
GIN_PHASE_DISCARD: GinPhase
GIN_PHASE_WALL: GinPhase
GIN_PHASE_MATCH_OVER: GinPhase
ACT_ERROR_CODE_UNSPECIFIED: ActErrorCode
ACT_ERROR_CODE_ILLEGAL_ACTION: ActErrorCode
ACT_ERROR_CODE_NOT_YOUR_TURN: ActErrorCode
ACT_ERROR_CODE_STALE_TURN: ActErrorCode
ACT_ERROR_CODE_MALFORMED: ActErrorCode
ACT_ERROR_CODE_TIMED_OUT: ActErrorCode
ACT_ERROR_CODE_FORFEITED: ActErrorCode
ACT_ERROR_CODE_UNREADABLE_REPLY: ActErrorCode
MATCH_STATE_UNSPECIFIED: MatchState
MATCH_STATE_RUNNING: MatchState
MATCH_STATE_FINISHED: MatchState
BOT_STATUS_UNSPECIFIED: BotStatus
BOT_STATUS_ACTIVE: BotStatus
BOT_STATUS_REVOKED: BotStatus
SUBMITTED_BY_UNSPECIFIED: SubmittedBy
SUBMITTED_BY_ADMIN: SubmittedBy
SUBMITTED_BY_BOT: SubmittedBy
SUBMITTED_BY_AUTHOR: SubmittedBy

class Card(_message.Message):
    __slots__ = ("rank", "suit")
    RANK_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    rank: Rank
    suit: Suit
    def __init__(self, rank: _Optional[_Union[Rank, str]] = ..., suit: _Optional[_Union[Suit, str]] = ...) -> None: ...

class Cards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("game", "name", "min_seats", "max_seats", "options")
    GAME_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MIN_SEATS_FIELD_NUMBER: _ClassVar[int]
    MAX_SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    game: Game
    name: str
    min_seats: int
    max_seats: int
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., name: _Optional[str] = ..., min_seats: _Optional[int] = ..., max_seats: _Optional[int] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ...) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "description", "default_json", "choices_json")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_JSON_FIELD_NUMBER: _ClassVar[int]
    CHOICES_JSON_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    default_json: str
    choices_json: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., default_json: _Optional[str] = ..., choices_json: _Optional[_Iterable[str]] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("move_ms", "bank_ms", "max_bad_replies")
    MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_BAD_REPLIES_FIELD_NUMBER: _ClassVar[int]
    move_ms: int
    bank_ms: int
    max_bad_replies: int
    def __init__(self, move_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., max_bad_replies: _Optional[int] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "options_json", "seats", "seed", "clock", "lobby_bots")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    LOBBY_BOTS_FIELD_NUMBER: _ClassVar[int]
    game: Game
    options_json: str
    seats: int
    seed: int
    clock: Clock
    lobby_bots: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., options_json: _Optional[str] = ..., seats: _Optional[int] = ..., seed: _Optional[int] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., lobby_bots: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match_id", "seats")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatToken]
    def __init__(self, match_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class MatchInfo(_message.Message):
    __slots__ = ("match_id", "game", "options_json", "seats", "over", "end")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: Game
    options_json: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    over: bool
    end: MatchEnd
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[_Union[Game, str]] = ..., options_json: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., over: _Optional[bool] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "bot_name", "connected", "strikes", "forfeited", "refused", "think_us")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    THINK_US_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_name: str
    connected: bool
    strikes: int
    forfeited: bool
    refused: int
    think_us: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., bot_name: _Optional[str] = ..., connected: _Optional[bool] = ..., strikes: _Optional[int] = ..., forfeited: _Optional[bool] = ..., refused: _Optional[int] = ..., think_us: _Optional[_Iterable[int]] = ...) -> None: ...

class BotMessage(_message.Message):
    __slots__ = ("join", "act")
    JOIN_FIELD_NUMBER: _ClassVar[int]
    ACT_FIELD_NUMBER: _ClassVar[int]
    join: Join
    act: Act
    def __init__(self, join: _Optional[_Union[Join, _Mapping]] = ..., act: _Optional[_Union[Act, _Mapping]] = ...) -> None: ...

class Join(_message.Message):
    __slots__ = ("seat_token", "queue", "lobby", "bot_name", "omit", "bot_version", "text")
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    LOBBY_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    OMIT_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    seat_token: str
    queue: QueueRequest
    lobby: str
    bot_name: str
    omit: Omit
    bot_version: str
    text: bool
    def __init__(self, seat_token: _Optional[str] = ..., queue: _Optional[_Union[QueueRequest, _Mapping]] = ..., lobby: _Optional[str] = ..., bot_name: _Optional[str] = ..., omit: _Optional[_Union[Omit, _Mapping]] = ..., bot_version: _Optional[str] = ..., text: _Optional[bool] = ...) -> None: ...

class Omit(_message.Message):
    __slots__ = ("typed", "json", "events", "legal_actions", "cards", "known_cards")
    TYPED_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    KNOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    typed: bool
    json: bool
    events: bool
    legal_actions: bool
    cards: bool
    known_cards: bool
    def __init__(self, typed: _Optional[bool] = ..., json: _Optional[bool] = ..., events: _Optional[bool] = ..., legal_actions: _Optional[bool] = ..., cards: _Optional[bool] = ..., known_cards: _Optional[bool] = ...) -> None: ...

class QueueRequest(_message.Message):
    __slots__ = ("game", "options_json", "seats")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    game: Game
    options_json: str
    seats: int
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., options_json: _Optional[str] = ..., seats: _Optional[int] = ...) -> None: ...

class Act(_message.Message):
    __slots__ = ("turn", "index", "action", "reply", "comment")
    TURN_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    turn: int
    index: int
    action: Action
    reply: str
    comment: str
    def __init__(self, turn: _Optional[int] = ..., index: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., reply: _Optional[str] = ..., comment: _Optional[str] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("twenty_two", "gin", "holdem")
    TWENTY_TWO_FIELD_NUMBER: _ClassVar[int]
    GIN_FIELD_NUMBER: _ClassVar[int]
    HOLDEM_FIELD_NUMBER: _ClassVar[int]
    twenty_two: TwentyTwoAction
    gin: GinAction
    holdem: HoldemAction
    def __init__(self, twenty_two: _Optional[_Union[TwentyTwoAction, _Mapping]] = ..., gin: _Optional[_Union[GinAction, _Mapping]] = ..., holdem: _Optional[_Union[HoldemAction, _Mapping]] = ...) -> None: ...

class TwentyTwoAction(_message.Message):
    __slots__ = ("exchange", "play")
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    exchange: Cards
    play: Cards
    def __init__(self, exchange: _Optional[_Union[Cards, _Mapping]] = ..., play: _Optional[_Union[Cards, _Mapping]] = ...) -> None: ...

class GinAction(_message.Message):
    __slots__ = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin")
    class Empty(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Knock(_message.Message):
        __slots__ = ("discard", "melds")
        DISCARD_FIELD_NUMBER: _ClassVar[int]
        MELDS_FIELD_NUMBER: _ClassVar[int]
        discard: Card
        melds: _containers.RepeatedCompositeFieldContainer[Cards]
        def __init__(self, discard: _Optional[_Union[Card, _Mapping]] = ..., melds: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ...) -> None: ...
    TAKE_UPCARD_FIELD_NUMBER: _ClassVar[int]
    PASS_UPCARD_FIELD_NUMBER: _ClassVar[int]
    DRAW_STOCK_FIELD_NUMBER: _ClassVar[int]
    DRAW_DISCARD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    KNOCK_FIELD_NUMBER: _ClassVar[int]
    GIN_FIELD_NUMBER: _ClassVar[int]
    BIG_GIN_FIELD_NUMBER: _ClassVar[int]
    take_upcard: GinAction.Empty
    pass_upcard: GinAction.Empty
    draw_stock: GinAction.Empty
    draw_discard: GinAction.Empty
    discard: Card
    knock: GinAction.Knock
    gin: Card
    big_gin: GinAction.Empty
    def __init__(self, take_upcard: _Optional[_Union[GinAction.Empty, _Mapping]] = ..., pass_upcard: _Optional[_Union[GinAction.Empty, _Mapping]] = ..., draw_stock: _Optional[_Union[GinAction.Empty, _Mapping]] = ..., draw_discard: _Optional[_Union[GinAction.Empty, _Mapping]] = ..., discard: _Optional[_Union[Card, _Mapping]] = ..., knock: _Optional[_Union[GinAction.Knock, _Mapping]] = ..., gin: _Optional[_Union[Card, _Mapping]] = ..., big_gin: _Optional[_Union[GinAction.Empty, _Mapping]] = ...) -> None: ...

class ServerMessage(_message.Message):
    __slots__ = ("joined", "turn", "events", "error", "end")
    JOINED_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    joined: Joined
    turn: Turn
    events: Events
    error: ActError
    end: MatchEnd
    def __init__(self, joined: _Optional[_Union[Joined, _Mapping]] = ..., turn: _Optional[_Union[Turn, _Mapping]] = ..., events: _Optional[_Union[Events, _Mapping]] = ..., error: _Optional[_Union[ActError, _Mapping]] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

class Joined(_message.Message):
    __slots__ = ("match_id", "seat", "seat_token", "game", "options_json", "seats", "clock", "observation")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    seat_token: str
    game: Game
    options_json: str
    seats: int
    clock: Clock
    observation: Observation
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., game: _Optional[_Union[Game, str]] = ..., options_json: _Optional[str] = ..., seats: _Optional[int] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ...) -> None: ...

class Turn(_message.Message):
    __slots__ = ("turn", "observation", "legal_actions", "move_ms", "bank_ms", "text")
    TURN_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    turn: int
    observation: Observation
    legal_actions: _containers.RepeatedCompositeFieldContainer[LegalAction]
    move_ms: int
    bank_ms: int
    text: str
    def __init__(self, turn: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[LegalAction, _Mapping]]] = ..., move_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("index", "action")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    index: int
    action: Action
    def __init__(self, index: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "twenty_two", "gin", "holdem", "json")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TWENTY_TWO_FIELD_NUMBER: _ClassVar[int]
    GIN_FIELD_NUMBER: _ClassVar[int]
    HOLDEM_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    twenty_two: TwentyTwoObservation
    gin: GinObservation
    holdem: HoldemObservation
    json: str
    def __init__(self, seat: _Optional[int] = ..., twenty_two: _Optional[_Union[TwentyTwoObservation, _Mapping]] = ..., gin: _Optional[_Union[GinObservation, _Mapping]] = ..., holdem: _Optional[_Union[HoldemObservation, _Mapping]] = ..., json: _Optional[str] = ...) -> None: ...

class TwentyTwoObservation(_message.Message):
    __slots__ = ("hand", "discards", "public", "hand_codes")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    HAND_CODES_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedCompositeFieldContainer[Card]
    discards: _containers.RepeatedCompositeFieldContainer[Card]
    public: TwentyTwoPublic
    hand_codes: bytes
    def __init__(self, hand: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., discards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., public: _Optional[_Union[TwentyTwoPublic, _Mapping]] = ..., hand_codes: _Optional[bytes] = ...) -> None: ...

class TwentyTwoPublic(_message.Message):
    __slots__ = ("deal", "dealer", "cards_dealt", "stock_size", "packs", "seats", "phase", "to_act", "leader", "tricks", "dealer_draw", "last_deal", "standings")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    CARDS_DEALT_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    PACKS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    DEALER_DRAW_FIELD_NUMBER: _ClassVar[int]
    LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    deal: int
    dealer: int
    cards_dealt: int
    stock_size: int
    packs: int
    seats: _containers.RepeatedCompositeFieldContainer[TwentyTwoSeat]
    phase: TwentyTwoPhase
    to_act: int
    leader: int
    tricks: _containers.RepeatedCompositeFieldContainer[TwentyTwoTrick]
    dealer_draw: _containers.RepeatedCompositeFieldContainer[TwentyTwoDrawRound]
    last_deal: TwentyTwoDealResult
    standings: Standings
    def __init__(self, deal: _Optional[int] = ..., dealer: _Optional[int] = ..., cards_dealt: _Optional[int] = ..., stock_size: _Optional[int] = ..., packs: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[TwentyTwoSeat, _Mapping]]] = ..., phase: _Optional[_Union[TwentyTwoPhase, str]] = ..., to_act: _Optional[int] = ..., leader: _Optional[int] = ..., tricks: _Optional[_Iterable[_Union[TwentyTwoTrick, _Mapping]]] = ..., dealer_draw: _Optional[_Iterable[_Union[TwentyTwoDrawRound, _Mapping]]] = ..., last_deal: _Optional[_Union[TwentyTwoDealResult, _Mapping]] = ..., standings: _Optional[_Union[Standings, _Mapping]] = ...) -> None: ...

class TwentyTwoSeatCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class TwentyTwoDrawRound(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[TwentyTwoSeatCard]
    def __init__(self, cards: _Optional[_Iterable[_Union[TwentyTwoSeatCard, _Mapping]]] = ...) -> None: ...

class TwentyTwoDealResult(_message.Message):
    __slots__ = ("deal", "revealed", "rank", "losers", "tie_break", "eliminated")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    LOSERS_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAK_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    deal: int
    revealed: _containers.RepeatedCompositeFieldContainer[TwentyTwoSeatCard]
    rank: Rank
    losers: _containers.RepeatedScalarFieldContainer[int]
    tie_break: TwentyTwoTieBreak
    eliminated: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deal: _Optional[int] = ..., revealed: _Optional[_Iterable[_Union[TwentyTwoSeatCard, _Mapping]]] = ..., rank: _Optional[_Union[Rank, str]] = ..., losers: _Optional[_Iterable[int]] = ..., tie_break: _Optional[_Union[TwentyTwoTieBreak, str]] = ..., eliminated: _Optional[_Iterable[int]] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    def __init__(self, standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ...) -> None: ...

class TwentyTwoSeat(_message.Message):
    __slots__ = ("seat", "score", "penalty_pile", "eliminated", "hand_size", "exchanged", "won")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PENALTY_PILE_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    score: int
    penalty_pile: _containers.RepeatedCompositeFieldContainer[Card]
    eliminated: bool
    hand_size: int
    exchanged: int
    won: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., score: _Optional[int] = ..., penalty_pile: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., eliminated: _Optional[bool] = ..., hand_size: _Optional[int] = ..., exchanged: _Optional[int] = ..., won: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class TwentyTwoTrick(_message.Message):
    __slots__ = ("plays", "strongest", "winner")
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    STRONGEST_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[TwentyTwoPlay]
    strongest: int
    winner: int
    def __init__(self, plays: _Optional[_Iterable[_Union[TwentyTwoPlay, _Mapping]]] = ..., strongest: _Optional[int] = ..., winner: _Optional[int] = ...) -> None: ...

class TwentyTwoPlay(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class HoldemAction(_message.Message):
    __slots__ = ("fold", "check", "call", "raise_to")
    class Empty(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    FOLD_FIELD_NUMBER: _ClassVar[int]
    CHECK_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    RAISE_TO_FIELD_NUMBER: _ClassVar[int]
    fold: HoldemAction.Empty
    check: HoldemAction.Empty
    call: HoldemAction.Empty
    raise_to: int
    def __init__(self, fold: _Optional[_Union[HoldemAction.Empty, _Mapping]] = ..., check: _Optional[_Union[HoldemAction.Empty, _Mapping]] = ..., call: _Optional[_Union[HoldemAction.Empty, _Mapping]] = ..., raise_to: _Optional[int] = ...) -> None: ...

class HoldemObservation(_message.Message):
    __slots__ = ("hole_cards", "hole_cards_codes", "public")
    HOLE_CARDS_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARDS_CODES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    hole_cards: _containers.RepeatedCompositeFieldContainer[Card]
    hole_cards_codes: bytes
    public: HoldemPublic
    def __init__(self, hole_cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., hole_cards_codes: _Optional[bytes] = ..., public: _Optional[_Union[HoldemPublic, _Mapping]] = ...) -> None: ...

class HoldemPublic(_message.Message):
    __slots__ = ("hand_number", "button", "board", "board_codes", "street", "seats", "bet", "raise_by", "raises", "to_act", "pot", "last_hand", "outcome", "adjusted")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    BOARD_CODES_FIELD_NUMBER: _ClassVar[int]
    STREET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    RAISE_BY_FIELD_NUMBER: _ClassVar[int]
    RAISES_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    LAST_HAND_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    ADJUSTED_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    button: int
    board: _containers.RepeatedCompositeFieldContainer[Card]
    board_codes: bytes
    street: HoldemStreet
    seats: _containers.RepeatedCompositeFieldContainer[HoldemSeat]
    bet: int
    raise_by: int
    raises: int
    to_act: int
    pot: int
    last_hand: HoldemHandResult
    outcome: HoldemOutcome
    adjusted: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand_number: _Optional[int] = ..., button: _Optional[int] = ..., board: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., board_codes: _Optional[bytes] = ..., street: _Optional[_Union[HoldemStreet, str]] = ..., seats: _Optional[_Iterable[_Union[HoldemSeat, _Mapping]]] = ..., bet: _Optional[int] = ..., raise_by: _Optional[int] = ..., raises: _Optional[int] = ..., to_act: _Optional[int] = ..., pot: _Optional[int] = ..., last_hand: _Optional[_Union[HoldemHandResult, _Mapping]] = ..., outcome: _Optional[_Union[HoldemOutcome, _Mapping]] = ..., adjusted: _Optional[_Iterable[int]] = ...) -> None: ...

class HoldemSeat(_message.Message):
    __slots__ = ("stack", "bet", "committed", "status", "acted_at", "knocked_out")
    STACK_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ACTED_AT_FIELD_NUMBER: _ClassVar[int]
    KNOCKED_OUT_FIELD_NUMBER: _ClassVar[int]
    stack: int
    bet: int
    committed: int
    status: HoldemSeatStatus
    acted_at: int
    knocked_out: HoldemKnockedOut
    def __init__(self, stack: _Optional[int] = ..., bet: _Optional[int] = ..., committed: _Optional[int] = ..., status: _Optional[_Union[HoldemSeatStatus, str]] = ..., acted_at: _Optional[int] = ..., knocked_out: _Optional[_Union[HoldemKnockedOut, _Mapping]] = ...) -> None: ...

class HoldemKnockedOut(_message.Message):
    __slots__ = ("hand_number", "stack")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    stack: int
    def __init__(self, hand_number: _Optional[int] = ..., stack: _Optional[int] = ...) -> None: ...

class HoldemAward(_message.Message):
    __slots__ = ("pot", "amount", "winners", "shares", "hand")
    POT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SHARES_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    pot: int
    amount: int
    winners: _containers.RepeatedScalarFieldContainer[int]
    shares: _containers.RepeatedScalarFieldContainer[int]
    hand: int
    def __init__(self, pot: _Optional[int] = ..., amount: _Optional[int] = ..., winners: _Optional[_Iterable[int]] = ..., shares: _Optional[_Iterable[int]] = ..., hand: _Optional[int] = ...) -> None: ...

class HoldemHandResult(_message.Message):
    __slots__ = ("hand_number", "button", "board", "shown", "awards", "net", "stacks", "all_in")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    AWARDS_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    STACKS_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    button: int
    board: _containers.RepeatedCompositeFieldContainer[Card]
    shown: _containers.RepeatedCompositeFieldContainer[Cards]
    awards: _containers.RepeatedCompositeFieldContainer[HoldemAward]
    net: _containers.RepeatedScalarFieldContainer[int]
    stacks: _containers.RepeatedScalarFieldContainer[int]
    all_in: HoldemAllIn
    def __init__(self, hand_number: _Optional[int] = ..., button: _Optional[int] = ..., board: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., shown: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., awards: _Optional[_Iterable[_Union[HoldemAward, _Mapping]]] = ..., net: _Optional[_Iterable[int]] = ..., stacks: _Optional[_Iterable[int]] = ..., all_in: _Optional[_Union[HoldemAllIn, _Mapping]] = ...) -> None: ...

class HoldemAllIn(_message.Message):
    __slots__ = ("street", "runouts", "won")
    STREET_FIELD_NUMBER: _ClassVar[int]
    RUNOUTS_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    street: HoldemStreet
    runouts: int
    won: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, street: _Optional[_Union[HoldemStreet, str]] = ..., runouts: _Optional[int] = ..., won: _Optional[_Iterable[int]] = ...) -> None: ...

class HoldemOutcome(_message.Message):
    __slots__ = ("stacks", "net", "hands_played", "standings", "adjusted")
    STACKS_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    ADJUSTED_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedScalarFieldContainer[int]
    net: _containers.RepeatedScalarFieldContainer[int]
    hands_played: int
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    adjusted: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, stacks: _Optional[_Iterable[int]] = ..., net: _Optional[_Iterable[int]] = ..., hands_played: _Optional[int] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., adjusted: _Optional[_Iterable[int]] = ...) -> None: ...

class GinObservation(_message.Message):
    __slots__ = ("hand", "drawn", "scores", "dealer", "deal", "phase", "stock_size", "discard_pile", "known_cards", "knock_limit", "to_act", "hands_won", "multiplier", "hand_sizes", "upcard_draws", "dealt_upcards", "discarded_by", "stock_only", "taken", "must_go_out", "last_result", "outcome", "hand_codes", "discard_pile_codes", "known_cards_codes")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    KNOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    KNOCK_LIMIT_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HANDS_WON_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    UPCARD_DRAWS_FIELD_NUMBER: _ClassVar[int]
    DEALT_UPCARDS_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_BY_FIELD_NUMBER: _ClassVar[int]
    STOCK_ONLY_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    MUST_GO_OUT_FIELD_NUMBER: _ClassVar[int]
    LAST_RESULT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    HAND_CODES_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_CODES_FIELD_NUMBER: _ClassVar[int]
    KNOWN_CARDS_CODES_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedCompositeFieldContainer[Card]
    drawn: Card
    scores: _containers.RepeatedScalarFieldContainer[int]
    dealer: int
    deal: int
    phase: GinPhase
    stock_size: int
    discard_pile: _containers.RepeatedCompositeFieldContainer[Card]
    known_cards: _containers.RepeatedCompositeFieldContainer[Cards]
    knock_limit: int
    to_act: int
    hands_won: _containers.RepeatedScalarFieldContainer[int]
    multiplier: int
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    upcard_draws: int
    dealt_upcards: int
    discarded_by: _containers.RepeatedScalarFieldContainer[int]
    stock_only: bool
    taken: Card
    must_go_out: bool
    last_result: GinHandResult
    outcome: GinOutcome
    hand_codes: bytes
    discard_pile_codes: bytes
    known_cards_codes: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, hand: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., drawn: _Optional[_Union[Card, _Mapping]] = ..., scores: _Optional[_Iterable[int]] = ..., dealer: _Optional[int] = ..., deal: _Optional[int] = ..., phase: _Optional[_Union[GinPhase, str]] = ..., stock_size: _Optional[int] = ..., discard_pile: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., known_cards: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., knock_limit: _Optional[int] = ..., to_act: _Optional[int] = ..., hands_won: _Optional[_Iterable[int]] = ..., multiplier: _Optional[int] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., upcard_draws: _Optional[int] = ..., dealt_upcards: _Optional[int] = ..., discarded_by: _Optional[_Iterable[int]] = ..., stock_only: _Optional[bool] = ..., taken: _Optional[_Union[Card, _Mapping]] = ..., must_go_out: _Optional[bool] = ..., last_result: _Optional[_Union[GinHandResult, _Mapping]] = ..., outcome: _Optional[_Union[GinOutcome, _Mapping]] = ..., hand_codes: _Optional[bytes] = ..., discard_pile_codes: _Optional[bytes] = ..., known_cards_codes: _Optional[_Iterable[bytes]] = ...) -> None: ...

class GinHandResult(_message.Message):
    __slots__ = ("deal", "dealer", "end", "showdown", "winner", "undercut", "points", "scores")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    UNDERCUT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    deal: int
    dealer: int
    end: GinHandEnd
    showdown: GinShowdown
    winner: int
    undercut: bool
    points: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deal: _Optional[int] = ..., dealer: _Optional[int] = ..., end: _Optional[_Union[GinHandEnd, str]] = ..., showdown: _Optional[_Union[GinShowdown, _Mapping]] = ..., winner: _Optional[int] = ..., undercut: _Optional[bool] = ..., points: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ...) -> None: ...

class GinShowdown(_message.Message):
    __slots__ = ("knocker", "kind", "discard", "melds", "deadwood_cards", "deadwood", "defender", "layout")
    KNOCKER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_CARDS_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    knocker: int
    kind: GinGoOut
    discard: Card
    melds: _containers.RepeatedCompositeFieldContainer[Cards]
    deadwood_cards: _containers.RepeatedCompositeFieldContainer[Card]
    deadwood: int
    defender: int
    layout: GinLayout
    def __init__(self, knocker: _Optional[int] = ..., kind: _Optional[_Union[GinGoOut, str]] = ..., discard: _Optional[_Union[Card, _Mapping]] = ..., melds: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., deadwood_cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., deadwood: _Optional[int] = ..., defender: _Optional[int] = ..., layout: _Optional[_Union[GinLayout, _Mapping]] = ...) -> None: ...

class GinLayout(_message.Message):
    __slots__ = ("melds", "layoffs", "onto", "deadwood_cards", "deadwood")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    LAYOFFS_FIELD_NUMBER: _ClassVar[int]
    ONTO_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_CARDS_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedCompositeFieldContainer[Cards]
    layoffs: _containers.RepeatedCompositeFieldContainer[Card]
    onto: _containers.RepeatedCompositeFieldContainer[Cards]
    deadwood_cards: _containers.RepeatedCompositeFieldContainer[Card]
    deadwood: int
    def __init__(self, melds: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., layoffs: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., onto: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., deadwood_cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., deadwood: _Optional[int] = ...) -> None: ...

class GinOutcome(_message.Message):
    __slots__ = ("totals", "points", "hands_won", "winner", "standings")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    HANDS_WON_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    hands_won: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., hands_won: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ...) -> None: ...

class Events(_message.Message):
    __slots__ = ("events", "observation")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    observation: Observation
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("kind", "text", "json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    text: str
    json: str
    def __init__(self, kind: _Optional[str] = ..., text: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class ActError(_message.Message):
    __slots__ = ("turn", "code", "rule", "message")
    TURN_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    turn: int
    code: ActErrorCode
    rule: str
    message: str
    def __init__(self, turn: _Optional[int] = ..., code: _Optional[_Union[ActErrorCode, str]] = ..., rule: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("standings", "aborted", "reason")
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    ABORTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    aborted: bool
    reason: str
    def __init__(self, standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., aborted: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("seat", "place", "forfeited")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: int
    forfeited: bool
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[int] = ..., forfeited: _Optional[bool] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class WatchMessage(_message.Message):
    __slots__ = ("events", "public_json", "end")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_JSON_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    public_json: str
    end: MatchEnd
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., public_json: _Optional[str] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

class GetRecordRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetRecordResponse(_message.Message):
    __slots__ = ("record_json",)
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    record_json: str
    def __init__(self, record_json: _Optional[str] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("state", "page_size", "page_token")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    state: MatchState
    page_size: int
    page_token: str
    def __init__(self, state: _Optional[_Union[MatchState, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchSummary]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class MatchSummary(_message.Message):
    __slots__ = ("match_id", "game", "seats", "created_ms", "ended_ms", "end", "host")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    ENDED_MS_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    HOST_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: Game
    seats: _containers.RepeatedCompositeFieldContainer[SeatSummary]
    created_ms: int
    ended_ms: int
    end: MatchEnd
    host: str
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[_Union[Game, str]] = ..., seats: _Optional[_Iterable[_Union[SeatSummary, _Mapping]]] = ..., created_ms: _Optional[int] = ..., ended_ms: _Optional[int] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ..., host: _Optional[str] = ...) -> None: ...

class SeatSummary(_message.Message):
    __slots__ = ("seat", "bot_name", "connected")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_name: str
    connected: bool
    def __init__(self, seat: _Optional[int] = ..., bot_name: _Optional[str] = ..., connected: _Optional[bool] = ...) -> None: ...

class ListLaddersRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListLaddersResponse(_message.Message):
    __slots__ = ("ladders", "next_page_token")
    LADDERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ladders: _containers.RepeatedCompositeFieldContainer[LadderInfo]
    next_page_token: str
    def __init__(self, ladders: _Optional[_Iterable[_Union[LadderInfo, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class LadderInfo(_message.Message):
    __slots__ = ("name", "game", "table_seats", "rating", "status", "status_reason", "provisional_sets", "created_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEATS_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STATUS_REASON_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_SETS_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    game: str
    table_seats: int
    rating: str
    status: str
    status_reason: str
    provisional_sets: int
    created_ms: int
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., table_seats: _Optional[int] = ..., rating: _Optional[str] = ..., status: _Optional[str] = ..., status_reason: _Optional[str] = ..., provisional_sets: _Optional[int] = ..., created_ms: _Optional[int] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("ladder",)
    LADDER_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    def __init__(self, ladder: _Optional[str] = ...) -> None: ...

class LadderLeaderboard(_message.Message):
    __slots__ = ("ladder", "rows", "standings")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    ladder: LadderInfo
    rows: _containers.RepeatedCompositeFieldContainer[LeaderboardRow]
    standings: LadderStandings
    def __init__(self, ladder: _Optional[_Union[LadderInfo, _Mapping]] = ..., rows: _Optional[_Iterable[_Union[LeaderboardRow, _Mapping]]] = ..., standings: _Optional[_Union[LadderStandings, _Mapping]] = ...) -> None: ...

class LadderStandings(_message.Message):
    __slots__ = ("revision", "first_set", "sets", "confidence", "settled", "computed_ms", "order", "sprt")
    REVISION_FIELD_NUMBER: _ClassVar[int]
    FIRST_SET_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_MS_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    revision: int
    first_set: int
    sets: int
    confidence: float
    settled: bool
    computed_ms: int
    order: _containers.RepeatedScalarFieldContainer[str]
    sprt: LadderSprt
    def __init__(self, revision: _Optional[int] = ..., first_set: _Optional[int] = ..., sets: _Optional[int] = ..., confidence: _Optional[float] = ..., settled: _Optional[bool] = ..., computed_ms: _Optional[int] = ..., order: _Optional[_Iterable[str]] = ..., sprt: _Optional[_Union[LadderSprt, _Mapping]] = ...) -> None: ...

class LadderSprt(_message.Message):
    __slots__ = ("a", "b", "samples", "llr", "lower", "upper", "decision")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    LLR_FIELD_NUMBER: _ClassVar[int]
    LOWER_FIELD_NUMBER: _ClassVar[int]
    UPPER_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    a: str
    b: str
    samples: int
    llr: float
    lower: float
    upper: float
    decision: str
    def __init__(self, a: _Optional[str] = ..., b: _Optional[str] = ..., samples: _Optional[int] = ..., llr: _Optional[float] = ..., lower: _Optional[float] = ..., upper: _Optional[float] = ..., decision: _Optional[str] = ...) -> None: ...

class BotHealth(_message.Message):
    __slots__ = ("crashes", "forfeits", "illegal", "timeouts")
    CRASHES_FIELD_NUMBER: _ClassVar[int]
    FORFEITS_FIELD_NUMBER: _ClassVar[int]
    ILLEGAL_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    crashes: int
    forfeits: int
    illegal: int
    timeouts: int
    def __init__(self, crashes: _Optional[int] = ..., forfeits: _Optional[int] = ..., illegal: _Optional[int] = ..., timeouts: _Optional[int] = ...) -> None: ...

class LeaderboardRow(_message.Message):
    __slots__ = ("rank", "bot", "rating", "sigma", "matches", "wins", "win_rate", "health", "sets_rated", "provisional", "paused_reason", "rank_lo", "rank_hi", "indistinguishable_from_first", "p_better")
    RANK_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_FIELD_NUMBER: _ClassVar[int]
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    SETS_RATED_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    PAUSED_REASON_FIELD_NUMBER: _ClassVar[int]
    RANK_LO_FIELD_NUMBER: _ClassVar[int]
    RANK_HI_FIELD_NUMBER: _ClassVar[int]
    INDISTINGUISHABLE_FROM_FIRST_FIELD_NUMBER: _ClassVar[int]
    P_BETTER_FIELD_NUMBER: _ClassVar[int]
    rank: int
    bot: str
    rating: float
    sigma: float
    matches: int
    wins: int
    win_rate: float
    health: BotHealth
    sets_rated: int
    provisional: bool
    paused_reason: str
    rank_lo: int
    rank_hi: int
    indistinguishable_from_first: bool
    p_better: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, rank: _Optional[int] = ..., bot: _Optional[str] = ..., rating: _Optional[float] = ..., sigma: _Optional[float] = ..., matches: _Optional[int] = ..., wins: _Optional[int] = ..., win_rate: _Optional[float] = ..., health: _Optional[_Union[BotHealth, _Mapping]] = ..., sets_rated: _Optional[int] = ..., provisional: _Optional[bool] = ..., paused_reason: _Optional[str] = ..., rank_lo: _Optional[int] = ..., rank_hi: _Optional[int] = ..., indistinguishable_from_first: _Optional[bool] = ..., p_better: _Optional[_Iterable[float]] = ...) -> None: ...

class ListBotMatchesRequest(_message.Message):
    __slots__ = ("ladder", "bot", "page_size", "page_token")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    bot: str
    page_size: int
    page_token: str
    def __init__(self, ladder: _Optional[str] = ..., bot: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListBotMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[LadderMatchInfo]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[LadderMatchInfo, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetLadderMatchRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: int
    def __init__(self, id: _Optional[int] = ...) -> None: ...

class LadderMatchInfo(_message.Message):
    __slots__ = ("id", "ladder", "set_index", "rotation", "state", "seats", "finished_ms", "server_match_id", "record_json")
    ID_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    SET_INDEX_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_MS_FIELD_NUMBER: _ClassVar[int]
    SERVER_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    id: int
    ladder: str
    set_index: int
    rotation: int
    state: str
    seats: _containers.RepeatedCompositeFieldContainer[LadderSeat]
    finished_ms: int
    server_match_id: str
    record_json: str
    def __init__(self, id: _Optional[int] = ..., ladder: _Optional[str] = ..., set_index: _Optional[int] = ..., rotation: _Optional[int] = ..., state: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[LadderSeat, _Mapping]]] = ..., finished_ms: _Optional[int] = ..., server_match_id: _Optional[str] = ..., record_json: _Optional[str] = ...) -> None: ...

class LadderSeat(_message.Message):
    __slots__ = ("seat", "bot", "version", "place", "forfeited", "failure")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    version: str
    place: int
    forfeited: bool
    failure: str
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ..., version: _Optional[str] = ..., place: _Optional[int] = ..., forfeited: _Optional[bool] = ..., failure: _Optional[str] = ...) -> None: ...

class GetLadderBotRequest(_message.Message):
    __slots__ = ("ladder", "bot")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    bot: str
    def __init__(self, ladder: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class LadderBot(_message.Message):
    __slots__ = ("row", "history", "versions", "head_to_head")
    ROW_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    HEAD_TO_HEAD_FIELD_NUMBER: _ClassVar[int]
    row: LeaderboardRow
    history: _containers.RepeatedCompositeFieldContainer[RatingPoint]
    versions: _containers.RepeatedCompositeFieldContainer[LadderVersion]
    head_to_head: _containers.RepeatedCompositeFieldContainer[HeadToHead]
    def __init__(self, row: _Optional[_Union[LeaderboardRow, _Mapping]] = ..., history: _Optional[_Iterable[_Union[RatingPoint, _Mapping]]] = ..., versions: _Optional[_Iterable[_Union[LadderVersion, _Mapping]]] = ..., head_to_head: _Optional[_Iterable[_Union[HeadToHead, _Mapping]]] = ...) -> None: ...

class RatingPoint(_message.Message):
    __slots__ = ("set_index", "rating", "sigma", "at_ms")
    SET_INDEX_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    set_index: int
    rating: float
    sigma: float
    at_ms: int
    def __init__(self, set_index: _Optional[int] = ..., rating: _Optional[float] = ..., sigma: _Optional[float] = ..., at_ms: _Optional[int] = ...) -> None: ...

class LadderVersion(_message.Message):
    __slots__ = ("version", "first_ms", "last_ms", "matches")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    FIRST_MS_FIELD_NUMBER: _ClassVar[int]
    LAST_MS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    version: str
    first_ms: int
    last_ms: int
    matches: int
    def __init__(self, version: _Optional[str] = ..., first_ms: _Optional[int] = ..., last_ms: _Optional[int] = ..., matches: _Optional[int] = ...) -> None: ...

class HeadToHead(_message.Message):
    __slots__ = ("opponent", "wins", "ties", "losses")
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    TIES_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    opponent: str
    wins: int
    ties: int
    losses: int
    def __init__(self, opponent: _Optional[str] = ..., wins: _Optional[int] = ..., ties: _Optional[int] = ..., losses: _Optional[int] = ...) -> None: ...

class GetHeadToHeadRequest(_message.Message):
    __slots__ = ("ladder", "a", "b")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    a: str
    b: str
    def __init__(self, ladder: _Optional[str] = ..., a: _Optional[str] = ..., b: _Optional[str] = ...) -> None: ...

class HeadToHeadResponse(_message.Message):
    __slots__ = ("a_against_b",)
    A_AGAINST_B_FIELD_NUMBER: _ClassVar[int]
    a_against_b: HeadToHead
    def __init__(self, a_against_b: _Optional[_Union[HeadToHead, _Mapping]] = ...) -> None: ...

class ListFailuresRequest(_message.Message):
    __slots__ = ("ladder", "bot", "limit")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    bot: str
    limit: int
    def __init__(self, ladder: _Optional[str] = ..., bot: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListFailuresResponse(_message.Message):
    __slots__ = ("failures",)
    FAILURES_FIELD_NUMBER: _ClassVar[int]
    failures: _containers.RepeatedCompositeFieldContainer[Failure]
    def __init__(self, failures: _Optional[_Iterable[_Union[Failure, _Mapping]]] = ...) -> None: ...

class Failure(_message.Message):
    __slots__ = ("match_id", "kind", "version", "observation_json", "answer", "error", "at_ms", "output")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_JSON_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    match_id: int
    kind: str
    version: str
    observation_json: str
    answer: str
    error: str
    at_ms: int
    output: str
    def __init__(self, match_id: _Optional[int] = ..., kind: _Optional[str] = ..., version: _Optional[str] = ..., observation_json: _Optional[str] = ..., answer: _Optional[str] = ..., error: _Optional[str] = ..., at_ms: _Optional[int] = ..., output: _Optional[str] = ...) -> None: ...

class GetStatsRequest(_message.Message):
    __slots__ = ("reset",)
    RESET_FIELD_NUMBER: _ClassVar[int]
    reset: bool
    def __init__(self, reset: _Optional[bool] = ...) -> None: ...

class ServerStats(_message.Message):
    __slots__ = ("uptime_ms", "matches_running", "matches_finished", "connections_open", "decisions", "decision_round_trip", "tasks_alive", "rss_bytes", "peak_rss_bytes", "cpu_seconds", "turns_sent", "turn_bytes", "acts_received", "act_bytes", "hosted", "others")
    UPTIME_MS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_RUNNING_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FINISHED_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_OPEN_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    DECISION_ROUND_TRIP_FIELD_NUMBER: _ClassVar[int]
    TASKS_ALIVE_FIELD_NUMBER: _ClassVar[int]
    RSS_BYTES_FIELD_NUMBER: _ClassVar[int]
    PEAK_RSS_BYTES_FIELD_NUMBER: _ClassVar[int]
    CPU_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TURNS_SENT_FIELD_NUMBER: _ClassVar[int]
    TURN_BYTES_FIELD_NUMBER: _ClassVar[int]
    ACTS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    ACT_BYTES_FIELD_NUMBER: _ClassVar[int]
    HOSTED_FIELD_NUMBER: _ClassVar[int]
    OTHERS_FIELD_NUMBER: _ClassVar[int]
    uptime_ms: int
    matches_running: int
    matches_finished: int
    connections_open: int
    decisions: int
    decision_round_trip: Latency
    tasks_alive: int
    rss_bytes: int
    peak_rss_bytes: int
    cpu_seconds: float
    turns_sent: int
    turn_bytes: int
    acts_received: int
    act_bytes: int
    hosted: MatchKindStats
    others: MatchKindStats
    def __init__(self, uptime_ms: _Optional[int] = ..., matches_running: _Optional[int] = ..., matches_finished: _Optional[int] = ..., connections_open: _Optional[int] = ..., decisions: _Optional[int] = ..., decision_round_trip: _Optional[_Union[Latency, _Mapping]] = ..., tasks_alive: _Optional[int] = ..., rss_bytes: _Optional[int] = ..., peak_rss_bytes: _Optional[int] = ..., cpu_seconds: _Optional[float] = ..., turns_sent: _Optional[int] = ..., turn_bytes: _Optional[int] = ..., acts_received: _Optional[int] = ..., act_bytes: _Optional[int] = ..., hosted: _Optional[_Union[MatchKindStats, _Mapping]] = ..., others: _Optional[_Union[MatchKindStats, _Mapping]] = ...) -> None: ...

class MatchKindStats(_message.Message):
    __slots__ = ("matches_running", "decisions", "decision_round_trip")
    MATCHES_RUNNING_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    DECISION_ROUND_TRIP_FIELD_NUMBER: _ClassVar[int]
    matches_running: int
    decisions: int
    decision_round_trip: Latency
    def __init__(self, matches_running: _Optional[int] = ..., decisions: _Optional[int] = ..., decision_round_trip: _Optional[_Union[Latency, _Mapping]] = ...) -> None: ...

class Latency(_message.Message):
    __slots__ = ("count", "p50_us", "p90_us", "p99_us", "p999_us", "max_us", "mean_us")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    P50_US_FIELD_NUMBER: _ClassVar[int]
    P90_US_FIELD_NUMBER: _ClassVar[int]
    P99_US_FIELD_NUMBER: _ClassVar[int]
    P999_US_FIELD_NUMBER: _ClassVar[int]
    MAX_US_FIELD_NUMBER: _ClassVar[int]
    MEAN_US_FIELD_NUMBER: _ClassVar[int]
    count: int
    p50_us: int
    p90_us: int
    p99_us: int
    p999_us: int
    max_us: int
    mean_us: float
    def __init__(self, count: _Optional[int] = ..., p50_us: _Optional[int] = ..., p90_us: _Optional[int] = ..., p99_us: _Optional[int] = ..., p999_us: _Optional[int] = ..., max_us: _Optional[int] = ..., mean_us: _Optional[float] = ...) -> None: ...

class RegisterBotRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots", "next_page_token")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotAccount]
    next_page_token: str
    def __init__(self, bots: _Optional[_Iterable[_Union[BotAccount, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RevokeBotRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class GetBotRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RotateBotKeyRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class BotAccount(_message.Message):
    __slots__ = ("name", "status", "created_ms", "key_issued_ms", "revoked_ms", "versions", "versions_forgotten", "author")
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    KEY_ISSUED_MS_FIELD_NUMBER: _ClassVar[int]
    REVOKED_MS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FORGOTTEN_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    name: str
    status: BotStatus
    created_ms: int
    key_issued_ms: int
    revoked_ms: int
    versions: _containers.RepeatedCompositeFieldContainer[BotVersion]
    versions_forgotten: int
    author: str
    def __init__(self, name: _Optional[str] = ..., status: _Optional[_Union[BotStatus, str]] = ..., created_ms: _Optional[int] = ..., key_issued_ms: _Optional[int] = ..., revoked_ms: _Optional[int] = ..., versions: _Optional[_Iterable[_Union[BotVersion, _Mapping]]] = ..., versions_forgotten: _Optional[int] = ..., author: _Optional[str] = ...) -> None: ...

class RequestScrimmageRequest(_message.Message):
    __slots__ = ("ladder", "bot", "opponents", "top")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    bot: str
    opponents: _containers.RepeatedScalarFieldContainer[str]
    top: int
    def __init__(self, ladder: _Optional[str] = ..., bot: _Optional[str] = ..., opponents: _Optional[_Iterable[str]] = ..., top: _Optional[int] = ...) -> None: ...

class ListScrimmagesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ScrimmagesReply(_message.Message):
    __slots__ = ("scrimmages",)
    SCRIMMAGES_FIELD_NUMBER: _ClassVar[int]
    scrimmages: _containers.RepeatedCompositeFieldContainer[ScrimmageInfo]
    def __init__(self, scrimmages: _Optional[_Iterable[_Union[ScrimmageInfo, _Mapping]]] = ...) -> None: ...

class ScrimmageInfo(_message.Message):
    __slots__ = ("id", "ladder", "bots", "state", "requested_ms", "finished_ms", "matches", "failure")
    ID_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_MS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    id: int
    ladder: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    state: str
    requested_ms: int
    finished_ms: int
    matches: _containers.RepeatedCompositeFieldContainer[ScrimmageMatch]
    failure: str
    def __init__(self, id: _Optional[int] = ..., ladder: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., state: _Optional[str] = ..., requested_ms: _Optional[int] = ..., finished_ms: _Optional[int] = ..., matches: _Optional[_Iterable[_Union[ScrimmageMatch, _Mapping]]] = ..., failure: _Optional[str] = ...) -> None: ...

class ScrimmageMatch(_message.Message):
    __slots__ = ("rotation", "match_id", "reason", "seats")
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    rotation: int
    match_id: str
    reason: str
    seats: _containers.RepeatedCompositeFieldContainer[ScrimmageSeat]
    def __init__(self, rotation: _Optional[int] = ..., match_id: _Optional[str] = ..., reason: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[ScrimmageSeat, _Mapping]]] = ...) -> None: ...

class ScrimmageSeat(_message.Message):
    __slots__ = ("bot", "place", "forfeit", "version")
    BOT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    bot: str
    place: int
    forfeit: bool
    version: str
    def __init__(self, bot: _Optional[str] = ..., place: _Optional[int] = ..., forfeit: _Optional[bool] = ..., version: _Optional[str] = ...) -> None: ...

class GetScrimmageRecordRequest(_message.Message):
    __slots__ = ("id", "rotation")
    ID_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    id: int
    rotation: int
    def __init__(self, id: _Optional[int] = ..., rotation: _Optional[int] = ...) -> None: ...

class JoinAsAuthorRequest(_message.Message):
    __slots__ = ("code", "name")
    CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    code: str
    name: str
    def __init__(self, code: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class Author(_message.Message):
    __slots__ = ("name", "created_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    created_ms: int
    def __init__(self, name: _Optional[str] = ..., created_ms: _Optional[int] = ...) -> None: ...

class IssuedAuthorToken(_message.Message):
    __slots__ = ("author", "token")
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    author: Author
    token: str
    def __init__(self, author: _Optional[_Union[Author, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class RotateAuthorTokenRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetAuthorRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class AuthorProfile(_message.Message):
    __slots__ = ("author", "bots")
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    author: Author
    bots: _containers.RepeatedCompositeFieldContainer[BotAccount]
    def __init__(self, author: _Optional[_Union[Author, _Mapping]] = ..., bots: _Optional[_Iterable[_Union[BotAccount, _Mapping]]] = ...) -> None: ...

class BotVersion(_message.Message):
    __slots__ = ("version", "first_seen_ms", "last_seen_ms")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEEN_MS_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_MS_FIELD_NUMBER: _ClassVar[int]
    version: str
    first_seen_ms: int
    last_seen_ms: int
    def __init__(self, version: _Optional[str] = ..., first_seen_ms: _Optional[int] = ..., last_seen_ms: _Optional[int] = ...) -> None: ...

class IssuedBotKey(_message.Message):
    __slots__ = ("bot", "key")
    BOT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    bot: BotAccount
    key: str
    def __init__(self, bot: _Optional[_Union[BotAccount, _Mapping]] = ..., key: _Optional[str] = ...) -> None: ...

class CreateLadderRequest(_message.Message):
    __slots__ = ("config_toml",)
    CONFIG_TOML_FIELD_NUMBER: _ClassVar[int]
    config_toml: str
    def __init__(self, config_toml: _Optional[str] = ...) -> None: ...

class LadderRequest(_message.Message):
    __slots__ = ("name", "reason")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    name: str
    reason: str
    def __init__(self, name: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class LadderStatusReply(_message.Message):
    __slots__ = ("name", "status", "reason", "game", "table_seats")
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEATS_FIELD_NUMBER: _ClassVar[int]
    name: str
    status: str
    reason: str
    game: str
    table_seats: int
    def __init__(self, name: _Optional[str] = ..., status: _Optional[str] = ..., reason: _Optional[str] = ..., game: _Optional[str] = ..., table_seats: _Optional[int] = ...) -> None: ...

class ResumeBotRequest(_message.Message):
    __slots__ = ("ladder", "bot")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    bot: str
    def __init__(self, ladder: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class ResumedBot(_message.Message):
    __slots__ = ("ladder", "bot", "paused_reason")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    PAUSED_REASON_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    bot: str
    paused_reason: str
    def __init__(self, ladder: _Optional[str] = ..., bot: _Optional[str] = ..., paused_reason: _Optional[str] = ...) -> None: ...

class SubmitBotChunk(_message.Message):
    __slots__ = ("bot", "run", "archive")
    BOT_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_FIELD_NUMBER: _ClassVar[int]
    bot: str
    run: _containers.RepeatedScalarFieldContainer[str]
    archive: bytes
    def __init__(self, bot: _Optional[str] = ..., run: _Optional[_Iterable[str]] = ..., archive: _Optional[bytes] = ...) -> None: ...

class Submission(_message.Message):
    __slots__ = ("bot", "sha256", "run", "archive_bytes", "unpacked_bytes", "submitted_ms", "submitted_by", "archive_kept")
    BOT_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_BYTES_FIELD_NUMBER: _ClassVar[int]
    UNPACKED_BYTES_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_MS_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_BY_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_KEPT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    sha256: str
    run: _containers.RepeatedScalarFieldContainer[str]
    archive_bytes: int
    unpacked_bytes: int
    submitted_ms: int
    submitted_by: SubmittedBy
    archive_kept: bool
    def __init__(self, bot: _Optional[str] = ..., sha256: _Optional[str] = ..., run: _Optional[_Iterable[str]] = ..., archive_bytes: _Optional[int] = ..., unpacked_bytes: _Optional[int] = ..., submitted_ms: _Optional[int] = ..., submitted_by: _Optional[_Union[SubmittedBy, str]] = ..., archive_kept: _Optional[bool] = ...) -> None: ...

class SubmittedBot(_message.Message):
    __slots__ = ("submission", "new")
    SUBMISSION_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    submission: Submission
    new: bool
    def __init__(self, submission: _Optional[_Union[Submission, _Mapping]] = ..., new: _Optional[bool] = ...) -> None: ...

class ListSubmissionsRequest(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    def __init__(self, bot: _Optional[str] = ...) -> None: ...

class ListSubmissionsResponse(_message.Message):
    __slots__ = ("submissions",)
    SUBMISSIONS_FIELD_NUMBER: _ClassVar[int]
    submissions: _containers.RepeatedCompositeFieldContainer[Submission]
    def __init__(self, submissions: _Optional[_Iterable[_Union[Submission, _Mapping]]] = ...) -> None: ...

class CreateSeasonRequest(_message.Message):
    __slots__ = ("config_toml",)
    CONFIG_TOML_FIELD_NUMBER: _ClassVar[int]
    config_toml: str
    def __init__(self, config_toml: _Optional[str] = ...) -> None: ...

class GetSeasonRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListSeasonsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListSeasonsResponse(_message.Message):
    __slots__ = ("seasons",)
    SEASONS_FIELD_NUMBER: _ClassVar[int]
    seasons: _containers.RepeatedCompositeFieldContainer[SeasonInfo]
    def __init__(self, seasons: _Optional[_Iterable[_Union[SeasonInfo, _Mapping]]] = ...) -> None: ...

class SeasonInfo(_message.Message):
    __slots__ = ("name", "ladders", "deadline_ms", "deadline", "state", "finals_ladder", "finalists", "outcome", "config_toml")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LADDERS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    FINALS_LADDER_FIELD_NUMBER: _ClassVar[int]
    FINALISTS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_TOML_FIELD_NUMBER: _ClassVar[int]
    name: str
    ladders: _containers.RepeatedScalarFieldContainer[str]
    deadline_ms: int
    deadline: str
    state: str
    finals_ladder: str
    finalists: SeasonFinalists
    outcome: SeasonOutcome
    config_toml: str
    def __init__(self, name: _Optional[str] = ..., ladders: _Optional[_Iterable[str]] = ..., deadline_ms: _Optional[int] = ..., deadline: _Optional[str] = ..., state: _Optional[str] = ..., finals_ladder: _Optional[str] = ..., finalists: _Optional[_Union[SeasonFinalists, _Mapping]] = ..., outcome: _Optional[_Union[SeasonOutcome, _Mapping]] = ..., config_toml: _Optional[str] = ...) -> None: ...

class SeasonFinalists(_message.Message):
    __slots__ = ("ladder", "sets", "cut_settled", "bots")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    CUT_SETTLED_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    sets: int
    cut_settled: bool
    bots: _containers.RepeatedCompositeFieldContainer[SeasonRank]
    def __init__(self, ladder: _Optional[str] = ..., sets: _Optional[int] = ..., cut_settled: _Optional[bool] = ..., bots: _Optional[_Iterable[_Union[SeasonRank, _Mapping]]] = ...) -> None: ...

class SeasonOutcome(_message.Message):
    __slots__ = ("settled", "reason", "sets", "matches", "standings")
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    settled: bool
    reason: str
    sets: int
    matches: int
    standings: _containers.RepeatedCompositeFieldContainer[SeasonRank]
    def __init__(self, settled: _Optional[bool] = ..., reason: _Optional[str] = ..., sets: _Optional[int] = ..., matches: _Optional[int] = ..., standings: _Optional[_Iterable[_Union[SeasonRank, _Mapping]]] = ...) -> None: ...

class SeasonRank(_message.Message):
    __slots__ = ("bot", "rank", "rank_lo", "rank_hi", "version")
    BOT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    RANK_LO_FIELD_NUMBER: _ClassVar[int]
    RANK_HI_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    bot: str
    rank: int
    rank_lo: int
    rank_hi: int
    version: str
    def __init__(self, bot: _Optional[str] = ..., rank: _Optional[int] = ..., rank_lo: _Optional[int] = ..., rank_hi: _Optional[int] = ..., version: _Optional[str] = ...) -> None: ...

class WatchSeasonRequest(_message.Message):
    __slots__ = ("name", "after", "follow")
    NAME_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_FIELD_NUMBER: _ClassVar[int]
    name: str
    after: int
    follow: bool
    def __init__(self, name: _Optional[str] = ..., after: _Optional[int] = ..., follow: _Optional[bool] = ...) -> None: ...

class SeasonEvent(_message.Message):
    __slots__ = ("id", "at_ms", "kind", "bot", "text", "private")
    ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    id: int
    at_ms: int
    kind: str
    bot: str
    text: str
    private: bool
    def __init__(self, id: _Optional[int] = ..., at_ms: _Optional[int] = ..., kind: _Optional[str] = ..., bot: _Optional[str] = ..., text: _Optional[str] = ..., private: _Optional[bool] = ...) -> None: ...

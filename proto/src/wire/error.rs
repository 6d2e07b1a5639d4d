//! [`WireError`]: why a message from the wire cannot be read as an engine's type, or a match
//! cannot be made from what a client sent. Each message is written once, here.

/// Why a message from the wire cannot be read as an engine's type, or a match cannot be made
/// from what a client sent. Its text is what the server and the SDK tell the client (an
/// INVALID_ARGUMENT status, an `ActError` MALFORMED, a runner's protocol error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// A `Turn`'s observation bytes are not an `Observation` message.
    #[error("the observation is not an `Observation` message: {0}")]
    NotAnObservation(#[from] prost::DecodeError),
    /// The options' JSON does not fit the game's options.
    #[error("the {game} options are not valid: {message}")]
    Options {
        /// The game's title.
        game: &'static str,
        /// What serde said.
        message: String,
    },
    /// The game's rules refuse it; the text names the rule (its id first, as `GR-1: ...`).
    #[error("{0}")]
    Rule(String),
    /// A message lacks what the contract requires, or holds two forms of one thing.
    #[error("{0}")]
    Incomplete(&'static str),
    /// A message contradicts itself (counts that do not add up, more than a game holds).
    #[error("{0}")]
    Inconsistent(String),
    /// An `Act` names neither an index nor an action.
    #[error("an Act needs an index, an action or a reply")]
    NoChoice,
    /// An `Act.reply` names no single legal action (the text form's reason).
    #[error(transparent)]
    Reply(#[from] cardroom_games::text::ReplyError),
    /// An `Act`'s index is past the turn's legal actions.
    #[error("index {index} is not a legal action (0 to {last})")]
    NotLegal {
        /// The index sent.
        index: u32,
        /// The last legal index.
        last: usize,
    },
    /// The action is another game's.
    #[error("this match plays {game}, but the action is a {other} action")]
    OtherGame {
        /// The match's game.
        game: &'static str,
        /// The action's game.
        other: &'static str,
    },
    /// The action names no game.
    #[error("the action names no game: set `{field}`")]
    NoGame {
        /// The match's game's field of `Action.game`.
        field: &'static str,
    },
    /// A legal action of a `Turn` carries no action.
    #[error("legal action {0} has no action")]
    EmptyLegalAction(u32),
    /// A suit number out of `pb::Suit`'s range.
    #[error("{0} is not a suit (1 to 4)")]
    Suit(i32),
    /// A rank number out of `pb::Rank`'s range.
    #[error("{0} is not a rank (2 to 14)")]
    Rank(i32),
    /// A card code past the pack.
    #[error("{0} is not a card code (0 to 51)")]
    CardCode(u8),
    /// A seat number past what a table can hold.
    #[error("{0} is not a seat")]
    Seat(u32),
    /// A place past what a table can hold.
    #[error("{0} is not a place")]
    Place(u32),
    /// A list of cards sent both as messages and as codes.
    #[error("`{field}` and `{field}_codes` are both set: send one")]
    BothCardForms {
        /// The list's field.
        field: String,
    },
    /// A per-seat field of a two-seat game without two values.
    #[error("`{field}` holds {len} values, not one per seat (2)")]
    NotOnePerSeat {
        /// The field.
        field: String,
        /// The values it holds.
        len: usize,
    },
    /// A count larger than the engine's types hold.
    #[error("`{field}` is {value}, more than the engine allows")]
    TooLarge {
        /// The field.
        field: String,
        /// The value sent.
        value: u32,
    },
    /// An error within a part of a message, which `context` names.
    #[error("{context}: {error}")]
    In {
        /// Where (a field, a legal action, a meld).
        context: String,
        /// What is wrong there.
        error: Box<WireError>,
    },
}

impl WireError {
    /// This error, said to be within `context` (a field, a legal action, a meld).
    pub fn within(self, context: impl Into<String>) -> WireError {
        WireError::In { context: context.into(), error: Box::new(self) }
    }

    /// A refusal of the game's rules, from the engine's own error.
    pub fn rule(error: impl std::fmt::Display) -> WireError {
        WireError::Rule(error.to_string())
    }
}

/// What a client sent that cannot be read is its mistake: INVALID_ARGUMENT, the error's text.
impl From<WireError> for tonic::Status {
    fn from(error: WireError) -> tonic::Status {
        tonic::Status::invalid_argument(error.to_string())
    }
}

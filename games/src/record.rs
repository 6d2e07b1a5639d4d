//! Records: a match of any game as options, players, start and actions ([`Record`]), replayed
//! exactly with the engine; and [`AnyRecord`](crate::AnyRecord), a record whose game is known only once read.
//!
//! The JSON form is documented on [`Record`].

use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::Game;
use crate::seat::Seat;

/// A match of game `G` as data: it replays exactly, with the same rules engine, on every
/// platform. This is cardroom's replay format.
///
/// In JSON a record is tagged with its game:
///
/// ```json
/// {
///   "game": "twenty_two",
///   "options": {
///     "limit": 22
///   },
///   "players": 4,
///   "seed": 7,
///   "actions": [
///     { "seat": 1, "action": { "exchange": ["2C", "9H"] } },
///     { "seat": 2, "action": { "exchange": [] } },
///     { "seat": 1, "action": { "play": ["7S", "7D"] } }
///   ]
/// }
/// ```
///
/// That is also how [`Record::to_json`] lays it out ([`write_json`]): one action to a line.
///
/// `options` may leave out any field (it takes the default) and `actions` may be left out.
/// `players` is written only for a game whose table size the options do not fix (Gin Rummy's
/// records leave it out); instead of `"seed"`, a record may start from `"setup"`, the game's
/// explicit [`Game::Setup`]. Cards are written `AS`, `TH`, `2C`. A [`Record<G>`] read on its
/// own may leave out `"game"`; given, it must be `G`'s. Serde writes a `Record<G>` without the
/// tag (the game is in its type); [`Record::to_json`] and [`AnyRecord`](crate::AnyRecord) write it.
///
/// A finished match's record says why it ended, after its seed or setup, as PGN's `Termination`
/// tag does: `"termination": "TT-21: seat 2 is the last player left"`. It is left out while the
/// match runs (records written before it existed have none), and replay ignores it.
pub struct Record<G: Game> {
    /// The rule set.
    pub options: G::Options,
    /// Seats at the table.
    pub players: u8,
    /// A seed, or an explicit setup.
    pub start: Start<G::Setup>,
    /// Every action, in order.
    pub actions: Vec<RecordedAction<G::Action>>,
    /// Why the match ended, in a sentence, as PGN's `Termination` tag: the rule that ended it
    /// ([`Game::end_reason`], which [`Game::record`] writes here), or why it was ended from
    /// outside the rules (a forfeit, an abort). `None` for a match still running, or a record
    /// written before records said. Metadata: replay ignores it.
    pub termination: Option<String>,
    /// What the seats said beside their actions (`Act.comment`: a language model's reasoning,
    /// say), in action order. Metadata: replay ignores it.
    pub comments: Vec<Comment>,
}

/// The most bytes a comment may have (UTF-8).
pub const MAX_COMMENT_BYTES: usize = 2048;

/// What a seat said beside one of its actions: `{"action": 3, "text": "keeping the 7s"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Comment {
    /// The action's index in `actions`, from 0.
    pub action: usize,
    /// What was said, at most [`MAX_COMMENT_BYTES`] bytes.
    pub text: String,
}

/// How a recorded match began: `"seed": 7` or `"setup": {...}` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Start<S> {
    /// [`Game::new`] with this seed.
    Seed(u64),
    /// [`Game::from_setup`] with this setup.
    Setup(S),
}

/// One action and the seat that took it: `{"seat": 1, "action": {"play": ["7S"]}}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordedAction<A> {
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: A,
}

/// Why a record does not replay.
pub enum ReplayError<G: Game> {
    /// The seeded start is not a valid match (options, table size).
    Create(G::CreateError),
    /// The explicit setup is not a valid position.
    Setup(G::SetupError),
    /// A setup whose table size differs from `players`.
    Players {
        /// `players` in the record.
        players: u8,
        /// Seats in the setup.
        hands: u8,
    },
    /// The first illegal action.
    Illegal {
        /// Its position in `actions`, from 0.
        index: usize,
        /// Who took it.
        seat: Seat,
        /// What it was.
        action: G::Action,
        /// The rule it breaks.
        error: G::Error,
    },
}

impl<G: Game> Record<G> {
    /// The record of a seeded match that has not begun.
    pub fn seeded(options: G::Options, players: u8, seed: u64) -> Record<G> {
        Record {
            options,
            players,
            start: Start::Seed(seed),
            actions: Vec::new(),
            termination: None,
            comments: Vec::new(),
        }
    }

    /// The state the record begins with, before any action.
    pub fn initial_state(&self) -> Result<G, ReplayError<G>> {
        match &self.start {
            Start::Seed(seed) => {
                G::new(self.options, self.players, *seed).map_err(ReplayError::Create)
            }
            Start::Setup(setup) => {
                let state =
                    G::from_setup(self.options, setup.clone()).map_err(ReplayError::Setup)?;
                if state.players() != self.players {
                    return Err(ReplayError::Players {
                        players: self.players,
                        hands: state.players(),
                    });
                }
                Ok(state)
            }
        }
    }

    /// Replays every action and returns the final state, or the first illegal action.
    pub fn replay(&self) -> Result<G, ReplayError<G>> {
        self.replay_with(|_, _| {})
    }

    /// Replays every action, handing each one's events to `on_events` (the opening events
    /// first, with no action), and returns the final state.
    pub fn replay_with(
        &self,
        mut on_events: impl FnMut(Option<&RecordedAction<G::Action>>, &[G::Event]),
    ) -> Result<G, ReplayError<G>> {
        let mut state = self.initial_state()?;
        on_events(None, &state.opening_events());
        for (index, recorded) in self.actions.iter().enumerate() {
            let events = state.apply(recorded.seat, recorded.action).map_err(|error| {
                ReplayError::Illegal { index, seat: recorded.seat, action: recorded.action, error }
            })?;
            on_events(Some(recorded), &events);
        }
        Ok(state)
    }

    /// What its seat said beside action `index` (from 0), if anything.
    pub fn comment(&self, index: usize) -> Option<&str> {
        self.comments.iter().find(|c| c.action == index).map(|c| c.text.as_str())
    }

    /// Reads a record of `G` from JSON.
    pub fn from_json(json: &str) -> Result<Record<G>, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Writes the record as JSON, tagged with its game (`"game": "gin"`), one action to a line
    /// ([`write_json`]): the form of record files, which
    /// [`AnyRecord::from_json`](crate::AnyRecord::from_json) reads. (Serde alone writes it
    /// untagged.)
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        #[serde(bound = "")]
        struct Tagged<'a, G: Game> {
            game: &'static str,
            #[serde(flatten)]
            record: &'a Record<G>,
        }
        json_string(&Tagged { game: G::NAME, record: self })
    }

    /// Whether `players` goes without saying: the options seat exactly that many.
    fn players_implied(options: &G::Options, players: u8) -> bool {
        let seats = G::seats(options);
        seats.start() == seats.end() && *seats.start() == players
    }
}

/// The JSON form of a record, written.
#[derive(Serialize)]
#[serde(bound = "")]
struct RecordOut<'a, G: Game> {
    options: &'a G::Options,
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<u8>,
    #[serde(flatten)]
    start: &'a Start<G::Setup>,
    #[serde(skip_serializing_if = "Option::is_none")]
    termination: Option<&'a str>,
    #[serde(skip_serializing_if = "<[Comment]>::is_empty")]
    comments: &'a [Comment],
    actions: &'a [RecordedAction<G::Action>],
}

/// The JSON form of a record, read.
#[derive(Deserialize)]
#[serde(bound = "")]
struct RecordIn<G: Game> {
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    options: G::Options,
    #[serde(default)]
    players: Option<u8>,
    #[serde(flatten)]
    start: Start<G::Setup>,
    #[serde(default)]
    termination: Option<String>,
    #[serde(default)]
    comments: Vec<Comment>,
    #[serde(default = "Vec::new")]
    actions: Vec<RecordedAction<G::Action>>,
}

impl<G: Game> Serialize for Record<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RecordOut::<G> {
            options: &self.options,
            players: (!Record::<G>::players_implied(&self.options, self.players))
                .then_some(self.players),
            start: &self.start,
            termination: self.termination.as_deref(),
            comments: &self.comments,
            actions: &self.actions,
        }
        .serialize(serializer)
    }
}

impl<'de, G: Game> Deserialize<'de> for Record<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Record<G>, D::Error> {
        use serde::de::Error;
        let raw = RecordIn::<G>::deserialize(deserializer)?;
        if let Some(game) = raw.game
            && game != G::NAME
        {
            return Err(D::Error::custom(format!(
                "this is a record of {game:?}, not of {:?}",
                G::NAME
            )));
        }
        let players = match raw.players {
            Some(players) => players,
            None => {
                let seats = G::seats(&raw.options);
                if seats.start() != seats.end() {
                    return Err(D::Error::missing_field("players"));
                }
                *seats.start()
            }
        };
        Ok(Record {
            options: raw.options,
            players,
            start: raw.start,
            actions: raw.actions,
            termination: raw.termination,
            comments: raw.comments,
        })
    }
}

/// The record's JSON form as a schema (feature `schema`): what [`Record`]'s `Serialize` writes
/// (and its `Deserialize` reads), `"game"` aside, which [`crate::AnyRecord`] adds.
#[cfg(feature = "schema")]
impl<G: Game> schemars::JsonSchema for Record<G>
where
    G::Options: schemars::JsonSchema,
    G::Setup: schemars::JsonSchema,
    G::Action: schemars::JsonSchema,
{
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("{}Record", G::KIND.title().replace(['-', ' '], "")).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let options = generator.subschema_for::<G::Options>();
        let setup = generator.subschema_for::<G::Setup>();
        let action = generator.subschema_for::<RecordedAction<G::Action>>();
        let comment = generator.subschema_for::<Comment>();
        schemars::json_schema!({
            "description": "A match as data: options, a seat count (left out when the options seat \
                            exactly one number), a seed or an explicit setup, why the match ended \
                            (once it has), and every action.",
            "type": "object",
            "properties": {
                "options": options,
                "players": { "type": "integer", "minimum": 0, "maximum": 255 },
                "seed": { "type": "integer", "minimum": 0 },
                "setup": setup,
                "termination": {
                    "description": "Why the match ended, in a sentence: the rule that ended it, \
                                    starting with the rule's id (such as GR-13 or TT-21), or why it \
                                    was ended from outside the rules (a forfeit, an abort). Left \
                                    out while the match runs. Replay ignores it.",
                    "type": "string",
                },
                "comments": {
                    "description": "What the seats said beside their actions, in action order: \
                                    each the action's index in `actions` and at most 2048 bytes \
                                    of text. Left out when none. Replay ignores it.",
                    "type": "array",
                    "items": comment,
                },
                "actions": { "type": "array", "items": action },
            },
            "required": ["options", "actions"],
            "oneOf": [{ "required": ["seed"] }, { "required": ["setup"] }],
        })
    }
}

impl<G: Game> Clone for Record<G> {
    fn clone(&self) -> Record<G> {
        Record {
            options: self.options,
            players: self.players,
            start: self.start.clone(),
            actions: self.actions.clone(),
            termination: self.termination.clone(),
            comments: self.comments.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Record<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("game", &G::NAME)
            .field("options", &self.options)
            .field("players", &self.players)
            .field("start", &self.start)
            .field("actions", &self.actions)
            .field("termination", &self.termination)
            .field("comments", &self.comments)
            .finish()
    }
}

impl<G: Game> PartialEq for Record<G> {
    fn eq(&self, other: &Record<G>) -> bool {
        self.options == other.options
            && self.players == other.players
            && self.start == other.start
            && self.actions == other.actions
            && self.termination == other.termination
            && self.comments == other.comments
    }
}

impl<G: Game> Eq for Record<G> {}

impl<G: Game> Hash for Record<G> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.options.hash(state);
        self.players.hash(state);
        self.start.hash(state);
        self.actions.hash(state);
        self.termination.hash(state);
    }
}

impl<G: Game> fmt::Display for ReplayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Create(error) => write!(f, "the record's start is invalid: {error}"),
            ReplayError::Setup(error) => write!(f, "the record's start is invalid: {error}"),
            ReplayError::Players { players, hands } => {
                write!(f, "the record says {players} players but its setup has {hands} hands")
            }
            ReplayError::Illegal { index, seat, action, error } => {
                write!(f, "action {index} ({seat}: {action}) is illegal: {error}")
            }
        }
    }
}

impl<G: Game> fmt::Debug for ReplayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Create(error) => f.debug_tuple("Create").field(error).finish(),
            ReplayError::Setup(error) => f.debug_tuple("Setup").field(error).finish(),
            ReplayError::Players { players, hands } => {
                f.debug_struct("Players").field("players", players).field("hands", hands).finish()
            }
            ReplayError::Illegal { index, seat, action, error } => f
                .debug_struct("Illegal")
                .field("index", index)
                .field("seat", seat)
                .field("action", action)
                .field("error", error)
                .finish(),
        }
    }
}

impl<G: Game> Clone for ReplayError<G> {
    fn clone(&self) -> ReplayError<G> {
        match self {
            ReplayError::Create(error) => ReplayError::Create(error.clone()),
            ReplayError::Setup(error) => ReplayError::Setup(error.clone()),
            ReplayError::Players { players, hands } => {
                ReplayError::Players { players: *players, hands: *hands }
            }
            ReplayError::Illegal { index, seat, action, error } => ReplayError::Illegal {
                index: *index,
                seat: *seat,
                action: *action,
                error: error.clone(),
            },
        }
    }
}

impl<G: Game> PartialEq for ReplayError<G> {
    fn eq(&self, other: &ReplayError<G>) -> bool {
        match (self, other) {
            (ReplayError::Create(a), ReplayError::Create(b)) => a == b,
            (ReplayError::Setup(a), ReplayError::Setup(b)) => a == b,
            (
                ReplayError::Players { players: a, hands: x },
                ReplayError::Players { players: b, hands: y },
            ) => a == b && x == y,
            (
                ReplayError::Illegal { index: a, seat: s, action: x, error: e },
                ReplayError::Illegal { index: b, seat: t, action: y, error: f },
            ) => a == b && s == t && x == y && e == f,
            _ => false,
        }
    }
}

impl<G: Game> Eq for ReplayError<G> {}

impl<G: Game> std::error::Error for ReplayError<G> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Create(error) => Some(error),
            ReplayError::Setup(error) => Some(error),
            ReplayError::Players { .. } => None,
            ReplayError::Illegal { error, .. } => Some(error),
        }
    }
}

/// Writes `value` as a record file lays it out: the outer object and the lists and objects in
/// it one entry to a line, indented by two spaces, and anything deeper on one line
/// (`{ "seat": 1, "action": { "discard": "3C" } }`): a record of thousands of actions reads and
/// diffs one action to a line, and takes 40% less time and a third fewer bytes to write than
/// pretty JSON (65 against 108 ns an action, 47 against 70 bytes, for a Gin Rummy match of
/// 11,555 actions; the server writes one record a match). Any JSON reader reads it.
pub fn write_json<W: std::io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(writer, RecordFormatter::default());
    value.serialize(&mut serializer)
}

/// [`write_json`] into a string.
pub(crate) fn json_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(4096);
    // Records hold only strings, numbers and lists: serialization cannot fail, and serde_json
    // writes UTF-8.
    match write_json(&mut out, value) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// [`write_json`]'s layout: serde_json's pretty layout down to [`RecordFormatter::LINES`]
/// levels of nesting, one line below.
#[derive(Debug, Default)]
struct RecordFormatter {
    /// Lists and objects open.
    depth: usize,
    /// Whether the innermost open list or object has an entry yet.
    has_value: bool,
}

impl RecordFormatter {
    /// The levels laid out one entry to a line: the record's object, and its lists and
    /// objects (`actions`, `options`).
    const LINES: usize = 2;

    /// Whether the innermost open list or object is laid out one entry to a line.
    fn lines(&self) -> bool {
        self.depth <= Self::LINES
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
        inline_pad: bool,
    ) -> std::io::Result<()> {
        let lines = self.lines();
        self.depth -= 1;
        if self.has_value {
            if lines {
                writer.write_all(b"\n")?;
                self.indent(writer)?;
            } else if inline_pad {
                writer.write_all(b" ")?;
            }
        }
        // The enclosing list or object has this one as an entry.
        self.has_value = true;
        writer.write_all(bracket)
    }

    fn entry<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
        inline_pad: bool,
    ) -> std::io::Result<()> {
        if self.lines() {
            writer.write_all(if first { b"\n" } else { b",\n" })?;
            self.indent(writer)
        } else if first {
            writer.write_all(if inline_pad { b" " } else { b"" })
        } else {
            writer.write_all(b", ")
        }
    }

    fn indent<W: ?Sized + std::io::Write>(&self, writer: &mut W) -> std::io::Result<()> {
        const SPACES: &[u8] = b"                ";
        writer.write_all(&SPACES[..(2 * self.depth).min(SPACES.len())])
    }
}

impl serde_json::ser::Formatter for RecordFormatter {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]", false)
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.entry(writer, first, false)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}", true)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.entry(writer, first, true)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::catalogue::{AnyRecord, GameKind};
    use crate::{gin, twenty_two};

    #[test]
    fn a_record_of_one_game_is_refused_as_another() {
        let json = r#"{"game": "gin", "seed": 3}"#;
        let error = Record::<twenty_two::State>::from_json(json).unwrap_err().to_string();
        assert!(error.contains("a record of \"gin\", not of \"twenty_two\""), "{error}");
        assert!(Record::<gin::State>::from_json(json).is_ok());
    }

    #[test]
    fn players_is_left_out_only_where_the_options_fix_it() {
        let gin = Record::<gin::State>::seeded(gin::Options::default(), 2, 3);
        let json: serde_json::Value = serde_json::from_str(&gin.to_json()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "game": "gin", "options": gin.options, "seed": 3, "actions": []
            })
        );
        assert_eq!(AnyRecord::from(gin.clone()).to_json(), gin.to_json());
        let tt = Record::<twenty_two::State>::seeded(twenty_two::Options::default(), 4, 3);
        assert_eq!(serde_json::to_value(&tt).unwrap()["players"], 4);
        // Twenty-Two's table size is not implied: a record must say it.
        let error = Record::<twenty_two::State>::from_json(r#"{"seed": 3}"#).unwrap_err();
        assert!(error.to_string().contains("missing field `players`"), "{error}");
        let any = AnyRecord::from(tt.clone());
        assert_eq!(AnyRecord::from_json(&any.to_json()).unwrap(), any);
        assert_eq!(any.kind(), GameKind::TwentyTwo);
        assert_eq!(any.downcast::<twenty_two::State>(), Some(tt));
    }

    /// A record file lays out one action to a line, the record's own fields and its options
    /// one to a line, and reads back as the same value as serde_json's own layouts.
    #[test]
    fn a_record_file_holds_one_action_to_a_line() {
        let mut state = twenty_two::State::new(twenty_two::Options::default(), 3, 7).unwrap();
        for _ in 0..5 {
            let seat = state.to_act().unwrap();
            let action = state.legal_actions()[0];
            state.apply(seat, action).unwrap();
        }
        let record = state.record().unwrap();
        let json = record.to_json();
        let lines: Vec<&str> = json.lines().collect();
        let actions = lines.iter().position(|line| *line == "  \"actions\": [").unwrap();
        for (line, recorded) in lines[actions + 1..].iter().zip(&record.actions) {
            assert!(
                line.starts_with(&format!("    {{ \"seat\": {}, \"action\": ", recorded.seat.0))
            );
            let entry = line.trim_end_matches(',');
            let read: RecordedAction<twenty_two::Action> = serde_json::from_str(entry).unwrap();
            assert_eq!(&read, recorded, "{line}");
        }
        assert_eq!(lines[actions + 1 + record.actions.len()..], ["  ]", "}"]);
        assert_eq!(lines[..2], ["{", "  \"game\": \"twenty_two\","]);
        assert_eq!(lines[2], "  \"options\": {", "the options one to a line");
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let pretty: serde_json::Value = serde_json::from_str(
            &serde_json::to_string_pretty(&AnyRecord::from(record.clone())).unwrap(),
        )
        .unwrap();
        assert_eq!(value, pretty);
        assert_eq!(Record::<twenty_two::State>::from_json(&json).unwrap(), record);
        // Empty lists and objects stay on their line.
        let empty = Record::<gin::State>::seeded(gin::Options::default(), 2, 3).to_json();
        assert!(empty.contains("\"actions\": []"), "{empty}");
    }

    /// The termination is written once the match is over, on a line of its own before the
    /// actions, read back, and set by whoever ends a match outside the rules.
    #[test]
    fn a_finished_record_says_why_the_match_ended() {
        let mut state = twenty_two::State::new(twenty_two::Options::default(), 3, 7).unwrap();
        let running = AnyRecord::from(state.record().unwrap());
        assert_eq!(running.termination(), None);
        assert!(!running.to_json().contains("termination"));
        while let Some(seat) = state.to_act() {
            let action = state.legal_actions()[0];
            state.apply(seat, action).unwrap();
        }
        let reason = state.end_reason().unwrap();
        let mut any = AnyRecord::from(state.record().unwrap());
        assert_eq!(any.termination(), Some(reason.as_str()));
        let json = any.to_json();
        let lines: Vec<&str> = json.lines().collect();
        let termination = format!("  \"termination\": \"{reason}\",");
        let at = lines.iter().position(|line| *line == termination).unwrap();
        assert_eq!((lines[at - 1], lines[at + 1]), ("  \"seed\": 7,", "  \"actions\": ["));
        assert_eq!(AnyRecord::from_json(&json).unwrap(), any);
        any.set_termination(Some("seat 1 forfeited".to_owned()));
        let back = AnyRecord::from_json(&any.to_json()).unwrap();
        assert_eq!(back.termination(), Some("seat 1 forfeited"));
        // Nothing else in the record changed.
        let mut untold = state.record().unwrap();
        untold.termination = None;
        any.set_termination(None);
        assert_eq!(any, AnyRecord::from(untold));
    }
}

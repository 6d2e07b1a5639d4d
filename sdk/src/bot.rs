//! [`Bot`]: what a bot author writes, and the small types the runners hand it.

use std::fmt;

use cardroom_games::{Game, Seat, Standing};

/// A bot for the game `G`: it sees its seat's observation (the engine's own type, with the legal
/// actions in it) and chooses an action. The runners ([`crate::play`], [`crate::play_local`])
/// call it; it never sees protobuf.
///
/// `choose` is called only when the bot's seat is to act, so the observation's legal actions are
/// never empty. Returning an action that is not legal is survivable: the networked runner sends
/// it by value, reports the server's [`ActError`] to [`Bot::rejected`] and plays the first legal
/// action instead; the in-process runner plays the first legal action and counts the mistake.
///
/// Bots must be `Send` so that a runner can live in a spawned task. A bot that thinks for long
/// is fine: on a multi-threaded tokio runtime the networked runner calls `choose` through
/// `block_in_place`, so the connection keeps being served.
pub trait Bot<G: Game>: Send {
    /// The action to play, chosen from `observation`'s legal actions.
    fn choose(&mut self, observation: &G::Observation) -> G::Action;

    /// What the bot says beside the action `choose` just returned (a language model's
    /// reasoning, a search's estimate), sent as `Act.comment`: at most 2048 bytes, kept in
    /// the match's record and shown beside the step in replays, never live. `None` by default.
    fn comment(&mut self) -> Option<String> {
        None
    }

    /// The match starts (or the bot joined it): its seat, table size and options. Called once
    /// per match, before the first `choose`.
    fn match_start(&mut self, start: &MatchStart) {
        let _ = start;
    }

    /// The server refused one of the bot's actions (or reported a timeout or forfeit).
    fn rejected(&mut self, error: &ActError) {
        let _ = error;
    }

    /// The match is over: the standings. Called once, last.
    fn match_end(&mut self, end: &MatchEnd) {
        let _ = end;
    }
}

/// The games cardroom hosts: the catalogue's [`GameKind`].
pub use cardroom_games::GameKind;

/// A match's clock: time per decision and the bank for the whole match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Clock {
    /// Time for one decision, in milliseconds.
    pub move_ms: u32,
    /// The seat's bank for the whole match, in milliseconds.
    pub bank_ms: u32,
}

/// What a bot learns when its match starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStart {
    /// The match's id on the server (`"local"` in process).
    pub match_id: String,
    /// The game.
    pub game: GameKind,
    /// The bot's seat.
    pub seat: Seat,
    /// Seats at the table.
    pub seats: u8,
    /// The rule-set options as a JSON object, every field included.
    pub options_json: String,
    /// The clock; `None` in process, where nobody is timed.
    pub clock: Option<Clock>,
}

/// How a match ended, as the bot's seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchEnd {
    /// The bot's seat.
    pub seat: Seat,
    /// Final standings, first place first; equal places are ties.
    pub standings: Vec<Standing>,
    /// Seats that forfeited (placed last).
    pub forfeited: Vec<Seat>,
    /// True when the server aborted the match (shutdown) rather than finishing it.
    pub aborted: bool,
    /// Why it ended, in a sentence (may be empty).
    pub reason: String,
}

impl MatchEnd {
    /// The bot's own place, if the standings name its seat.
    pub fn place(&self) -> Option<u8> {
        self.place_of(self.seat)
    }

    /// The place of `seat`, if the standings name it.
    pub fn place_of(&self, seat: Seat) -> Option<u8> {
        self.standings.iter().find(|standing| standing.seat == seat).map(|standing| standing.place)
    }

    /// True when the bot's seat finished first (alone or tied).
    pub fn won(&self) -> bool {
        self.place() == Some(1)
    }
}

/// Why the server refused an action (see `docs/protocol.md`, "Errors").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActErrorCode {
    /// The rules forbid the action; `rule` names the rule.
    IllegalAction,
    /// Another seat is to act.
    NotYourTurn,
    /// The answer named an old or future turn; it was ignored.
    StaleTurn,
    /// The answer could not be read.
    Malformed,
    /// The bot's time ran out: the server played the default action and counted a strike.
    TimedOut,
    /// Too many strikes: the seat is placed last and played by the default policy.
    Forfeited,
    /// A text reply (`Act.reply`) named no single legal action; the message says why.
    UnreadableReply,
    /// A code this SDK does not know (a newer server).
    Other(i32),
}

impl ActErrorCode {
    /// The code from the wire.
    pub(crate) fn from_pb(value: i32) -> ActErrorCode {
        use cardroom_proto::pb::ActErrorCode as Pb;
        match Pb::try_from(value) {
            Ok(Pb::IllegalAction) => ActErrorCode::IllegalAction,
            Ok(Pb::NotYourTurn) => ActErrorCode::NotYourTurn,
            Ok(Pb::StaleTurn) => ActErrorCode::StaleTurn,
            Ok(Pb::Malformed) => ActErrorCode::Malformed,
            Ok(Pb::TimedOut) => ActErrorCode::TimedOut,
            Ok(Pb::Forfeited) => ActErrorCode::Forfeited,
            Ok(Pb::UnreadableReply) => ActErrorCode::UnreadableReply,
            Ok(Pb::Unspecified) | Err(_) => ActErrorCode::Other(value),
        }
    }
}

/// The contract's name of the code (`ILLEGAL_ACTION`, `STALE_TURN`, …, as in the `.proto`
/// without its `ACT_ERROR_CODE_` prefix), or the number of one this SDK does not know.
impl fmt::Display for ActErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ActErrorCode::IllegalAction => "ILLEGAL_ACTION",
            ActErrorCode::NotYourTurn => "NOT_YOUR_TURN",
            ActErrorCode::StaleTurn => "STALE_TURN",
            ActErrorCode::Malformed => "MALFORMED",
            ActErrorCode::TimedOut => "TIMED_OUT",
            ActErrorCode::Forfeited => "FORFEITED",
            ActErrorCode::UnreadableReply => "UNREADABLE_REPLY",
            ActErrorCode::Other(code) => return write!(f, "code {code}"),
        })
    }
}

/// An action the server refused; the match goes on and nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActError {
    /// The turn the refused answer named.
    pub turn: u64,
    /// What kind of refusal.
    pub code: ActErrorCode,
    /// For [`ActErrorCode::IllegalAction`], the broken rule's id (`TT-12`, `GR-6`).
    pub rule: String,
    /// What was wrong, in a sentence.
    pub message: String,
}

impl fmt::Display for ActError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn {}: {}: {}", self.turn, self.code, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_reads_with_the_contracts_names_not_rusts() {
        let error = ActError {
            turn: 7,
            code: ActErrorCode::IllegalAction,
            rule: "TT-12".into(),
            message: "must beat the lead".into(),
        };
        assert_eq!(error.to_string(), "turn 7: ILLEGAL_ACTION: must beat the lead");
        assert_eq!(ActErrorCode::StaleTurn.to_string(), "STALE_TURN");
        assert_eq!(ActErrorCode::Other(9).to_string(), "code 9");
    }
}

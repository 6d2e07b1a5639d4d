//! A finished match's record, verified and unfolded into the steps the replay page shows.
//!
//! The record is replayed with the rules engine (every action checked as it was when played);
//! after each action the page shows the public view, every hand (the match is over, so hands
//! may be revealed) and the action's public events.

use cardroom_games::{
    AnyRecord, Game, GameKind, GameVisitor, Record, RecordVisitor, ReplayError, Seat,
};
use serde::Serialize;
use serde_json::Value;

/// One position of the replay.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    /// The action that led here, as `seat 1: play 7S`; `None` for the opening position.
    pub(crate) action: Option<String>,
    /// The public events of that action, as text.
    pub(crate) events: Vec<String>,
    /// The public view after it (the engine's JSON).
    pub(crate) public: Value,
    /// Each seat's hand after it.
    pub(crate) hands: Vec<Value>,
}

/// A record unfolded.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Replay {
    /// The game's title.
    pub(crate) game: &'static str,
    /// Seats at the table.
    pub(crate) players: u8,
    /// The opening position, then one step per action.
    pub(crate) steps: Vec<Step>,
    /// Final places by seat (1 is first), once the match is over.
    pub(crate) places: Option<Vec<u8>>,
    /// Why the record does not replay to its end, if it does not: the steps stop before the
    /// first illegal action.
    pub(crate) error: Option<String>,
}

/// Why a record cannot be shown at all.
#[derive(Debug, thiserror::Error)]
#[error("the record is not a cardroom record: {0}")]
pub(crate) struct NotARecord(#[from] serde_json::Error);

/// Reads a record: tagged with its game, as records are written now, or untagged, as ladder
/// files of older arenas hold them (then the game whose engine replays it is the one).
pub(crate) fn read_record(json: &str) -> Result<AnyRecord, NotARecord> {
    let tagged = match AnyRecord::from_json(json) {
        Ok(record) => return Ok(record),
        Err(error) => error,
    };
    struct Untagged<'a>(&'a str);
    impl GameVisitor for Untagged<'_> {
        type Output = Option<AnyRecord>;
        fn visit<G: Game>(self) -> Option<AnyRecord> {
            let record = Record::<G>::from_json(self.0).ok()?;
            record.replay().is_ok().then(|| G::into_any_record(record))
        }
    }
    GameKind::ALL.iter().find_map(|kind| kind.visit(Untagged(json))).ok_or(NotARecord(tagged))
}

/// Reads and replays a record's JSON.
pub(crate) fn unfold(json: &str) -> Result<Replay, NotARecord> {
    Ok(read_record(json)?.visit(Unfold))
}

struct Unfold;

fn to_value(value: &impl Serialize) -> Value {
    // The engines' views are plain data: serialising them cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl RecordVisitor for Unfold {
    type Output = Replay;

    fn visit<G: Game>(self, record: &Record<G>) -> Replay {
        let mut replay = Replay {
            game: G::KIND.title(),
            players: record.players,
            steps: Vec::new(),
            places: None,
            error: None,
        };
        let mut state = match record.initial_state() {
            Ok(state) => state,
            Err(error) => {
                replay.error = Some(error.to_string());
                return replay;
            }
        };
        let step = |state: &G, action: Option<String>, events: Vec<String>| Step {
            action,
            events,
            public: to_value(&state.public_view()),
            hands: (0..state.players())
                .map(|seat| {
                    let observation = to_value(&state.observation(Seat(seat)));
                    observation.get("hand").cloned().unwrap_or(Value::Null)
                })
                .collect(),
        };
        let opening = state.opening_events().iter().map(ToString::to_string).collect();
        replay.steps.push(step(&state, None, opening));
        for (index, recorded) in record.actions.iter().enumerate() {
            match state.apply(recorded.seat, recorded.action) {
                Ok(events) => {
                    let events = events.iter().map(ToString::to_string).collect();
                    let action = format!("{}: {}", recorded.seat, recorded.action);
                    replay.steps.push(step(&state, Some(action), events));
                }
                Err(error) => {
                    let error = ReplayError::<G>::Illegal {
                        index,
                        seat: recorded.seat,
                        action: recorded.action,
                        error,
                    };
                    replay.error = Some(error.to_string());
                    return replay;
                }
            }
        }
        replay.places = state.standings().map(|standings| {
            let mut places = vec![0; usize::from(state.players())];
            for s in standings {
                if let Some(place) = places.get_mut(s.seat.index()) {
                    *place = s.place;
                }
            }
            places
        });
        replay
    }
}

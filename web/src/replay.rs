//! A finished match's record, verified and replayed with the rules engine (every action checked
//! as it was when played): the list of its steps (each action with its public events), and the
//! position after any one step, which the replay page draws one at a time.
//!
//! A position is the table with every hand face up (the match is over, so hands may be
//! revealed: [`Perspective::Everyone`]) and what its step did, in lines. Replaying a record to
//! a step takes microseconds, so positions are not kept: each is replayed when asked for.

use cardroom_games::{
    AnyRecord, Game, GameKind, GameVisitor, Line, Perspective, Record, RecordVisitor, Table,
};

/// One step of the replay, as its list shows it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    /// The action that led here, as `seat 1: play 7S`; `None` for the opening position.
    pub(crate) action: Option<String>,
    /// What the seat said beside the action (`Act.comment`), if anything.
    pub(crate) comment: Option<String>,
    /// The public events of that action (of the deal, for the opening position), as text.
    pub(crate) events: Vec<String>,
}

/// A record's steps.
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

/// The position after one step: what the replay page draws.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Position {
    /// The step's index: 0 is the opening position, `n` the position after `n` actions.
    pub(crate) step: usize,
    /// The action that led here, as `seat 1: play 7S`; `None` for the opening position.
    pub(crate) action: Option<String>,
    /// The table, every hand face up.
    pub(crate) table: Table,
    /// What the step did: its events (the deal's, for the opening position), each in a line.
    pub(crate) lines: Vec<Line>,
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

/// A record's steps: each action with its events, up to the first illegal one.
pub(crate) fn steps(record: &AnyRecord) -> Replay {
    record.visit(Steps)
}

/// The position after `step` (0: the opening position), its table as `perspective` sees it;
/// `None` past the last step, or when the record does not replay that far.
pub(crate) fn position(
    record: &AnyRecord,
    step: usize,
    perspective: Perspective,
) -> Option<Position> {
    record.visit(PositionAt(step, perspective))
}

struct Steps;

impl RecordVisitor for Steps {
    type Output = Replay;

    fn visit<G: Game>(self, record: &Record<G>) -> Replay {
        let mut steps = Vec::with_capacity(record.actions.len() + 1);
        let replayed = record.replay_with(|action, events| {
            // The opening events come first, with no action: action `i` is step `i + 1`.
            let comment = action.and_then(|_| record.comment(steps.len().wrapping_sub(1)));
            steps.push(Step {
                action: action.map(|a| format!("{}: {}", a.seat, a.action)),
                comment: comment.map(str::to_owned),
                events: events.iter().map(ToString::to_string).collect(),
            });
        });
        let (places, error) = match replayed {
            Ok(state) => (state.standings().map(|s| places(&s, state.players())), None),
            Err(error) => (None, Some(error.to_string())),
        };
        Replay { game: G::KIND.title(), players: record.players, steps, places, error }
    }
}

/// Places by seat from the engine's standings.
fn places(standings: &[cardroom_games::Standing], players: u8) -> Vec<u8> {
    let mut places = vec![0; usize::from(players)];
    for s in standings {
        if let Some(place) = places.get_mut(s.seat.index()) {
            *place = s.place;
        }
    }
    places
}

struct PositionAt(usize, Perspective);

impl RecordVisitor for PositionAt {
    type Output = Option<Position>;

    fn visit<G: Game>(self, record: &Record<G>) -> Option<Position> {
        let step = self.0;
        let mut state = record.initial_state().ok()?;
        let mut action = None;
        let mut events = state.opening_events();
        if step > 0 {
            for recorded in record.actions.get(..step)? {
                events = state.apply(recorded.seat, recorded.action).ok()?;
            }
            let last = &record.actions[step - 1];
            action = Some(format!("{}: {}", last.seat, last.action));
        }
        let lines = events.iter().map(G::event_line).collect();
        // A seat the match has not is not a position (`table` would draw a spectator's).
        if self.1.seat().is_some_and(|seat| seat.0 >= state.players()) {
            return None;
        }
        Some(Position { step, action, table: state.table(self.1), lines })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardroom_games::{Seat, twenty_two};

    fn played() -> AnyRecord {
        let mut state = twenty_two::State::new(twenty_two::Options::default(), 3, 7).unwrap();
        while let Some(seat) = state.to_act() {
            let action = state.legal_actions()[0];
            state.apply(seat, action).unwrap();
        }
        twenty_two::State::into_any_record(state.record().unwrap())
    }

    #[test]
    fn a_position_is_the_record_replayed_to_its_step() {
        let record = played();
        let AnyRecord::TwentyTwo(tt) = &record else { unreachable!() };
        let replay = steps(&record);
        assert_eq!(replay.steps.len(), tt.actions.len() + 1);
        assert!(replay.places.is_some() && replay.error.is_none());
        for step in [0, 1, tt.actions.len()] {
            let at = position(&record, step, Perspective::Everyone).unwrap();
            assert_eq!(at.step, step);
            assert_eq!(at.action, replay.steps[step].action);
            assert_eq!(at.table.seats.len(), 3);
            assert!(at.table.seats.iter().all(|s| s.hand.hidden == 0), "every hand face up");
            let said: Vec<String> = at.lines.iter().map(ToString::to_string).collect();
            assert_eq!(said, replay.steps[step].events);
        }
        let mut state = tt.initial_state().unwrap();
        for a in &tt.actions[..5] {
            state.apply(a.seat, a.action).unwrap();
        }
        let at = |step, perspective| position(&record, step, perspective);
        assert_eq!(at(5, Perspective::Everyone).unwrap().table, state.table(Perspective::Everyone));
        let seat = Perspective::Seat(Seat(2));
        assert_eq!(at(5, seat).unwrap().table, state.table(seat));
        assert_eq!(at(5, Perspective::Seat(Seat(3))), None, "no such seat");
        assert_eq!(at(tt.actions.len() + 1, Perspective::Everyone), None);
    }

    #[test]
    fn a_comment_goes_with_its_actions_step() {
        let AnyRecord::TwentyTwo(mut tt) = played() else { unreachable!() };
        let comment =
            |action: usize, text: &str| cardroom_games::Comment { action, text: text.into() };
        tt.comments = vec![comment(0, "low cards first"), comment(4, "the trick is lost")];
        let replay = steps(&AnyRecord::TwentyTwo(tt));
        let said: Vec<(usize, &str)> = replay
            .steps
            .iter()
            .enumerate()
            .filter_map(|(i, step)| Some((i, step.comment.as_deref()?)))
            .collect();
        assert_eq!(
            said,
            [(1, "low cards first"), (5, "the trick is lost")],
            "step i + 1 is action i"
        );
    }

    #[test]
    fn the_steps_stop_before_an_illegal_action() {
        let AnyRecord::TwentyTwo(mut tt) = played() else { unreachable!() };
        let legal = tt.actions.len();
        let mut broken = tt.actions[0];
        broken.seat = Seat(9);
        tt.actions.insert(2, broken);
        let record = AnyRecord::TwentyTwo(tt);
        let replay = steps(&record);
        assert_eq!(replay.steps.len(), 3);
        assert!(replay.error.is_some() && replay.places.is_none());
        assert!(position(&record, 2, Perspective::Everyone).is_some());
        assert_eq!(position(&record, 3, Perspective::Everyone), None);
        assert_eq!(position(&record, legal, Perspective::Everyone), None);
    }
}

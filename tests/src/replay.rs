//! [`Replay`]: a finished match's record (`GetRecord`) replayed with the rules engine, every
//! state kept, so that a test can check what the server did against what the engine says.

use cardroom_games::{AnyRecord, Game, Seat, gin, holdem, twenty_two};
use cardroom_proto::pb;
use cardroom_sdk::PlayableGame;

/// Every action of a record and the seat that took it, in order.
pub type Actions<G> = Vec<(Seat, <G as Game>::Action)>;

/// A game whose records the tests replay, and its value on the wire.
pub trait ReplayGame: PlayableGame {
    /// The game on the wire.
    const PB: pb::Game;
}

impl ReplayGame for twenty_two::State {
    const PB: pb::Game = pb::Game::TwentyTwo;
}

impl ReplayGame for gin::State {
    const PB: pb::Game = pb::Game::GinRummy;
}

impl ReplayGame for holdem::State {
    const PB: pb::Game = pb::Game::Holdem;
}

/// The state a record of `G` starts from and its actions, in order; `None` for another game's
/// record or a start that is not valid.
fn start<G: Game>(record: AnyRecord) -> Option<(G, Actions<G>)> {
    let record = record.downcast::<G>()?;
    let actions = record.actions.iter().map(|a| (a.seat, a.action)).collect();
    Some((record.initial_state().ok()?, actions))
}

/// A record replayed step by step: `states[k]` is the match before action `k` (and
/// `states[actions.len()]` the match after the last), `events[k]` what action `k` told
/// everyone.
pub struct Replay<G: Game> {
    /// Every state, the start first.
    pub states: Vec<G>,
    /// Every action and the seat that took it.
    pub actions: Actions<G>,
    /// Each action's public events.
    pub events: Vec<Vec<G::Event>>,
}

impl<G: ReplayGame> Replay<G> {
    /// Replays a record's JSON.
    ///
    /// # Panics
    ///
    /// When the JSON is not a record of `G` or an action in it is illegal: the record does
    /// not replay.
    pub fn from_json(json: &str) -> Replay<G> {
        let record = AnyRecord::from_json(json).expect("the record is valid JSON");
        let (mut state, actions) = start::<G>(record)
            .unwrap_or_else(|| panic!("not a {} record: {json}", <G as Game>::NAME));
        let mut states = Vec::with_capacity(actions.len() + 1);
        let mut events = Vec::with_capacity(actions.len());
        for (index, &(seat, action)) in actions.iter().enumerate() {
            states.push(state.clone());
            let applied = state.apply(seat, action);
            events.push(applied.unwrap_or_else(|err| {
                panic!("action {index} ({seat}: {action}) of the record is illegal: {err}")
            }));
        }
        states.push(state);
        Replay { states, actions, events }
    }

    /// The match after the last action.
    pub fn last(&self) -> &G {
        self.states.last().expect("a replay holds at least its start")
    }

    /// The engine's final standings as `(seat, place)`, if the match is over.
    pub fn places(&self) -> Option<Vec<(u32, u32)>> {
        let standings = self.last().standings()?;
        Some(standings.iter().map(|s| (u32::from(s.seat.0), u32::from(s.place))).collect())
    }

    /// Whether action `k` was the first of the legal actions then (Twenty-Two's default
    /// action, docs/protocol.md).
    pub fn is_first_legal(&self, k: usize) -> bool {
        self.states[k].legal_actions().first() == Some(&self.actions[k].1)
    }
}

/// The standings of a match end as `(seat, place)`, first place first.
pub fn places(end: &pb::MatchEnd) -> Vec<(u32, u32)> {
    end.standings.iter().map(|s| (s.seat, s.place)).collect()
}

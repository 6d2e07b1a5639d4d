//! Gin Rummy, exactly as `docs/rules/gin-rummy.md` specifies it (GR-1 to GR-17 and every option).
//!
//! Two seats play hands until a total reaches the target (GR-13), or at most `max_hands` hands,
//! after which a match nobody has won ends drawn (GR-17). A hand goes: the first upcard
//! is offered ([`Action::TakeUpcard`], [`Action::PassUpcard`], GR-5); then each turn draws
//! ([`Action::DrawStock`], [`Action::DrawDiscard`]) and ends with [`Action::Discard`],
//! [`Action::Knock`] (with the arrangement the knocker chooses, GR-7), [`Action::Gin`] or
//! [`Action::BigGin`]. The defender's layout and layoffs are computed by the engine (GR-9), the
//! hand is scored (GR-12) and the next one is dealt, all inside the [`State::apply`] call that
//! ended the hand.
//!
//! ```
//! use cardroom_games::gin::{Action, Options, State};
//! let mut state = State::new(Options::default(), 7).unwrap();
//! let mut turns = 0;
//! while let Some(seat) = state.to_act() {
//!     let legal = state.legal_actions();
//!     // A very simple bot: go out when it can, otherwise the first legal action.
//!     let action = legal
//!         .iter()
//!         .copied()
//!         .find(|a| matches!(a, Action::Gin { .. } | Action::Knock { .. }))
//!         .unwrap_or(legal[0]);
//!     state.apply(seat, action).unwrap();
//!     turns += 1;
//! }
//! let outcome = state.outcome().unwrap();
//! assert!(outcome.totals.iter().any(|&t| t >= 100));
//! assert!(turns > 0);
//! // Why it ended, citing the rule; the record says the same.
//! let reason = state.end_reason().unwrap();
//! assert!(reason.starts_with("GR-13: seat "), "{reason}");
//! assert_eq!(state.record().termination, Some(reason));
//! ```
//!
//! The [`solver`] is exact and public: minimum deadwood with every optimal arrangement, the
//! 11-card knock check as the minimum over all discards (GR-3), every arrangement a knocker may
//! lay, and the defender's best layout.
//!
//! # Records
//!
//! A [`Record`] replays a match exactly. In JSON (inside a `crate::Record`, which adds
//! `"game": "gin"`):
//!
//! ```json
//! {
//!   "options": { "knock_limit": 10, "big_gin": true },
//!   "seed": 42,
//!   "actions": [
//!     { "seat": 1, "action": "pass_upcard" },
//!     { "seat": 0, "action": "take_upcard" },
//!     { "seat": 0, "action": { "discard": "KD" } },
//!     { "seat": 1, "action": "draw_stock" },
//!     { "seat": 1, "action": { "knock": { "discard": "9H",
//!         "melds": [["AS", "2S", "3S"], ["5C", "5D", "5H"], ["7D", "8D", "9D", "TD"]] } } },
//!     { "seat": 0, "action": { "gin": { "discard": "QC" } } },
//!     { "seat": 1, "action": "big_gin" }
//!   ]
//! }
//! ```
//!
//! `options` may leave out any field. Instead of `"seed"`, a record may start from `"setup"`,
//! an explicit [`Setup`] (`dealer`, `hands`, `discard_pile` bottom first, `stock` top first,
//! and optionally `scores`, `hands_won`, `hand_number`, `seed`). Cards are written `AS`, `TH`,
//! `2C`; a meld is a list of cards, and melds are checked (GR-2) and put in canonical form
//! (touching runs of one suit merged) when read.
//!
//! # Knock actions
//!
//! [`State::legal_actions`] lists a knock for every legal discard and every arrangement within
//! the limit, including arrangements that leave meldable cards out (the rules let the knocker
//! lay any arrangement within the limit, GR-7). Arrangements are canonical: a run is never
//! listed split in two, because splitting a run never changes what the defender can lay off
//! (GR-9). A knock whose arrangement has no deadwood is [`Action::Gin`] instead. The list stays
//! small: about 250 knocks for the densest 11-card hands (`A♠ A♥ A♣ A♦ 2♠ 2♥ 2♣ 2♦ 3♠ 3♥ 3♣`),
//! usually a handful, and none when the knock check fails (the usual case, found in tens of
//! nanoseconds).
//!
//! # Choices where the rules leave room
//!
//! - GR-10: with `wall_knock`, the player at the wall may take the upcard only if they can then
//!   knock or go gin with it ([`Phase::Wall`]), and must then do so; [`Action::PassUpcard`]
//!   declines and the hand is a draw.
//! - GR-11: the upcard limit is checked after an ordinary discard, so the player who takes the
//!   upcard for the last allowed time may still knock.
//! - GR-13: box bonuses go to each seat for its hands won; the game bonus and the shutout
//!   doubling go to the seat that reached the target; the winner is the higher final total.
//! - GR-14: with `oklahoma` the upcard's value replaces `knock_limit` for the hand.
//! - GR-17: a match drawn at the hand limit has no winner whatever the scores, and its totals
//!   are the hand points alone: the classic bonuses go with reaching the target (GR-13).

mod action;
mod cardset;
mod default_action;
mod display;
mod error;
mod legal;
mod options;
mod record;
mod sample;
#[cfg(feature = "schema")]
mod schema;
mod setup;
pub mod solver;
mod state;
mod table;
mod view;

pub use action::Action;
pub use cardset::{CardSet, Iter as CardSetIter, ParseCardSetError};
pub use error::{IllegalAction, SetupError};
pub use options::{BOX_BONUS, FirstUpcard, GAME_BONUS, MAX_POINTS, Options, OptionsError};
pub use record::{Record, RecordedAction, ReplayError, Start};
pub use setup::Setup;
pub use solver::{Arrangement, Layout};
pub use state::{HAND_SIZE, State, WALL};
pub use view::{
    Event, GoOut, HandEnd, HandResult, Observation, Outcome, Phase, PileCard, PublicView, Showdown,
};

impl crate::game::RuleError for IllegalAction {
    fn rule(&self) -> &'static str {
        IllegalAction::rule(self)
    }
}

impl crate::game::Game for State {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Observation = Observation;
    type PublicView = PublicView;
    type Error = IllegalAction;
    type CreateError = SetupError;
    type SetupError = SetupError;
    type SampleError = SetupError;

    const KIND: crate::GameKind = crate::GameKind::Gin;

    /// GR-1: two players, whatever the options.
    fn seats(_: &Options) -> std::ops::RangeInclusive<u8> {
        2..=2
    }

    /// [`State::new`] for a table of two (GR-1); any other count is refused.
    fn new(options: Options, players: u8, seed: u64) -> Result<State, SetupError> {
        if players != 2 {
            return Err(SetupError::Players(players));
        }
        State::new(options, seed)
    }

    fn from_setup(options: Options, setup: Setup) -> Result<State, SetupError> {
        State::from_setup(options, setup)
    }

    fn options(&self) -> &Options {
        State::options(self)
    }

    fn players(&self) -> u8 {
        2
    }

    fn to_act(&self) -> Option<crate::Seat> {
        State::to_act(self)
    }

    fn legal_actions(&self) -> Vec<Action> {
        State::legal_actions(self)
    }

    fn apply_into(
        &mut self,
        seat: crate::Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        State::apply_into(self, seat, action, events)
    }

    fn observation(&self, seat: crate::Seat) -> Observation {
        State::observation(self, seat)
    }

    fn observation_into(&self, seat: crate::Seat, observation: &mut Observation) {
        State::observation_into(self, seat, observation);
    }

    fn public_view(&self) -> PublicView {
        State::public_view(self)
    }

    /// The deal of the current hand, as seen at its start (GR-4).
    fn opening_events(&self) -> Vec<Event> {
        let view = self.public_view();
        view.discard_pile
            .first()
            .map(|first| Event::HandDealt {
                hand_number: view.hand_number,
                dealer: view.dealer,
                upcard: first.card,
                knock_limit: view.knock_limit,
                multiplier: view.multiplier,
            })
            .into_iter()
            .collect()
    }

    /// GR-15: each hand face down but for the cards taken from the discard pile.
    fn public_table(view: &PublicView) -> crate::Table {
        table::public(view)
    }

    /// GR-16: the seat's own hand face up, melds first, with its deadwood (GR-2, GR-3).
    fn seat_table(observation: &Observation) -> crate::Table {
        table::seat(observation)
    }

    fn event_line(event: &Event) -> crate::Line {
        table::event_line(event)
    }

    fn standings(&self) -> Option<Vec<crate::Standing>> {
        self.outcome().map(|outcome| outcome.standings.clone())
    }

    /// GR-13 (a seat reached the target) or GR-17 (the last hand was played, drawn).
    fn end_reason(&self) -> Option<String> {
        State::end_reason(self)
    }

    fn record(&self) -> Option<Record> {
        (!self.is_sampled()).then(|| State::record(self))
    }

    fn default_action(&self) -> Option<Action> {
        State::default_action(self)
    }

    /// A forfeit ends the match at once: the opponent wins (a two-player game has nobody left
    /// to play for).
    fn forfeit_ends_match() -> bool {
        true
    }

    #[cfg(feature = "schema")]
    fn schemas() -> Vec<crate::schema::SchemaFile> {
        crate::schema::forms::<State>("gin")
    }

    fn sample<R: rand::Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<State, SetupError> {
        State::sample_from_observation(observation, rng)
    }

    fn into_any_record(record: Record) -> crate::AnyRecord {
        crate::AnyRecord::Gin(record)
    }

    fn from_any_record(record: crate::AnyRecord) -> Option<Record> {
        match record {
            crate::AnyRecord::Gin(record) => Some(record),
            _ => None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_small() {
        assert!(std::mem::size_of::<Action>() <= 32, "{}", std::mem::size_of::<Action>());
        assert_eq!(std::mem::size_of::<CardSet>(), 8);
        assert_eq!(std::mem::size_of::<Arrangement>(), 24);
    }
}

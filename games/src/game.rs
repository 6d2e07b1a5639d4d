//! [`Game`]: the shape every engine shares, so that the server, the bots and the arena are
//! written once for every game: construction (seeded, or from a checked setup, in the manner of
//! shakmaty's `FromSetup`), typed options that describe themselves, play, views, the record and
//! the timeout policy.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::RangeInclusive;

use rand::Rng;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::catalogue::AnyRecord;
use crate::catalogue::GameKind;
use crate::options::{GameOptions, OptionSpec};
use crate::record::Record;
use crate::seat::{Seat, Standing};
use crate::table::{Line, Perspective, Table};

/// An illegal action that knows the rule it breaks.
pub trait RuleError: std::error::Error + Clone + PartialEq + Send + Sync + 'static {
    /// The id of the broken rule, such as `"TT-12"` or `"GR-6"`.
    fn rule(&self) -> &'static str;
}

/// One game's match state, as the rest of cardroom sees it. Each game's `State` implements it
/// by forwarding to its inherent methods, which document the details.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The rule-set options: typed, `Default` the rules' defaults, described by
    /// [`GameOptions::describe`].
    type Options: GameOptions;
    /// An explicit position, not necessarily legal, with public fields: it becomes a match only
    /// through [`Game::from_setup`], which checks it.
    type Setup: Clone + Debug + PartialEq + Eq + Hash + Serialize + DeserializeOwned + Send + Sync;
    /// A seat's move: small, `Copy`, ordered as the legal list is.
    type Action: Copy
        + Eq
        + Ord
        + Hash
        + Debug
        + Display
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// A public event. It reads back from its JSON, as a spectator receives it.
    type Event: Clone + Debug + Display + Serialize + DeserializeOwned + Send + Sync;
    /// What one seat may see.
    type Observation: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What spectators see. It reads back from its JSON, as a spectator receives it.
    type PublicView: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// Why an action is refused.
    type Error: RuleError;
    /// Why a seeded match cannot be created ([`Game::new`]): options that cannot be played, or
    /// a table size they do not allow. The message names the rule.
    type CreateError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// Why a setup is not a valid position ([`Game::from_setup`]). The message names the rule.
    type SetupError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// Why an observation cannot be sampled from ([`Game::sample`]): it is not one the engine
    /// could have produced.
    type SampleError: std::error::Error + Send + Sync + 'static;

    /// The game in the catalogue.
    const KIND: GameKind;
    /// The game's name in records and on the wire: `twenty_two`, `gin` ([`GameKind::name`]).
    const NAME: &'static str = Self::KIND.name();

    /// The seats a table may have with `options` (the same range `ListGames` publishes for
    /// the default options); [`Game::new`] refuses any other count.
    fn seats(options: &Self::Options) -> RangeInclusive<u8>;

    /// The option table: every option with its description and default.
    fn describe_options() -> Vec<OptionSpec> {
        Self::Options::describe()
    }

    /// A new match of `players` seats, dealt from `seed` (ChaCha8). Refuses options that
    /// cannot be played and seat counts outside [`Game::seats`], naming the rule.
    fn new(options: Self::Options, players: u8, seed: u64) -> Result<Self, Self::CreateError>;

    /// A match from an explicit position, checked: the one way a [`Game::Setup`] becomes a
    /// match.
    fn from_setup(options: Self::Options, setup: Self::Setup) -> Result<Self, Self::SetupError>;

    /// The match's options.
    fn options(&self) -> &Self::Options;
    /// Seats at the table.
    fn players(&self) -> u8;
    /// The seat to act, `None` once the match is over.
    fn to_act(&self) -> Option<Seat>;
    /// The legal actions of the seat to act, sorted and distinct; empty only at the end.
    fn legal_actions(&self) -> Vec<Self::Action>;
    /// Applies an action and returns the events it caused; on error nothing changes.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, Self::Error> {
        collect_events(|events| self.apply_into(seat, action, events))
    }
    /// [`Game::apply`], the events appended to `events`: a caller that applies many actions (a
    /// server's match, a search's playouts) keeps one list and allocates none an action. On
    /// error nothing changes, `events` included.
    fn apply_into(
        &mut self,
        seat: Seat,
        action: Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error>;
    /// What `seat` may see now.
    fn observation(&self, seat: Seat) -> Self::Observation;
    /// [`Game::observation`] written over `observation`, whose lists may keep their
    /// allocations: a caller that observes every decision (a server's match) keeps one. The
    /// default builds a new one; both games' write in place, allocating only as a list grows.
    fn observation_into(&self, seat: Seat, observation: &mut Self::Observation) {
        *observation = self.observation(seat);
    }
    /// What spectators see now.
    fn public_view(&self) -> Self::PublicView;
    /// The events of the match's start (dealer draw, first deal).
    fn opening_events(&self) -> Vec<Self::Event>;

    /// The table as a spectator sees it, from the public view alone ([`Table`]): every
    /// hand face down but for what the rules make public. How a live match is drawn.
    fn public_table(view: &Self::PublicView) -> Table;
    /// The table as the observation's seat sees it: the public table with that seat's own
    /// cards face up, and what it alone knows of them.
    fn seat_table(observation: &Self::Observation) -> Table;
    /// The table now, as `perspective` sees it: [`Game::public_table`] of the public view,
    /// [`Game::seat_table`] of a seat's observation, or, for [`Perspective::Everyone`], the
    /// public table with each seat as that seat sees itself (a finished match's replay). A seat
    /// the match does not have sees what a spectator sees.
    fn table(&self, perspective: Perspective) -> Table {
        match perspective {
            Perspective::Seat(seat) if seat.0 < self.players() => {
                Self::seat_table(&self.observation(seat))
            }
            Perspective::Spectator | Perspective::Seat(_) => {
                Self::public_table(&self.public_view())
            }
            Perspective::Everyone => {
                let mut table = Self::public_table(&self.public_view());
                for (index, slot) in table.seats.iter_mut().enumerate() {
                    let Ok(seat) = u8::try_from(index) else { break };
                    let own = Self::seat_table(&self.observation(Seat(seat)));
                    if let Some(row) = own.seats.into_iter().nth(index) {
                        *slot = row;
                    }
                }
                table.perspective = Perspective::Everyone;
                table
            }
        }
    }
    /// What an event did, in one line for people: the same words as its [`Display`], with
    /// its seats and cards as such.
    fn event_line(event: &Self::Event) -> Line;
    /// Final standings once the match is over, one a seat, best first (sorted by place, then
    /// seat): the server ranks forfeits after them in this order.
    fn standings(&self) -> Option<Vec<Standing>>;
    /// Why the match ended, in a sentence that starts with the id of the rule that ended it
    /// (`"GR-13: seat 0 reached the target of 100 points"`); `None` while it runs. Only the
    /// rules end a match here: a match ended from outside them (a forfeit, an abort) has the
    /// reason of whoever ended it. [`Game::record`] writes it as the record's
    /// [`termination`](Record::termination); the server sends it as `MatchEnd.reason`.
    fn end_reason(&self) -> Option<String>;
    /// The match's record so far, `None` for a sampled state.
    fn record(&self) -> Option<Record<Self>>;

    /// The action played for the seat to act when its time runs out or after it forfeited
    /// (docs/protocol.md, "Clocks, strikes and the default action"): a legal action chosen by
    /// rules alone, never one that takes a risk the seat could decline. `None` once the match
    /// is over. Each game's `State::default_action` documents its policy with rule ids.
    fn default_action(&self) -> Option<Self::Action>;

    /// Whether a forfeit ends the match at once (Gin Rummy: the opponent wins) rather than
    /// [`Game::default_action`] playing the forfeited seat to the end (Twenty-Two, at any table
    /// size); docs/protocol.md, "Clocks, strikes and the default action".
    fn forfeit_ends_match() -> bool;

    /// The JSON Schema of this game's serialized forms (feature `schema`), one per
    /// [`Form`](crate::schema::Form): each game lists its own, most with
    /// [`schema::forms`](crate::schema::forms), so that the shared schema code names no game.
    #[cfg(feature = "schema")]
    fn schemas() -> Vec<crate::schema::SchemaFile>;

    /// A full state that the observing seat cannot tell from the one it observed
    /// (`sample(o)?.observation(o.seat) == o`): the public state and the seat's own cards are
    /// copied, and every card the seat cannot see is dealt uniformly at random into the
    /// places it cannot see (the other hands, their hidden discards, the stock), in the
    /// numbers the observation shows; later deals use a fresh RNG drawn from `rng`. Nothing is
    /// inferred from the other seats' play. Search bots sample these (determinization); each
    /// game's `sample_from_observation` documents the details.
    fn sample<R: Rng + ?Sized>(
        observation: &Self::Observation,
        rng: &mut R,
    ) -> Result<Self, Self::SampleError>;

    /// The catalogue's plumbing: this game's record as a record of any game.
    fn into_any_record(record: Record<Self>) -> AnyRecord;
    /// The catalogue's plumbing: the record of this game inside `record`, `None` for another
    /// game's.
    fn from_any_record(record: AnyRecord) -> Option<Record<Self>>;
}

/// The events an `apply_into` appends, as a list of their own: how an engine's `apply` is
/// written from its `apply_into` (an action causes one or two events, rarely more).
pub(crate) fn collect_events<E, Error>(
    apply_into: impl FnOnce(&mut Vec<E>) -> Result<(), Error>,
) -> Result<Vec<E>, Error> {
    let mut events = Vec::with_capacity(2);
    apply_into(&mut events)?;
    Ok(events)
}

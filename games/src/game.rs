//! [`Game`]: the shape every engine shares, so that the server, the bots and the arena are
//! written once for every game.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use rand::Rng;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::record::Record;
use crate::seat::{Seat, Standing};

/// An illegal action that knows the rule it breaks.
pub trait RuleError: std::error::Error + Clone + Send + Sync + 'static {
    /// The id of the broken rule, such as `"TT-12"` or `"GR-6"`.
    fn rule(&self) -> &'static str;
}

/// One game's match state, as the rest of cardroom sees it. Each game's `State` implements it
/// by forwarding to its inherent methods, which document the details.
pub trait Game: Clone + Debug + Send + Sync + 'static {
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
    /// A public event.
    type Event: Clone + Debug + Display + Serialize + Send + Sync;
    /// What one seat may see.
    type Observation: Clone + Debug + PartialEq + Serialize + Send + Sync;
    /// What spectators see.
    type PublicView: Clone + Debug + PartialEq + Serialize + Send + Sync;
    /// Why an action is refused.
    type Error: RuleError;
    /// Why an observation cannot be sampled from ([`Game::sample`]): it is not one the engine
    /// could have produced.
    type SampleError: std::error::Error + Send + Sync + 'static;

    /// The game's name in records and on the wire: `twenty_two`, `gin`.
    const NAME: &'static str;

    /// Seats at the table.
    fn players(&self) -> u8;
    /// The seat to act, `None` once the match is over.
    fn to_act(&self) -> Option<Seat>;
    /// The legal actions of the seat to act, sorted and distinct; empty only at the end.
    fn legal_actions(&self) -> Vec<Self::Action>;
    /// Applies an action; on error nothing changes.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, Self::Error>;
    /// What `seat` may see now.
    fn observation(&self, seat: Seat) -> Self::Observation;
    /// What spectators see now.
    fn public_view(&self) -> Self::PublicView;
    /// The events of the match's start (dealer draw, first deal).
    fn opening_events(&self) -> Vec<Self::Event>;
    /// Final standings once the match is over.
    fn standings(&self) -> Option<Vec<Standing>>;
    /// The match's record so far, `None` for a sampled state.
    fn record(&self) -> Option<Record>;

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
}

impl RuleError for crate::gin::IllegalAction {
    fn rule(&self) -> &'static str {
        crate::gin::IllegalAction::rule(self)
    }
}

impl Game for crate::gin::State {
    type Action = crate::gin::Action;
    type Event = crate::gin::Event;
    type Observation = crate::gin::Observation;
    type PublicView = crate::gin::PublicView;
    type Error = crate::gin::IllegalAction;
    type SampleError = crate::gin::SetupError;

    const NAME: &'static str = "gin";

    fn players(&self) -> u8 {
        2
    }

    fn to_act(&self) -> Option<Seat> {
        crate::gin::State::to_act(self)
    }

    fn legal_actions(&self) -> Vec<Self::Action> {
        crate::gin::State::legal_actions(self)
    }

    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, Self::Error> {
        crate::gin::State::apply(self, seat, action)
    }

    fn observation(&self, seat: Seat) -> Self::Observation {
        crate::gin::State::observation(self, seat)
    }

    fn public_view(&self) -> Self::PublicView {
        crate::gin::State::public_view(self)
    }

    /// The deal of the current hand, as seen at its start (GR-4).
    fn opening_events(&self) -> Vec<Self::Event> {
        let view = self.public_view();
        view.discard_pile
            .first()
            .map(|first| crate::gin::Event::HandDealt {
                hand_number: view.hand_number,
                dealer: view.dealer,
                upcard: first.card,
                knock_limit: view.knock_limit,
                multiplier: view.multiplier,
            })
            .into_iter()
            .collect()
    }

    fn standings(&self) -> Option<Vec<Standing>> {
        self.outcome().map(|outcome| outcome.standings.clone())
    }

    fn record(&self) -> Option<Record> {
        (!self.is_sampled()).then(|| Record::Gin(crate::gin::State::record(self)))
    }

    fn sample<R: Rng + ?Sized>(
        observation: &Self::Observation,
        rng: &mut R,
    ) -> Result<Self, Self::SampleError> {
        crate::gin::State::sample_from_observation(observation, rng)
    }
}

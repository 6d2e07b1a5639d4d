//! [`PlayableGame`]: what the SDK needs of an engine beyond [`Game`]: reading observations from
//! the wire's JSON, the legal actions inside an observation, and actions on the wire.

use cardroom_games::{Card, Game, Seat, Suit, gin, twenty_two};
use cardroom_proto::pb;

use crate::bot::GameKind;

/// A game bots can play through this SDK: Twenty-Two ([`twenty_two::State`]) and Gin Rummy
/// ([`gin::State`]). Implemented for both; a bot is written as `impl Bot<twenty_two::State>`
/// or, for any game, `impl<G: PlayableGame> Bot<G>`.
pub trait PlayableGame: Game {
    /// Which game this is.
    const KIND: GameKind;

    /// The legal actions inside an observation, sorted as the engine sorts them; empty unless
    /// the observing seat is to act.
    fn legal_actions_of(observation: &Self::Observation) -> &[Self::Action];

    /// The seat an observation belongs to.
    fn observer(observation: &Self::Observation) -> Seat;

    /// An observation from the engine's JSON form (`Observation.json` on the wire).
    fn parse_observation(json: &str) -> Result<Self::Observation, serde_json::Error>;

    /// The match's options as a JSON object, every field included.
    fn options_json(&self) -> String;

    /// An action on the wire, exactly as the server writes its legal actions.
    fn action_to_pb(action: &Self::Action) -> pb::Action;
}

/// A card on the wire.
fn card_to_pb(card: Card) -> pb::Card {
    let suit = match card.suit() {
        Suit::Clubs => pb::Suit::Clubs,
        Suit::Diamonds => pb::Suit::Diamonds,
        Suit::Hearts => pb::Suit::Hearts,
        Suit::Spades => pb::Suit::Spades,
    };
    pb::Card { rank: card.rank() as i32, suit: suit as i32 }
}

fn cards_to_pb(cards: impl IntoIterator<Item = Card>) -> pb::Cards {
    pb::Cards { cards: cards.into_iter().map(card_to_pb).collect() }
}

impl PlayableGame for twenty_two::State {
    const KIND: GameKind = GameKind::TwentyTwo;

    fn legal_actions_of(observation: &twenty_two::Observation) -> &[twenty_two::Action] {
        &observation.legal_actions
    }

    fn observer(observation: &twenty_two::Observation) -> Seat {
        observation.seat
    }

    fn parse_observation(json: &str) -> Result<twenty_two::Observation, serde_json::Error> {
        serde_json::from_str(json)
    }

    fn options_json(&self) -> String {
        serde_json::to_string(self.options()).unwrap_or_default()
    }

    fn action_to_pb(action: &twenty_two::Action) -> pb::Action {
        use pb::twenty_two_action::Action as Pb;
        let action = match action {
            twenty_two::Action::Exchange(cards) => {
                Pb::Exchange(cards_to_pb(cards.as_slice().iter().copied()))
            }
            twenty_two::Action::Play(cards) => {
                Pb::Play(cards_to_pb(cards.as_slice().iter().copied()))
            }
        };
        pb::Action {
            game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction { action: Some(action) })),
        }
    }
}

impl PlayableGame for gin::State {
    const KIND: GameKind = GameKind::Gin;

    fn legal_actions_of(observation: &gin::Observation) -> &[gin::Action] {
        &observation.legal_actions
    }

    fn observer(observation: &gin::Observation) -> Seat {
        observation.seat
    }

    fn parse_observation(json: &str) -> Result<gin::Observation, serde_json::Error> {
        serde_json::from_str(json)
    }

    fn options_json(&self) -> String {
        serde_json::to_string(self.options()).unwrap_or_default()
    }

    fn action_to_pb(action: &gin::Action) -> pb::Action {
        use pb::gin_action::{Action as Pb, Empty};
        let action = match *action {
            gin::Action::TakeUpcard => Pb::TakeUpcard(Empty {}),
            gin::Action::PassUpcard => Pb::PassUpcard(Empty {}),
            gin::Action::DrawStock => Pb::DrawStock(Empty {}),
            gin::Action::DrawDiscard => Pb::DrawDiscard(Empty {}),
            gin::Action::Discard(card) => Pb::Discard(card_to_pb(card)),
            gin::Action::Knock { discard, melds } => Pb::Knock(pb::gin_action::Knock {
                discard: Some(card_to_pb(discard)),
                melds: melds.melds().map(cards_to_pb).collect(),
            }),
            gin::Action::Gin { discard } => Pb::Gin(card_to_pb(discard)),
            gin::Action::BigGin => Pb::BigGin(Empty {}),
        };
        pb::Action { game: Some(pb::action::Game::Gin(pb::GinAction { action: Some(action) })) }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn observations_round_trip_through_json() {
        let state = twenty_two::State::new(twenty_two::Options::default(), 3, 5).unwrap();
        let seat = state.to_act().unwrap();
        let observation = state.observation(seat);
        let json = serde_json::to_string(&observation).unwrap();
        assert_eq!(twenty_two::State::parse_observation(&json).unwrap(), observation);
        assert!(!twenty_two::State::legal_actions_of(&observation).is_empty());

        let state = gin::State::new(gin::Options::default(), 5).unwrap();
        let seat = state.to_act().unwrap();
        let observation = state.observation(seat);
        let json = serde_json::to_string(&observation).unwrap();
        assert_eq!(gin::State::parse_observation(&json).unwrap(), observation);
        assert_eq!(gin::State::observer(&observation), seat);
    }

    #[test]
    fn cards_go_on_the_wire_with_ace_high_ranks() {
        let card: Card = "AS".parse().unwrap();
        assert_eq!(card_to_pb(card), pb::Card { rank: 14, suit: pb::Suit::Spades as i32 });
        let card: Card = "2C".parse().unwrap();
        assert_eq!(card_to_pb(card), pb::Card { rank: 2, suit: pb::Suit::Clubs as i32 });
    }
}

//! [`PlayableGame`]: a game bots can play through this SDK, which is any game with conversions
//! to the wire ([`WireGame`], shared with the server in `cardroom_proto::wire`).

use cardroom_proto::wire::WireGame;

/// A game bots can play through this SDK: every [`WireGame`] (Twenty-Two and Gin Rummy today,
/// listed in the catalogue, [`cardroom_games::GameKind`]). A bot is written as
/// `impl Bot<twenty_two::State>` or, for any game, `impl<G: PlayableGame> Bot<G>`.
///
/// Reading observations from the wire's typed view (or its JSON), the legal actions inside an
/// observation and actions on the wire are [`WireGame`]'s, the one conversion layer the server uses too; which
/// game it is is [`cardroom_games::Game::KIND`].
pub trait PlayableGame: WireGame {}

impl<G: WireGame> PlayableGame for G {}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::{Card, Game, gin, twenty_two};
    use cardroom_proto::pb;
    use cardroom_proto::wire::{card_to_pb, game_to_pb};

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

    #[test]
    fn each_game_kind_is_its_game_on_the_wire() {
        assert_eq!(game_to_pb(<twenty_two::State as Game>::KIND), twenty_two::State::PB);
        assert_eq!(game_to_pb(<gin::State as Game>::KIND), gin::State::PB);
        assert_eq!(<twenty_two::State as Game>::KIND.name(), <twenty_two::State as Game>::NAME);
        assert_eq!(<gin::State as Game>::KIND.name(), <gin::State as Game>::NAME);
    }
}

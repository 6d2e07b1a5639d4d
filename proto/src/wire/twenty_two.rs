//! Twenty-Two on the wire: [`WireGame`] for the engine's [`State`].
//!
//! An action is `TwentyTwoAction` with `exchange` or `play` and its cards; the cards are a
//! multiset (several packs may hold equal cards) in any order, sorted when read. An observation
//! fills `TwentyTwoObservation` with the seat's hand and exchange discards and the public view;
//! its `json` field holds the engine's [`Observation`] with every detail (legal actions, cards
//! won in the elimination variant, the last deal's result, the dealer draw). The server and the
//! SDK write and read an observation's bytes without prost's tree (`twenty_two_bytes.rs`),
//! checked by the same code as the tree ([`TypedView`]).

use super::WireError;
use cardroom_games::Seat;
use cardroom_games::twenty_two::{
    Action, Cards, DealResult, MAX_HAND, MAX_PLAYERS, Observation, Options, PhaseView, Play,
    PublicSeat, PublicView, SeatCard, State, TieBreak, TooManyCards, Trick,
};

use super::{
    CardList, WireGame, byte, card_from_pb, card_to_pb, cards_from_pb, cards_to_codes, cards_to_pb,
    count, legal_actions_from_pb, not_an_action_of, rank_from_pb, seat_from_pb, seat_to_pb,
    seats_from_pb, size, standing_from_pb, standing_to_pb,
};
use crate::pb;

// The observation's bytes written by hand, without prost's typed tree
// (`WireGame::encode_observation`).
#[path = "twenty_two_bytes.rs"]
mod twenty_two_bytes;

impl WireGame for State {
    const PB: pb::Game = pb::Game::TwentyTwo;

    /// A match of `seats` players (TT-4: 2 to 12, up to 16 with four packs) from options as a
    /// JSON object (empty for the defaults; unknown fields are refused).
    fn create(options_json: &str, seats: u32, seed: u64) -> Result<State, WireError> {
        let options = State::options_from_json(options_json)?;
        let players = u8::try_from(seats).map_err(|_| {
            WireError::Rule(format!(
                "TT-4: {seats} players cannot play; a table has at most {MAX_PLAYERS} players"
            ))
        })?;
        State::new(options, players, seed).map_err(WireError::rule)
    }

    fn action_to_pb(action: &Action) -> pb::Action {
        let action = match action {
            Action::Exchange(cards) => pb::twenty_two_action::Action::Exchange(to_pb(cards)),
            Action::Play(cards) => pb::twenty_two_action::Action::Play(to_pb(cards)),
        };
        pb::Action {
            game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction { action: Some(action) })),
        }
    }

    fn action_from_pb(action: &pb::Action) -> Result<Action, WireError> {
        match &action.game {
            Some(pb::action::Game::TwentyTwo(action)) => match &action.action {
                Some(pb::twenty_two_action::Action::Exchange(cards)) => {
                    Ok(Action::Exchange(hand_from_pb(&cards.cards, "the cards to exchange")?))
                }
                Some(pb::twenty_two_action::Action::Play(cards)) => {
                    Ok(Action::Play(hand_from_pb(&cards.cards, "the cards to play")?))
                }
                None => Err(WireError::Incomplete(
                    "the Twenty-Two action is empty: set `exchange` or `play`",
                )),
            },
            _ => Err(not_an_action_of::<State>(action)),
        }
    }

    fn legal_actions_of(observation: &Observation) -> &[Action] {
        &observation.legal_actions
    }

    fn fill_legal_actions(observation: &mut Observation) {
        observation.legal_actions = observation.compute_legal_actions();
    }

    fn observer(observation: &Observation) -> Seat {
        observation.seat
    }

    fn observation_to_pb(observation: &Observation, omit: &pb::Omit) -> pb::Observation {
        super::observation_to_pb(observation, observation.seat, omit, || {
            pb::observation::Game::TwentyTwo(typed(observation, omit.cards))
        })
    }

    fn observation_from_pb(
        observation: &pb::Observation,
        legal_actions: &[pb::LegalAction],
        options: &Options,
    ) -> Result<Observation, WireError> {
        let Some(pb::observation::Game::TwentyTwo(typed)) = &observation.game else {
            return Err(WireError::Incomplete(NO_TWENTY_TWO_VIEW));
        };
        observation_from_view(observation.seat, &TypedView::of(typed), legal_actions, options)
    }

    /// Written field by field from the observation (`twenty_two_bytes.rs`): prost's bytes
    /// without its typed tree.
    fn encode_observation(observation: &Observation, omit: &pb::Omit, buf: &mut Vec<u8>) {
        twenty_two_bytes::encode(observation, omit, buf);
    }

    /// Read field by field into the engine's observation (`twenty_two_bytes.rs`), checked by
    /// the same code as [`WireGame::observation_from_pb`]; bytes it leaves to prost (malformed
    /// ones, or a form no server sends) are read as the default does.
    fn decode_observation(
        bytes: &[u8],
        legal_actions: &[pb::LegalAction],
        options: &Options,
    ) -> Result<Observation, WireError> {
        twenty_two_bytes::decode(bytes, legal_actions, options)
    }
}

/// The error for an observation without the Twenty-Two view.
const NO_TWENTY_TWO_VIEW: &str =
    "the observation has no Twenty-Two view (`Observation.twenty_two`)";

/// A seat's typed view as its two readers hold it: prost's `TwentyTwoObservation`
/// ([`TypedView::of`]), or the fields `twenty_two_bytes.rs` reads in place from the bytes. Both
/// rebuild the engine's observation with [`observation_from_view`], so they accept and refuse
/// the same views with the same words. `S`, `T` and `R` are a reader's seats, tricks and
/// dealer draw rounds.
struct TypedView<'a, S, T, R> {
    hand: &'a [pb::Card],
    hand_codes: &'a [u8],
    discards: &'a [pb::Card],
    public: Option<PublicFields<'a, S, T, R>>,
}

/// The public view as its two readers hold it (see [`TypedView`]).
struct PublicFields<'a, S, T, R> {
    deal: u32,
    dealer: u32,
    cards_dealt: u32,
    stock_size: u32,
    packs: u32,
    seats: &'a [S],
    /// The phase's number, as sent (a number no phase has is read as unset, as prost's
    /// `phase()` reads it).
    phase: i32,
    to_act: Option<u32>,
    leader: Option<u32>,
    tricks: &'a [T],
    dealer_draw: &'a [R],
    last_deal: Option<DealView<'a>>,
    standings: Option<&'a [pb::Standing]>,
}

/// One seat of the public view as its two readers hold it (see [`TypedView`]).
struct SeatView<'a> {
    seat: u32,
    score: u32,
    penalty_pile: &'a [pb::Card],
    eliminated: bool,
    hand_size: u32,
    exchanged: Option<u32>,
    won: &'a [pb::Card],
}

/// A play of a trick as its two readers hold it (see [`TypedView`]).
struct PlayView<'a> {
    seat: u32,
    cards: &'a [pb::Card],
}

/// The previous deal's result as its two readers hold it (see [`TypedView`]).
struct DealView<'a> {
    deal: u32,
    revealed: &'a [pb::TwentyTwoSeatCard],
    rank: i32,
    losers: &'a [u32],
    tie_break: i32,
    eliminated: &'a [u32],
}

/// A seat of the public view, whichever reader holds it.
trait SeatSource {
    fn view(&self) -> SeatView<'_>;
}

/// A trick, whichever reader holds it.
trait TrickSource {
    fn plays(&self) -> impl Iterator<Item = PlayView<'_>>;
    fn strongest(&self) -> u32;
    fn winner(&self) -> Option<u32>;
}

impl SeatSource for pb::TwentyTwoSeat {
    fn view(&self) -> SeatView<'_> {
        SeatView {
            seat: self.seat,
            score: self.score,
            penalty_pile: &self.penalty_pile,
            eliminated: self.eliminated,
            hand_size: self.hand_size,
            exchanged: self.exchanged,
            won: &self.won,
        }
    }
}

impl TrickSource for pb::TwentyTwoTrick {
    fn plays(&self) -> impl Iterator<Item = PlayView<'_>> {
        self.plays.iter().map(|play| PlayView { seat: play.seat, cards: &play.cards })
    }

    fn strongest(&self) -> u32 {
        self.strongest
    }

    fn winner(&self) -> Option<u32> {
        self.winner
    }
}

/// A dealer draw round's cards, as the typed view (`TypedView`) reads them.
impl AsRef<[pb::TwentyTwoSeatCard]> for pb::TwentyTwoDrawRound {
    fn as_ref(&self) -> &[pb::TwentyTwoSeatCard] {
        &self.cards
    }
}

/// prost's decoded view.
type PbView<'a> = TypedView<'a, pb::TwentyTwoSeat, pb::TwentyTwoTrick, pb::TwentyTwoDrawRound>;

impl<'a> PbView<'a> {
    /// The view of prost's decoded `TwentyTwoObservation`.
    fn of(typed: &'a pb::TwentyTwoObservation) -> PbView<'a> {
        TypedView {
            hand: &typed.hand,
            hand_codes: &typed.hand_codes,
            discards: &typed.discards,
            public: typed.public.as_ref().map(|public| PublicFields {
                deal: public.deal,
                dealer: public.dealer,
                cards_dealt: public.cards_dealt,
                stock_size: public.stock_size,
                packs: public.packs,
                seats: &public.seats,
                phase: public.phase,
                to_act: public.to_act,
                leader: public.leader,
                tricks: &public.tricks,
                dealer_draw: &public.dealer_draw,
                last_deal: public.last_deal.as_ref().map(|result| DealView {
                    deal: result.deal,
                    revealed: &result.revealed,
                    rank: result.rank,
                    losers: &result.losers,
                    tie_break: result.tie_break,
                    eliminated: &result.eliminated,
                }),
                standings: public.standings.as_ref().map(|standings| &standings.standings[..]),
            }),
        }
    }
}

/// The engine's observation from either reader's view: `seat` is `Observation.seat`, the rest
/// as [`WireGame::observation_from_pb`] documents.
fn observation_from_view<S: SeatSource, T: TrickSource, R: AsRef<[pb::TwentyTwoSeatCard]>>(
    seat: u32,
    typed: &TypedView<'_, S, T, R>,
    legal_actions: &[pb::LegalAction],
    options: &Options,
) -> Result<Observation, WireError> {
    let public = typed
        .public
        .as_ref()
        .ok_or(WireError::Incomplete("the Twenty-Two view has no `public`"))?;
    Ok(Observation {
        seat: seat_from_pb(seat)?,
        hand: hand_from_list(CardList::of(typed.hand, typed.hand_codes, "hand")?, "the hand")?,
        discards: cards_from_pb(typed.discards)?,
        legal_actions: legal_actions_from_pb::<State>(legal_actions)?,
        public: public_from_view(public, *options)?,
    })
}

/// A seat's typed view; the hand as card codes when the connection asked for `codes`
/// (`Omit.cards`).
fn typed(observation: &Observation, codes: bool) -> pb::TwentyTwoObservation {
    let public = &observation.public;
    let hand = || observation.hand.as_slice().iter().copied();
    let (phase, to_act, leader) = phase_to_pb(public.phase);
    let public_pb = pb::TwentyTwoPublic {
        deal: public.deal,
        dealer: seat_to_pb(public.dealer),
        cards_dealt: u32::from(public.hand_size),
        stock_size: count(public.stock_len),
        packs: u32::from(public.packs),
        seats: public.seats.iter().map(public_seat_to_pb).collect(),
        phase: phase as i32,
        to_act: to_act.map(seat_to_pb),
        leader: leader.map(seat_to_pb),
        tricks: public.tricks.iter().map(trick_to_pb).collect(),
        dealer_draw: public
            .dealer_draw
            .iter()
            .map(|round| pb::TwentyTwoDrawRound {
                cards: round.iter().map(seat_card_to_pb).collect(),
            })
            .collect(),
        last_deal: public.last_deal.as_ref().map(deal_result_to_pb),
        standings: public.standings.as_ref().map(|standings| pb::Standings {
            standings: standings.iter().map(standing_to_pb).collect(),
        }),
    };
    pb::TwentyTwoObservation {
        hand: if codes { Vec::new() } else { cards_to_pb(hand()) },
        hand_codes: if codes { cards_to_codes(hand()) } else { Vec::new() },
        discards: cards_to_pb(observation.discards.iter().copied()),
        public: Some(public_pb),
    }
}

/// The cards of an action on the wire.
fn to_pb(cards: &Cards) -> pb::Cards {
    pb::Cards { cards: cards_to_pb(cards.as_slice().iter().copied()) }
}

fn public_seat_to_pb(seat: &PublicSeat) -> pb::TwentyTwoSeat {
    pb::TwentyTwoSeat {
        seat: seat_to_pb(seat.seat),
        score: seat.score,
        penalty_pile: cards_to_pb(seat.penalty_pile.iter().copied()),
        eliminated: seat.eliminated,
        hand_size: count(seat.hand_len),
        exchanged: seat.exchanged.map(u32::from),
        won: cards_to_pb(seat.won.iter().copied()),
    }
}

fn seat_card_to_pb(card: &SeatCard) -> pb::TwentyTwoSeatCard {
    pb::TwentyTwoSeatCard { seat: seat_to_pb(card.seat), card: Some(card_to_pb(card.card)) }
}

fn deal_result_to_pb(result: &DealResult) -> pb::TwentyTwoDealResult {
    pb::TwentyTwoDealResult {
        deal: result.deal,
        revealed: result.revealed.iter().map(seat_card_to_pb).collect(),
        rank: result.rank as i32,
        losers: result.losers.iter().copied().map(seat_to_pb).collect(),
        tie_break: tie_break_to_pb(result.tie_break) as i32,
        eliminated: result.eliminated.iter().copied().map(seat_to_pb).collect(),
    }
}

/// How the elimination variant settled a tie, on the wire.
fn tie_break_to_pb(tie_break: TieBreak) -> pb::TwentyTwoTieBreak {
    match tie_break {
        TieBreak::None => pb::TwentyTwoTieBreak::None,
        TieBreak::Points => pb::TwentyTwoTieBreak::Points,
        TieBreak::Random => pb::TwentyTwoTieBreak::Random,
    }
}

/// The phase on the wire, with the seat to act and the trick's leader it names.
fn phase_to_pb(phase: PhaseView) -> (pb::TwentyTwoPhase, Option<Seat>, Option<Seat>) {
    match phase {
        PhaseView::Exchange { to_act } => (pb::TwentyTwoPhase::Exchange, Some(to_act), None),
        PhaseView::Play { leader, to_act } => {
            (pb::TwentyTwoPhase::Play, Some(to_act), Some(leader))
        }
        PhaseView::Over => (pb::TwentyTwoPhase::Over, None, None),
    }
}

/// Cards held or played together from the wire (an action's, a hand, a play): at most
/// [`MAX_HAND`], each a real card; `what` names them in the error about a card.
fn hand_from_pb(cards: &[pb::Card], what: &str) -> Result<Cards, WireError> {
    hand_from_list(CardList::Messages(cards), what)
}

/// [`hand_from_pb`] for a hand sent either way (`Omit.cards`).
fn hand_from_list(cards: CardList<'_>, what: &str) -> Result<Cards, WireError> {
    if cards.len() > MAX_HAND {
        return Err(WireError::rule(TooManyCards { count: cards.len() }));
    }
    let cards = cards.iter().collect::<Result<Vec<_>, _>>().map_err(|err| err.within(what))?;
    Cards::new(&cards).map_err(WireError::rule)
}

/// The public view from the wire, with the match's options (which it does not repeat).
fn public_from_view<S: SeatSource, T: TrickSource, R: AsRef<[pb::TwentyTwoSeatCard]>>(
    public: &PublicFields<'_, S, T, R>,
    options: Options,
) -> Result<PublicView, WireError> {
    let to_act = || {
        public
            .to_act
            .ok_or(WireError::Incomplete("the phase has a seat to act, but `to_act` is unset"))
    };
    let phase = match pb::TwentyTwoPhase::try_from(public.phase).unwrap_or_default() {
        pb::TwentyTwoPhase::Exchange => PhaseView::Exchange { to_act: seat_from_pb(to_act()?)? },
        pb::TwentyTwoPhase::Play => PhaseView::Play {
            leader: seat_from_pb(
                public.leader.ok_or(WireError::Incomplete("the play phase has no `leader`"))?,
            )?,
            to_act: seat_from_pb(to_act()?)?,
        },
        pb::TwentyTwoPhase::Over => PhaseView::Over,
        pb::TwentyTwoPhase::Unspecified => {
            return Err(WireError::Incomplete("the Twenty-Two phase is not set"));
        }
    };
    Ok(PublicView {
        options,
        packs: byte(public.packs, "packs")?,
        deal: public.deal,
        dealer: seat_from_pb(public.dealer)?,
        hand_size: byte(public.cards_dealt, "cards_dealt")?,
        stock_len: size(public.stock_size),
        seats: public
            .seats
            .iter()
            .map(|seat| public_seat_from_view(&seat.view()))
            .collect::<Result<_, _>>()?,
        phase,
        tricks: public.tricks.iter().map(trick_from_view).collect::<Result<_, _>>()?,
        last_deal: public.last_deal.as_ref().map(deal_result_from_view).transpose()?,
        dealer_draw: public
            .dealer_draw
            .iter()
            .map(|round| round.as_ref().iter().map(seat_card_from_pb).collect())
            .collect::<Result<_, _>>()?,
        standings: public
            .standings
            .map(|standings| standings.iter().map(standing_from_pb).collect())
            .transpose()?,
    })
}

fn public_seat_from_view(seat: &SeatView<'_>) -> Result<PublicSeat, WireError> {
    Ok(PublicSeat {
        seat: seat_from_pb(seat.seat)?,
        score: seat.score,
        penalty_pile: cards_from_pb(seat.penalty_pile)?,
        eliminated: seat.eliminated,
        hand_len: size(seat.hand_size),
        exchanged: seat.exchanged.map(|n| byte(n, "exchanged")).transpose()?,
        won: cards_from_pb(seat.won)?,
    })
}

fn trick_from_view<T: TrickSource>(trick: &T) -> Result<Trick, WireError> {
    let plays = trick
        .plays()
        .map(|play| {
            Ok(Play { seat: seat_from_pb(play.seat)?, cards: hand_from_pb(play.cards, "a play")? })
        })
        .collect::<Result<_, WireError>>()?;
    Ok(Trick {
        plays,
        strongest: size(trick.strongest()),
        winner: trick.winner().map(seat_from_pb).transpose()?,
    })
}

fn seat_card_from_pb(card: &pb::TwentyTwoSeatCard) -> Result<SeatCard, WireError> {
    let face = card.card.as_ref().ok_or(WireError::Incomplete("a seat's card has no `card`"))?;
    Ok(SeatCard { seat: seat_from_pb(card.seat)?, card: card_from_pb(face)? })
}

fn deal_result_from_view(result: &DealView<'_>) -> Result<DealResult, WireError> {
    let tie_break = match pb::TwentyTwoTieBreak::try_from(result.tie_break).unwrap_or_default() {
        pb::TwentyTwoTieBreak::None => TieBreak::None,
        pb::TwentyTwoTieBreak::Points => TieBreak::Points,
        pb::TwentyTwoTieBreak::Random => TieBreak::Random,
        pb::TwentyTwoTieBreak::Unspecified => {
            return Err(WireError::Incomplete("the deal's tie break is not set"));
        }
    };
    Ok(DealResult {
        deal: result.deal,
        revealed: result.revealed.iter().map(seat_card_from_pb).collect::<Result<_, _>>()?,
        rank: rank_from_pb(result.rank)?,
        losers: seats_from_pb(result.losers)?,
        tie_break,
        eliminated: seats_from_pb(result.eliminated)?,
    })
}

fn trick_to_pb(trick: &Trick) -> pb::TwentyTwoTrick {
    pb::TwentyTwoTrick {
        plays: trick
            .plays
            .iter()
            .map(|play| pb::TwentyTwoPlay {
                seat: seat_to_pb(play.seat),
                cards: cards_to_pb(play.cards.as_slice().iter().copied()),
            })
            .collect(),
        strongest: count(trick.strongest),
        winner: trick.winner.map(seat_to_pb),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::collections::BTreeSet;

    use cardroom_games::twenty_two::{Packs, TiedDealer, TrickWinner, Variant};
    use cardroom_games::{Card, Game, parse_cards};

    use super::*;
    use crate::wire::TestRng as Rng;
    use crate::wire::{card_to_pb, enum_tag};

    /// Random options that fit a random table size.
    pub(super) fn random_options(rng: &mut Rng) -> (Options, u8) {
        let players = 2 + rng.below(11) as u8;
        let options = Options {
            packs: if rng.below(4) == 0 { Packs::Fixed(4) } else { Packs::Auto },
            first_hand: 1 + rng.below(11) as u8,
            limit: [5, 12, 22][rng.below(3)],
            trick_winner: if rng.coin() {
                TrickWinner::StrongestCombination
            } else {
                TrickWinner::HighestCard
            },
            tied_dealer: if rng.coin() {
                TiedDealer::Random
            } else {
                TiedDealer::NearestLeftOfPreviousDealer
            },
            variant: if rng.below(4) == 0 { Variant::Elimination } else { Variant::Standard },
        };
        (options, players)
    }

    /// Plays `matches` random matches to the end and calls `check` on every state on the way
    /// (the final one included), with the events of the action that led to it.
    fn for_random_states(
        matches: u64,
        mut check: impl FnMut(&State, &[cardroom_games::twenty_two::Event]),
    ) {
        for seed in 0..matches {
            let mut rng = Rng::new(seed);
            let (options, players) = random_options(&mut rng);
            let mut state = State::new(options, players, seed).unwrap();
            check(&state, state.opening_events());
            while let Some(seat) = state.to_act() {
                let legal = state.legal_actions();
                let action = legal[rng.below(legal.len())];
                let events = state
                    .apply(seat, action)
                    .unwrap_or_else(|err| panic!("seed {seed}, {options:?}: {err}"));
                check(&state, &events);
            }
        }
    }

    fn cards(text: &str) -> Cards {
        Cards::new(&parse_cards(text).unwrap()).unwrap()
    }

    fn pb_twenty_two(action: pb::twenty_two_action::Action) -> pb::Action {
        pb::Action {
            game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction { action: Some(action) })),
        }
    }

    fn pb_cards(text: &str) -> pb::Cards {
        pb::Cards { cards: parse_cards(text).unwrap().into_iter().map(card_to_pb).collect() }
    }

    #[test]
    fn every_legal_action_round_trips() {
        let mut actions = 0;
        for_random_states(60, |state, _| {
            for action in state.legal_actions() {
                let wire = State::action_to_pb(&action);
                assert_eq!(State::action_from_pb(&wire), Ok(action));
                actions += 1;
            }
        });
        assert!(actions > 10_000, "{actions}");
    }

    #[test]
    fn actions_keep_their_suits_and_are_sorted_when_read() {
        for action in [
            Action::Exchange(Cards::EMPTY),
            Action::Exchange(cards("2C 2C 2C 2C 7S 7S 7S 7S AH AH AH")),
            Action::Play(cards("7S 7D")),
            Action::Play(cards("AS")),
        ] {
            assert_eq!(State::action_from_pb(&State::action_to_pb(&action)), Ok(action));
        }
        let unsorted = pb_twenty_two(pb::twenty_two_action::Action::Play(pb_cards("KH 3S 3C")));
        assert_eq!(State::action_from_pb(&unsorted), Ok(Action::Play(cards("3C 3S KH"))));
        let wire = State::action_to_pb(&Action::Play(cards("9D 9C")));
        assert_eq!(
            wire,
            pb_twenty_two(pb::twenty_two_action::Action::Play(pb_cards("9C 9D"))),
            "cards go low to high"
        );
    }

    #[test]
    fn malformed_actions_are_refused() {
        let check = |action: pb::Action, expected: &str| {
            assert_eq!(
                State::action_from_pb(&action).map_err(|e| e.to_string()),
                Err(expected.to_owned())
            );
        };
        check(pb::Action { game: None }, "the action names no game: set `twenty_two`");
        check(
            pb::Action {
                game: Some(pb::action::Game::Gin(pb::GinAction {
                    action: Some(pb::gin_action::Action::DrawStock(pb::gin_action::Empty {})),
                })),
            },
            "this match plays Twenty-Two, but the action is a Gin Rummy action",
        );
        check(
            pb::Action {
                game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction { action: None })),
            },
            "the Twenty-Two action is empty: set `exchange` or `play`",
        );
        let bad_rank = pb::Cards { cards: vec![pb::Card { rank: 15, suit: 1 }] };
        check(
            pb_twenty_two(pb::twenty_two_action::Action::Play(bad_rank)),
            "the cards to play: 15 is not a rank (2 to 14)",
        );
        let bad_suit = pb::Cards {
            cards: vec![card_to_pb(Card::pack().next().unwrap()), pb::Card { rank: 7, suit: 0 }],
        };
        check(
            pb_twenty_two(pb::twenty_two_action::Action::Exchange(bad_suit)),
            "the cards to exchange: 0 is not a suit (1 to 4)",
        );
        let twelve = pb::Cards { cards: vec![pb::Card { rank: 2, suit: 1 }; 12] };
        check(
            pb_twenty_two(pb::twenty_two_action::Action::Exchange(twelve)),
            "12 cards given, but a Twenty-Two hand or play holds at most 11",
        );
        let many = pb::Cards { cards: vec![pb::Card { rank: 99, suit: 9 }; 100_000] };
        check(
            pb_twenty_two(pb::twenty_two_action::Action::Play(many)),
            "100000 cards given, but a Twenty-Two hand or play holds at most 11",
        );
    }

    #[test]
    fn observations_match_the_engine() {
        // The seat to act (whose observation lists its legal actions) and one other seat in
        // turn: every seat of every state would be slow in a debug build.
        let mut observations = 0;
        for_random_states(20, |state, _| {
            let other = Seat((observations % usize::from(state.players())) as u8);
            for seat in state.to_act().into_iter().chain([other]) {
                let observation = state.observation(seat);
                let wire = State::observation_to_pb(&observation, &pb::Omit::default());
                check_observation(&observation, &wire);
                observations += 1;
            }
        });
        assert!(observations > 5_000, "{observations}");
    }

    /// The typed form alone rebuilds the engine's observation, for every seat at every step of
    /// random matches over every option (the elimination variant's won cards, the dealer draws,
    /// deal results and final standings included).
    #[test]
    fn every_observation_is_rebuilt_from_the_typed_form() {
        let (mut over, mut drawn) = (0, 0);
        for_random_states(10, |state, _| {
            crate::wire::assert_every_seat_rebuilt(state);
            let public = state.public_view();
            over += usize::from(public.standings.is_some());
            drawn += usize::from(!public.dealer_draw.is_empty() && public.last_deal.is_some());
        });
        assert!(over > 0 && drawn > 0, "the rare parts of the view were met: {over}, {drawn}");
    }

    #[test]
    fn a_typed_observation_that_cannot_be_one_is_refused() {
        let state = State::new(Options::default(), 3, 1).unwrap();
        let options = *state.options();
        let observation = state.observation(Seat(0));
        let omit = pb::Omit { json: true, ..pb::Omit::default() };
        let wire = State::observation_to_pb(&observation, &omit);
        let refuse = |wire: &pb::Observation, expected: &str| {
            assert_eq!(
                State::observation_from_pb(wire, &[], &options).map_err(|e| e.to_string()),
                Err(expected.to_owned())
            );
        };
        refuse(&pb::Observation { game: None, ..wire.clone() }, NO_TWENTY_TWO_VIEW);
        let mut bad = wire.clone();
        let Some(pb::observation::Game::TwentyTwo(typed)) = &mut bad.game else { panic!() };
        typed.hand.push(pb::Card { rank: 15, suit: 1 });
        refuse(&bad, "the hand: 15 is not a rank (2 to 14)");
        let mut bad = wire.clone();
        let Some(pb::observation::Game::TwentyTwo(typed)) = &mut bad.game else { panic!() };
        typed.public.as_mut().unwrap().phase = pb::TwentyTwoPhase::Unspecified as i32;
        refuse(&bad, "the Twenty-Two phase is not set");
        refuse(&pb::Observation { seat: 300, ..wire }, "300 is not a seat");
        let legal = [pb::LegalAction { index: 0, action: None }];
        assert_eq!(
            State::observation_from_pb(
                &State::observation_to_pb(&observation, &omit),
                &legal,
                &options
            ),
            Err(WireError::EmptyLegalAction(0))
        );
    }

    fn check_observation(observation: &Observation, wire: &pb::Observation) {
        let back: Observation = serde_json::from_str(&wire.json).unwrap();
        assert_eq!(&back, observation);
        assert_eq!(wire.seat, u32::from(observation.seat.0));
        let Some(pb::observation::Game::TwentyTwo(typed)) = &wire.game else {
            panic!("not a Twenty-Two observation: {wire:?}");
        };
        let cards = |cards: &[Card]| cards_to_pb(cards.iter().copied());
        assert_eq!(typed.hand, cards(observation.hand.as_slice()));
        assert_eq!(typed.discards, cards(&observation.discards));
        let public = &observation.public;
        let wire_public = typed.public.as_ref().unwrap();
        assert_eq!(wire_public.deal, public.deal);
        assert_eq!(wire_public.dealer, u32::from(public.dealer.0));
        assert_eq!(wire_public.cards_dealt, u32::from(public.hand_size));
        assert_eq!(wire_public.stock_size as usize, public.stock_len);
        assert_eq!(wire_public.packs, u32::from(public.packs));
        assert_eq!(wire_public.seats.len(), public.seats.len());
        for (wire_seat, seat) in wire_public.seats.iter().zip(&public.seats) {
            assert_eq!(wire_seat.seat, u32::from(seat.seat.0));
            assert_eq!(wire_seat.score, seat.score);
            assert_eq!(wire_seat.penalty_pile, cards(&seat.penalty_pile));
            assert_eq!(wire_seat.eliminated, seat.eliminated);
            assert_eq!(wire_seat.hand_size as usize, seat.hand_len);
            assert_eq!(wire_seat.exchanged, seat.exchanged.map(u32::from));
        }
        let (phase, to_act, leader) = match public.phase {
            PhaseView::Exchange { to_act } => (pb::TwentyTwoPhase::Exchange, Some(to_act.0), None),
            PhaseView::Play { leader, to_act } => {
                (pb::TwentyTwoPhase::Play, Some(to_act.0), Some(leader.0))
            }
            PhaseView::Over => (pb::TwentyTwoPhase::Over, None, None),
        };
        assert_eq!(wire_public.phase(), phase);
        assert_eq!(wire_public.to_act, to_act.map(u32::from));
        assert_eq!(wire_public.leader, leader.map(u32::from));
        // The phase names are the engine's own serde tags.
        let json = serde_json::to_value(public.phase).unwrap();
        assert_eq!(json["phase"], enum_tag(phase.as_str_name(), "TWENTY_TWO_PHASE_"));
        assert_eq!(wire_public.tricks.len(), public.tricks.len());
        for (wire_trick, trick) in wire_public.tricks.iter().zip(&public.tricks) {
            assert_eq!(wire_trick.strongest as usize, trick.strongest);
            assert_eq!(wire_trick.winner, trick.winner.map(|seat| u32::from(seat.0)));
            assert_eq!(wire_trick.plays.len(), trick.plays.len());
            for (wire_play, play) in wire_trick.plays.iter().zip(&trick.plays) {
                assert_eq!(wire_play.seat, u32::from(play.seat.0));
                assert_eq!(wire_play.cards, cards(play.cards.as_slice()));
            }
        }
    }

    #[test]
    fn create_reads_options_and_checks_seats() {
        let state = State::create("", 4, 7).unwrap();
        assert_eq!(state.options(), &Options::default());
        assert_eq!(state.players(), 4);
        let state = State::create("  ", 2, 7).unwrap();
        assert_eq!(state.options(), &Options::default());

        let state = State::create(r#"{"limit": 30, "packs": 2}"#, 3, 7).unwrap();
        assert_eq!(state.options().limit, 30);
        assert_eq!(state.options().packs, Packs::Fixed(2));
        let json = state.options_json();
        assert_eq!(serde_json::from_str::<Options>(&json).unwrap(), *state.options());
        for field in ["packs", "first_hand", "limit", "trick_winner", "tied_dealer", "variant"] {
            assert!(json.contains(&format!("\"{field}\":")), "{field} missing from {json}");
        }
        // Same options, seats and seed: the same match.
        let again = State::create(&json, 3, 7).unwrap();
        assert_eq!(again.observation(Seat(0)), state.observation(Seat(0)));
    }

    #[test]
    fn create_refuses_bad_options_and_seat_counts() {
        let error =
            |options: &str, seats: u32| State::create(options, seats, 1).unwrap_err().to_string();
        let bad_json = error("{", 4);
        assert!(bad_json.starts_with("the Twenty-Two options are not valid: EOF"), "{bad_json}");
        let unknown = error(r#"{"limit": 22, "jokers": true}"#, 4);
        assert!(
            unknown.starts_with("the Twenty-Two options are not valid: unknown field `jokers`"),
            "{unknown}"
        );
        let wrong_type = error(r#"{"limit": "many"}"#, 4);
        assert!(wrong_type.contains("invalid type: string \"many\""), "{wrong_type}");
        assert_eq!(error(r#"{"limit": 0}"#, 4), "TT-19: limit must be at least 1");
        assert_eq!(error(r#"{"packs": 5}"#, 4), "TT-3: packs must be auto or 1 to 4, not 5");
        assert_eq!(
            error("", 1),
            "TT-4: 1 players cannot play; a table has 2 to 12 players with these packs"
        );
        assert_eq!(
            error("", 13),
            "TT-4: 13 players cannot play; a table has 2 to 12 players with these packs"
        );
        assert_eq!(
            error("", 0),
            "TT-4: 0 players cannot play; a table has 2 to 12 players with these packs"
        );
        assert_eq!(error("", 300), "TT-4: 300 players cannot play; a table has at most 16 players");
        assert!(State::create(r#"{"packs": 4}"#, 16, 1).is_ok());
    }

    #[test]
    fn event_kinds_are_the_serde_tags() {
        let mut kinds = BTreeSet::new();
        for_random_states(40, |_, events| {
            for event in events {
                let json = serde_json::to_value(event).unwrap();
                let kind = State::event_to_pb(event).kind;
                assert_eq!(json["event"], kind.as_str());
                kinds.insert(kind);
            }
        });
        let expected = [
            "deal_lost",
            "deal_started",
            "dealer_drawn",
            "exchanged",
            "match_over",
            "penalty",
            "played",
            "trick_won",
        ];
        assert_eq!(kinds.iter().map(String::as_str).collect::<Vec<_>>(), expected);
    }

    #[test]
    fn the_wire_game_is_twenty_two() {
        assert_eq!(State::PB, pb::Game::TwentyTwo);
        assert_eq!(<State as Game>::NAME, "twenty_two");
    }
}

//! Hold'em on the wire: [`WireGame`] for the engine's [`State`].
//!
//! An action is a `HoldemAction`: `fold`, `check` and `call` carry `Empty`, `raise_to` the
//! round's bet in chips. An observation fills `HoldemObservation` with the seat's hole cards
//! and the public view: each seat's chips, the board, the betting round's bet and smallest
//! raise, and the last hand's result. Its `json` field holds the engine's [`Observation`].
//! The legal list names every raise size (HE-9), so a no-limit `Turn` lists as many raises as
//! the seat has chips; `Omit.legal_actions` leaves them to the engine, which lists them from
//! the view.

use cardroom_games::Seat;
use cardroom_games::holdem::{
    Action, AllIn, Award, HandRank, HandResult, KnockedOut, MAX_SEATS, Observation, Options,
    Outcome, PublicView, Round, SeatChips, SeatStatus, State, Street,
};

use super::{
    CardList, WireError, WireGame, cards_from_pb, cards_to_codes, cards_to_pb,
    legal_actions_from_pb_into, not_an_action_of, seat_from_pb, seat_to_pb, standing_from_pb,
    standing_to_pb,
};
use crate::pb;

impl WireGame for State {
    const PB: pb::Game = pb::Game::Holdem;

    /// A match of `seats` players (HE-1: 2 to 10) from options as a JSON object (empty for
    /// the defaults; unknown fields are refused).
    fn create(options_json: &str, seats: u32, seed: u64) -> Result<State, WireError> {
        let options = State::options_from_json(options_json)?;
        let players = u8::try_from(seats).map_err(|_| {
            WireError::Rule(format!("HE-1: hold'em seats 2 to {MAX_SEATS} players, not {seats}"))
        })?;
        State::new(options, players, seed).map_err(WireError::rule)
    }

    fn action_to_pb(action: &Action) -> pb::Action {
        use pb::holdem_action::{Action as Pb, Empty};
        let action = match *action {
            Action::Fold => Pb::Fold(Empty {}),
            Action::Check => Pb::Check(Empty {}),
            Action::Call => Pb::Call(Empty {}),
            Action::RaiseTo(to) => Pb::RaiseTo(to),
        };
        pb::Action {
            game: Some(pb::action::Game::Holdem(pb::HoldemAction { action: Some(action) })),
        }
    }

    fn action_from_pb(action: &pb::Action) -> Result<Action, WireError> {
        use pb::holdem_action::Action as Pb;
        let Some(pb::action::Game::Holdem(holdem)) = &action.game else {
            return Err(not_an_action_of::<State>(action));
        };
        match holdem.action {
            Some(Pb::Fold(_)) => Ok(Action::Fold),
            Some(Pb::Check(_)) => Ok(Action::Check),
            Some(Pb::Call(_)) => Ok(Action::Call),
            Some(Pb::RaiseTo(to)) => Ok(Action::RaiseTo(to)),
            None => Err(WireError::Incomplete(
                "the Hold'em action is empty: set one of `fold`, `check`, `call`, `raise_to`",
            )),
        }
    }

    fn legal_actions_of(observation: &Observation) -> &[Action] {
        &observation.legal_actions
    }

    fn fill_legal_actions(observation: &mut Observation) {
        let mut legal = std::mem::take(&mut observation.legal_actions);
        let public = &observation.public;
        public.betting.legal_actions_into(&public.options, observation.seat, &mut legal);
        observation.legal_actions = legal;
    }

    fn observer(observation: &Observation) -> Seat {
        observation.seat
    }

    fn observation_to_pb(observation: &Observation, omit: &pb::Omit) -> pb::Observation {
        super::observation_to_pb(observation, observation.seat, omit, || {
            pb::observation::Game::Holdem(typed(observation, omit.cards))
        })
    }

    fn observation_from_pb(
        observation: &pb::Observation,
        legal_actions: &[pb::LegalAction],
        options: &Options,
    ) -> Result<Observation, WireError> {
        let Some(pb::observation::Game::Holdem(typed)) = &observation.game else {
            return Err(WireError::Incomplete(
                "the observation has no Hold'em view (`Observation.holdem`)",
            ));
        };
        let seat = seat_from_pb(observation.seat)?;
        let hole_cards = CardList::of(&typed.hole_cards, &typed.hole_cards_codes, "hole_cards")?
            .iter()
            .collect::<Result<Vec<_>, _>>()?;
        let mut legal = Vec::new();
        legal_actions_from_pb_into::<State>(legal_actions, &mut legal)?;
        let public = typed
            .public
            .as_ref()
            .ok_or(WireError::Incomplete("the Hold'em view has no `public`"))?;
        let public = public_from_pb(public, *options)?;
        if public.betting.seats.get(seat.index()).is_none() {
            return Err(WireError::Inconsistent(format!("{seat} is not at the table")));
        }
        Ok(Observation { seat, hole_cards, legal_actions: legal, public })
    }
}

/// A seat's typed view: its hole cards and everything public but the options (in `Joined`);
/// the cards as card codes when the connection asked for them (`Omit.cards`).
fn typed(observation: &Observation, codes: bool) -> pb::HoldemObservation {
    let public = &observation.public;
    let betting = &public.betting;
    let cards = |cards: &[cardroom_games::Card]| {
        if codes {
            (Vec::new(), cards_to_codes(cards.iter().copied()))
        } else {
            (cards_to_pb(cards.iter().copied()), Vec::new())
        }
    };
    let (hole_cards, hole_cards_codes) = cards(&observation.hole_cards);
    let (board, board_codes) = cards(&public.board);
    pb::HoldemObservation {
        hole_cards,
        hole_cards_codes,
        public: Some(pb::HoldemPublic {
            hand_number: public.hand_number,
            button: seat_to_pb(public.button),
            board,
            board_codes,
            street: street_to_pb(betting.street) as i32,
            seats: betting
                .seats
                .iter()
                .zip(&public.knocked_out)
                .map(|(chips, out)| pb::HoldemSeat {
                    stack: chips.stack,
                    bet: chips.bet,
                    committed: chips.committed,
                    status: status_to_pb(chips.status) as i32,
                    acted_at: chips.acted_at,
                    knocked_out: out.map(|out| pb::HoldemKnockedOut {
                        hand_number: out.hand_number,
                        stack: out.stack,
                    }),
                })
                .collect(),
            bet: betting.bet,
            raise_by: betting.raise_by,
            raises: u32::from(betting.raises),
            to_act: betting.to_act.map(seat_to_pb),
            pot: public.pot(),
            last_hand: public.last_hand.as_ref().map(hand_result_to_pb),
            outcome: public.outcome.as_ref().map(|outcome| Box::new(outcome_to_pb(outcome))),
            adjusted: public.adjusted.clone(),
        }),
    }
}

fn street_to_pb(street: Street) -> pb::HoldemStreet {
    match street {
        Street::Preflop => pb::HoldemStreet::Preflop,
        Street::Flop => pb::HoldemStreet::Flop,
        Street::Turn => pb::HoldemStreet::Turn,
        Street::River => pb::HoldemStreet::River,
    }
}

fn street_from_pb(street: i32) -> Result<Street, WireError> {
    match pb::HoldemStreet::try_from(street) {
        Ok(pb::HoldemStreet::Preflop) => Ok(Street::Preflop),
        Ok(pb::HoldemStreet::Flop) => Ok(Street::Flop),
        Ok(pb::HoldemStreet::Turn) => Ok(Street::Turn),
        Ok(pb::HoldemStreet::River) => Ok(Street::River),
        _ => Err(WireError::Inconsistent(format!("{street} is not a Hold'em betting round"))),
    }
}

fn status_to_pb(status: SeatStatus) -> pb::HoldemSeatStatus {
    match status {
        SeatStatus::Active => pb::HoldemSeatStatus::Active,
        SeatStatus::AllIn => pb::HoldemSeatStatus::AllIn,
        SeatStatus::Folded => pb::HoldemSeatStatus::Folded,
        SeatStatus::Out => pb::HoldemSeatStatus::Out,
    }
}

fn status_from_pb(status: i32) -> Result<SeatStatus, WireError> {
    match pb::HoldemSeatStatus::try_from(status) {
        Ok(pb::HoldemSeatStatus::Active) => Ok(SeatStatus::Active),
        Ok(pb::HoldemSeatStatus::AllIn) => Ok(SeatStatus::AllIn),
        Ok(pb::HoldemSeatStatus::Folded) => Ok(SeatStatus::Folded),
        Ok(pb::HoldemSeatStatus::Out) => Ok(SeatStatus::Out),
        _ => Err(WireError::Inconsistent(format!("{status} is not a Hold'em seat status"))),
    }
}

fn hand_result_to_pb(result: &HandResult) -> pb::HoldemHandResult {
    pb::HoldemHandResult {
        hand_number: result.hand_number,
        button: seat_to_pb(result.button),
        board: cards_to_pb(result.board.iter().copied()),
        shown: result
            .shown
            .iter()
            .map(|cards| pb::Cards { cards: cards_to_pb(cards.iter().copied()) })
            .collect(),
        awards: result
            .awards
            .iter()
            .map(|award| pb::HoldemAward {
                pot: u32::from(award.pot),
                amount: award.amount,
                winners: award.winners.iter().map(|&s| seat_to_pb(s)).collect(),
                shares: award.shares.clone(),
                hand: award.hand.map(HandRank::value),
            })
            .collect(),
        net: result.net.clone(),
        stacks: result.stacks.clone(),
        all_in: result.all_in.as_ref().map(|all_in| pb::HoldemAllIn {
            street: street_to_pb(all_in.street) as i32,
            runouts: all_in.runouts,
            won: all_in.won.clone(),
        }),
    }
}

fn outcome_to_pb(outcome: &Outcome) -> pb::HoldemOutcome {
    pb::HoldemOutcome {
        stacks: outcome.stacks.clone(),
        net: outcome.net.clone(),
        hands_played: outcome.hands_played,
        standings: outcome.standings.iter().map(standing_to_pb).collect(),
        adjusted: outcome.adjusted.clone(),
    }
}

/// The public view from the wire, checked: seats within the table, every seat's list as long
/// as the table, cards and values that exist.
fn public_from_pb(public: &pb::HoldemPublic, options: Options) -> Result<PublicView, WireError> {
    let players = public.seats.len();
    if !(2..=usize::from(MAX_SEATS)).contains(&players) {
        return Err(WireError::Inconsistent(format!(
            "HE-1: the view has {players} seats; a table has 2 to {MAX_SEATS}"
        )));
    }
    let seat = |n: u32| {
        let seat = seat_from_pb(n)?;
        if seat.index() < players {
            Ok(seat)
        } else {
            Err(WireError::Inconsistent(format!("{seat} is not at this table of {players}")))
        }
    };
    let board = CardList::of(&public.board, &public.board_codes, "board")?
        .iter()
        .collect::<Result<Vec<_>, _>>()?;
    if board.len() > 5 {
        return Err(WireError::Inconsistent(format!("HE-6: a board of {} cards", board.len())));
    }
    let mut seats = Vec::with_capacity(players);
    let mut knocked_out = Vec::with_capacity(players);
    for chips in &public.seats {
        seats.push(SeatChips {
            stack: chips.stack,
            bet: chips.bet,
            committed: chips.committed,
            status: status_from_pb(chips.status)?,
            acted_at: chips.acted_at,
        });
        knocked_out.push(
            chips
                .knocked_out
                .map(|out| KnockedOut { hand_number: out.hand_number, stack: out.stack }),
        );
    }
    let betting = Round {
        street: street_from_pb(public.street)?,
        seats,
        bet: public.bet,
        raise_by: public.raise_by,
        raises: u8::try_from(public.raises).map_err(|_| {
            WireError::Inconsistent(format!("{} raises on one round", public.raises))
        })?,
        to_act: public.to_act.map(seat).transpose()?,
    };
    let last_hand = public
        .last_hand
        .as_ref()
        .map(|result| hand_result_from_pb(result, players, &seat))
        .transpose()?;
    let outcome = public
        .outcome
        .as_ref()
        .map(|outcome| {
            Ok::<_, WireError>(Outcome {
                stacks: per_seat(&outcome.stacks, players, "outcome.stacks")?,
                net: per_seat(&outcome.net, players, "outcome.net")?,
                hands_played: outcome.hands_played,
                standings: outcome
                    .standings
                    .iter()
                    .map(standing_from_pb)
                    .collect::<Result<_, _>>()?,
                adjusted: per_seat_if_any(&outcome.adjusted, players, "outcome.adjusted")?,
            })
        })
        .transpose()?;
    Ok(PublicView {
        options,
        hand_number: public.hand_number,
        button: seat(public.button)?,
        board,
        betting,
        knocked_out,
        last_hand,
        adjusted: per_seat_if_any(&public.adjusted, players, "adjusted")?,
        outcome,
    })
}

fn hand_result_from_pb(
    result: &pb::HoldemHandResult,
    players: usize,
    seat: &impl Fn(u32) -> Result<Seat, WireError>,
) -> Result<HandResult, WireError> {
    let awards = result
        .awards
        .iter()
        .map(|award| {
            Ok(Award {
                pot: u8::try_from(award.pot)
                    .map_err(|_| WireError::Inconsistent(format!("pot {}", award.pot)))?,
                amount: award.amount,
                winners: award.winners.iter().map(|&n| seat(n)).collect::<Result<_, _>>()?,
                shares: award.shares.clone(),
                hand: award
                    .hand
                    .map(|value| {
                        HandRank::from_value(value).ok_or_else(|| {
                            WireError::Inconsistent(format!("{value} is no hand's value"))
                        })
                    })
                    .transpose()?,
            })
        })
        .collect::<Result<_, WireError>>()?;
    let shown = result
        .shown
        .iter()
        .map(|cards| cards_from_pb(&cards.cards))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(HandResult {
        hand_number: result.hand_number,
        button: seat(result.button)?,
        board: cards_from_pb(&result.board)?,
        shown: per_seat(&shown, players, "last_hand.shown")?,
        awards,
        net: per_seat(&result.net, players, "last_hand.net")?,
        stacks: per_seat(&result.stacks, players, "last_hand.stacks")?,
        all_in: result
            .all_in
            .as_ref()
            .map(|all_in| {
                Ok::<_, WireError>(AllIn {
                    street: street_from_pb(all_in.street)?,
                    runouts: all_in.runouts,
                    won: per_seat(&all_in.won, players, "last_hand.all_in.won")?,
                })
            })
            .transpose()?,
    })
}

/// [`per_seat`] for a list the view may leave empty (HE-21's, at a table ranking by chips).
fn per_seat_if_any<T: Clone>(
    values: &[T],
    players: usize,
    field: &str,
) -> Result<Vec<T>, WireError> {
    if values.is_empty() { Ok(Vec::new()) } else { per_seat(values, players, field) }
}

/// A per-seat list from the wire, as long as the table; the error names the field.
fn per_seat<T: Clone>(values: &[T], players: usize, field: &str) -> Result<Vec<T>, WireError> {
    if values.len() == players {
        Ok(values.to_vec())
    } else {
        Err(WireError::Inconsistent(format!(
            "`{field}` has {} entries for a table of {players}",
            values.len()
        )))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every seat's observation reads back from the wire, at every step of random matches of
    /// every table size, in limit and no-limit, ranked by chips or all-in adjusted (HE-21).
    #[test]
    fn every_observation_round_trips_through_the_typed_view() {
        let mut rng = super::super::TestRng::new(43);
        for players in 2..=MAX_SEATS {
            let limit = players % 3 == 0;
            let options = Options {
                betting: if limit {
                    cardroom_games::holdem::Betting::Limit
                } else {
                    cardroom_games::holdem::Betting::NoLimit
                },
                stack: 40,
                hands: 6,
                ante: u32::from(players % 2),
                score: if players % 4 < 2 {
                    cardroom_games::holdem::Score::AllInAdjusted
                } else {
                    cardroom_games::holdem::Score::Chips
                },
                ..Options::default()
            };
            let mut state = State::new(options, players, u64::from(players)).unwrap();
            while let Some(seat) = state.to_act() {
                super::super::assert_every_seat_rebuilt(&state);
                let legal = state.legal_actions();
                let action = legal[rng.below(legal.len())];
                state.apply(seat, action).unwrap();
            }
            super::super::assert_every_seat_rebuilt(&state);
        }
    }

    #[test]
    fn every_action_round_trips_and_a_wrong_one_says_why() {
        for action in [Action::Fold, Action::Check, Action::Call, Action::RaiseTo(12)] {
            assert_eq!(State::action_from_pb(&State::action_to_pb(&action)), Ok(action));
        }
        let empty =
            pb::Action { game: Some(pb::action::Game::Holdem(pb::HoldemAction { action: None })) };
        assert!(State::action_from_pb(&empty).unwrap_err().to_string().contains("`raise_to`"));
    }
}

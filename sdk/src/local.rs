//! The in-process runner: a whole match between bots with no server and no network, for
//! arenas, tests and win-rate measurements.

use cardroom_games::{Game, RuleError, Seat, Standing};
use tracing::debug;

use crate::bot::{Bot, MatchEnd, MatchStart};
use crate::game::PlayableGame;

/// The most decisions [`play_local`] lets a match take before it gives up
/// ([`LocalError::TooLong`]). Real matches take a few hundred; only bots that never end a match
/// (Gin Rummy bots that never knock) come near it.
pub const MAX_LOCAL_DECISIONS: u64 = 1_000_000;

/// Why an in-process match could not be played to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalError {
    /// One bot per seat is needed.
    #[error("the match has {seats} seats but {bots} bots were given")]
    SeatCount {
        /// Seats at the table.
        seats: usize,
        /// Bots given.
        bots: usize,
    },
    /// The match did not end within the decision limit.
    #[error("the match did not end within {decisions} decisions")]
    TooLong {
        /// Decisions played.
        decisions: u64,
    },
    /// The engine refused even its own first legal action (an engine bug).
    #[error("the engine refused its first legal action ({rule}): {message}")]
    Engine {
        /// The rule the engine named.
        rule: &'static str,
        /// Its message.
        message: String,
    },
    /// The match is not over, but nobody is to act (an engine bug).
    #[error("the match is not over, but no seat is to act")]
    Stuck,
}

/// A finished in-process match.
#[derive(Clone, Debug)]
pub struct LocalReport<G> {
    /// Final standings, first place first.
    pub standings: Vec<Standing>,
    /// Per seat, how many of its choices were illegal (and replaced by the first legal action).
    pub illegal: Vec<u32>,
    /// Decisions played in the match.
    pub decisions: u64,
    /// The final state (its record replays the match).
    pub state: G,
}

/// Plays `state` to its end with `bots[seat]` choosing for each seat and returns the standings.
///
/// Each decision asks the seat's bot with `state.observation(seat)`; a choice that the engine
/// refuses is replaced by the first legal action (the server's cautious default) and counted
/// (see [`play_local_report`] for the counts). Every bot gets [`Bot::match_start`] first and
/// [`Bot::match_end`] last.
pub fn play_local<G: PlayableGame>(
    state: G,
    bots: &mut [Box<dyn Bot<G>>],
) -> Result<Vec<Standing>, LocalError> {
    play_local_report(state, bots, MAX_LOCAL_DECISIONS).map(|report| report.standings)
}

/// [`play_local`] with a decision limit, returning the illegal-choice counts, the number of
/// decisions and the final state as well.
pub fn play_local_report<G: PlayableGame>(
    mut state: G,
    bots: &mut [Box<dyn Bot<G>>],
    max_decisions: u64,
) -> Result<LocalReport<G>, LocalError> {
    let seats = usize::from(state.players());
    if bots.len() != seats {
        return Err(LocalError::SeatCount { seats, bots: bots.len() });
    }
    let options_json = state.options_json();
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.match_start(&MatchStart {
            match_id: "local".to_owned(),
            game: <G as Game>::KIND,
            seat: seat_at(seat),
            seats: state.players(),
            options_json: options_json.clone(),
            clock: None,
        });
    }
    let mut illegal = vec![0u32; seats];
    let mut decisions = 0u64;
    let standings = loop {
        let Some(seat) = state.to_act() else {
            break state.standings().ok_or(LocalError::Stuck)?;
        };
        if decisions >= max_decisions {
            return Err(LocalError::TooLong { decisions });
        }
        let bot = bots.get_mut(seat.index()).ok_or(LocalError::Stuck)?;
        let choice = bot.choose(&state.observation(seat));
        if let Err(err) = state.apply(seat, choice) {
            debug!(%seat, action = %choice, rule = err.rule(), cause = %err, "illegal choice replaced");
            illegal[seat.index()] += 1;
            let first = state.legal_actions().first().copied().ok_or(LocalError::Stuck)?;
            state
                .apply(seat, first)
                .map_err(|err| LocalError::Engine { rule: err.rule(), message: err.to_string() })?;
        }
        decisions += 1;
    };
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.match_end(&MatchEnd {
            seat: seat_at(seat),
            standings: standings.clone(),
            forfeited: Vec::new(),
            aborted: false,
            reason: String::new(),
        });
    }
    Ok(LocalReport { standings, illegal, decisions, state })
}

/// The seat at an index below the table size (at most 16 seats, so it fits a `u8`).
fn seat_at(index: usize) -> Seat {
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::{gin, twenty_two};

    use super::*;

    /// Always the first legal action.
    struct First;

    impl<G: PlayableGame> Bot<G> for First {
        fn choose(&mut self, observation: &G::Observation) -> G::Action {
            G::legal_actions_of(observation)[0]
        }
    }

    /// Always an illegal action: the cards of someone else.
    struct Cheat;

    impl Bot<twenty_two::State> for Cheat {
        fn choose(&mut self, observation: &twenty_two::Observation) -> twenty_two::Action {
            let mut cards = cardroom_games::Card::pack()
                .filter(|card| !observation.hand.as_slice().contains(card))
                .take(1);
            let card = cards.next().unwrap();
            twenty_two::Action::Play(twenty_two::Cards::new(&[card]).unwrap())
        }
    }

    #[test]
    fn a_match_of_first_legal_bots_ends() {
        let state = twenty_two::State::new(twenty_two::Options::default(), 4, 1).unwrap();
        let mut bots: Vec<Box<dyn Bot<twenty_two::State>>> =
            (0..4).map(|_| Box::new(First) as Box<dyn Bot<_>>).collect();
        let standings = play_local(state, &mut bots).unwrap();
        assert_eq!(standings.len(), 4);
        assert_eq!(standings[0].place, 1);
    }

    #[test]
    fn illegal_choices_are_replaced_and_counted() {
        let state = twenty_two::State::new(twenty_two::Options::default(), 2, 3).unwrap();
        let mut bots: Vec<Box<dyn Bot<twenty_two::State>>> = vec![Box::new(Cheat), Box::new(First)];
        let report = play_local_report(state, &mut bots, MAX_LOCAL_DECISIONS).unwrap();
        assert!(report.illegal[0] > 0);
        assert_eq!(report.illegal[1], 0);
        assert!(report.state.outcome().is_some());
    }

    #[test]
    fn the_seat_count_and_the_decision_limit_are_checked() {
        let state = gin::State::new(gin::Options::default(), 3).unwrap();
        let mut one: Vec<Box<dyn Bot<gin::State>>> = vec![Box::new(First)];
        assert_eq!(
            play_local(state.clone(), &mut one).unwrap_err(),
            LocalError::SeatCount { seats: 2, bots: 1 }
        );
        let mut two: Vec<Box<dyn Bot<gin::State>>> = vec![Box::new(First), Box::new(First)];
        assert_eq!(
            play_local_report(state, &mut two, 10).unwrap_err(),
            LocalError::TooLong { decisions: 10 }
        );
    }
}

//! Hold'em's table ([`Table`]): each seat with its chips, its bet on this round and whether it
//! folded or is all in; the pot and the board in the middle; between hands, the last hand's
//! shown cards and who won. A spectator sees no hole card but those shown at a showdown
//! (HE-6, HE-16); a seat sees its own two.

use std::fmt;

use super::action::Action;
use super::view::{Award, Blind, Event, HandResult, Observation, PublicView, SeatStatus, Street};
use crate::seat::Seat;
use crate::table::{Area, Figure, Group, Hand, Line, Mark, Perspective, Table, TableSeat};

/// The table as a spectator sees it: every hand face down (HE-6).
pub(super) fn public(view: &PublicView) -> Table {
    let options = &view.options;
    let mut figures = vec![
        Figure::new("pot", view.pot()),
        Figure::new("small blind", options.small_blind),
        Figure::new("big blind", options.big_blind),
    ];
    if options.ante > 0 {
        figures.push(Figure::new("ante", options.ante));
    }
    let over = view.outcome.is_some();
    let seats = view
        .betting
        .seats
        .iter()
        .enumerate()
        .map(|(index, chips)| {
            let seat = Seat(index as u8);
            let place = view.outcome.as_ref().and_then(|outcome| {
                outcome.standings.iter().find(|s| s.seat == seat).map(|s| s.place)
            });
            let mut figures = vec![Figure::new("chips", chips.stack)];
            if chips.bet > 0 {
                figures.push(Figure::new("bet", chips.bet));
            }
            // HE-21: what the standings rank, when the table ranks by it.
            if let Some(&adjusted) = view.adjusted.get(index) {
                figures.push(Figure::new("all-in adjusted", adjusted));
            }
            let notes = match chips.status {
                SeatStatus::Folded => vec!["folded".to_owned()],
                SeatStatus::AllIn => vec!["all in".to_owned()],
                SeatStatus::Out => vec!["out".to_owned()],
                SeatStatus::Active => Vec::new(),
            };
            let holding = chips.status.in_hand() && !over;
            TableSeat {
                seat,
                to_act: view.betting.to_act == Some(seat),
                dealer: view.button == seat,
                out: chips.status == SeatStatus::Out,
                place,
                figures,
                hand: Hand { shown: Vec::new(), hidden: if holding { 2 } else { 0 }, drawn: None },
                piles: Vec::new(),
                notes,
            }
        })
        .collect();
    let mut centre = Vec::new();
    let round = if view.board.is_empty() { "before the flop" } else { view.betting.street.name() };
    // Before the flop the board is its title alone.
    let board = (!view.board.is_empty()).then(|| Group::new("board", view.board.clone()));
    centre.push(Area {
        title: Line::new().text(format!("Board, {round}")),
        groups: board.into_iter().collect(),
    });
    // The last hand stays in view until the next hand's flop, and once the match is over.
    if let Some(result) = view.last_hand.as_ref().filter(|_| view.board.is_empty() || over) {
        centre.push(last_hand(result));
    }
    Table {
        perspective: Perspective::Spectator,
        title: format!("Hand {} of {}", view.hand_number, options.hands),
        figures,
        seats,
        piles: Vec::new(),
        centre,
        over,
    }
}

/// The table as the observation's seat sees it: its hole cards face up.
pub(super) fn seat(observation: &Observation) -> Table {
    let mut table = public(&observation.public);
    table.perspective = Perspective::Seat(observation.seat);
    if let Some(row) = table.seats.get_mut(observation.seat.index()) {
        let status = observation.public.betting.seats[observation.seat.index()].status;
        // A folded seat still knows what it held.
        if status != SeatStatus::Out && observation.public.outcome.is_none() {
            row.hand = Hand { shown: observation.hole_cards.clone(), hidden: 0, drawn: None };
        }
    }
    table
}

/// The last hand's end: its board, the hands shown and who won each pot.
fn last_hand(result: &HandResult) -> Area {
    let winners: Vec<Seat> = result.awards.iter().flat_map(|a| a.winners.iter().copied()).collect();
    let mut groups = vec![Group::new("board", result.board.clone())];
    // HE-21: each seat's share of the pot over the run-outs, when the all-in was counted.
    let pot: u64 = result.won().iter().sum();
    let equity: Vec<f64> = result.all_in.iter().flat_map(|all_in| all_in.equity()).collect();
    for (index, cards) in result.shown.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        let seat = Seat(index as u8);
        let won = winners.contains(&seat);
        let outcome = if won { "won" } else { "lost" };
        let note = match equity.get(index) {
            Some(equity) if pot > 0 => {
                format!("{outcome}, all-in equity {:.0}%", 100.0 * equity / pot as f64)
            }
            _ => outcome.to_owned(),
        };
        groups.push(Group {
            seat: Some(seat),
            label: String::new(),
            cards: cards.clone(),
            added: Vec::new(),
            mark: if won { Mark::Won } else { Mark::Lost },
            note: Some(note),
        });
    }
    Area { title: Line::new().text(format!("Hand {} ended", result.hand_number)), groups }
}

fn pot_name(pot: u8) -> String {
    if pot == 0 { "the main pot".to_owned() } else { format!("side pot {pot}") }
}

fn seats_line(seats: &[Seat]) -> Line {
    let mut line = Line::new();
    for (i, seat) in seats.iter().enumerate() {
        let sep = match i {
            0 => "",
            i if i + 1 == seats.len() => " and ",
            _ => ", ",
        };
        line = line.text(sep).seat(*seat);
    }
    line
}

fn award_line(award: &Award) -> Line {
    let Some(hand) = award.hand else {
        let line = seats_line(&award.winners);
        return if award.pot == 0 {
            line.text(format!(" wins the pot of {}", award.amount))
        } else {
            Line::new().text(format!("{} uncalled chips go back to ", award.amount)).then(line)
        };
    };
    let line = seats_line(&award.winners);
    let verb = if award.winners.len() > 1 { " split " } else { " wins " };
    line.text(verb).text(format!("{} of {} with {hand}", pot_name(award.pot), award.amount))
}

/// What an event did, in one line.
pub(super) fn event_line(event: &Event) -> Line {
    match event {
        Event::HandStarted { hand_number, button, .. } => {
            Line::new().text(format!("hand {hand_number}: ")).seat(*button).text(" has the button")
        }
        Event::Posted { seat, blind, amount, all_in } => {
            let what = match blind {
                Blind::Ante => "an ante",
                Blind::Small => "the small blind",
                Blind::Big => "the big blind",
            };
            let line = Line::new().seat(*seat).text(format!(" posts {what} of {amount}"));
            if *all_in { line.text(" and is all in") } else { line }
        }
        Event::Acted { seat, action, amount, all_in } => {
            let words = match action {
                Action::Fold => "folds".to_owned(),
                Action::Check => "checks".to_owned(),
                Action::Call => format!("calls {amount}"),
                Action::RaiseTo(to) => format!("raises to {to}"),
            };
            let line = Line::new().seat(*seat).text(" ").text(words);
            if *all_in { line.text(" and is all in") } else { line }
        }
        Event::BoardDealt { street, cards } => {
            let name = match street {
                Street::Preflop => "the deal",
                Street::Flop => "the flop",
                Street::Turn => "the turn",
                Street::River => "the river",
            };
            Line::new().text(format!("{name}: ")).cards(cards.iter().copied())
        }
        Event::Showed { seat, cards, hand } => Line::new()
            .seat(*seat)
            .text(" shows ")
            .cards(cards.iter().copied())
            .text(format!(": {hand}")),
        Event::PotWon { award } => award_line(award),
        Event::HandEnded { result } => {
            let mut line = Line::new().text(format!("hand {} is over:", result.hand_number));
            for (index, net) in result.net.iter().enumerate().filter(|(_, n)| **n != 0) {
                line = line.text(" ").seat(Seat(index as u8)).text(format!(" {net:+}"));
            }
            line
        }
        Event::KnockedOut { seat } => Line::new().seat(*seat).text(" is out of chips"),
        Event::MatchOver { outcome } => {
            let first: Vec<Seat> =
                outcome.standings.iter().filter(|s| s.place == 1).map(|s| s.seat).collect();
            let chips = first.first().map_or(0, |seat| outcome.stacks[seat.index()]);
            let line =
                Line::new().text(format!("match over after {} hands: ", outcome.hands_played));
            let line = line.then(seats_line(&first));
            line.text(format!(" first with {chips} chips"))
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        event_line(self).fmt(f)
    }
}

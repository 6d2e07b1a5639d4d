//! Twenty-Two's table ([`Table`]): every seat with its score, penalty pile and hand, the stock
//! and the cards out of play, and in the middle the trick under way with its strongest play
//! (TT-13) or the trick just won (TT-14), or at a new deal the last cards of the one lost
//! (TT-17). A spectator sees TT-24's public part; a seat sees its own hand and exchange discards
//! too (TT-25).

use super::view::{
    DealResult, Event, Observation, PhaseView, PublicView, SeatCard, TieBreak, Trick,
};
use crate::card::Card;
use crate::seat::Seat;
use crate::table::{Area, Figure, Group, Hand, Line, Mark, Perspective, Pile, Table, TableSeat};

/// The table as a spectator sees it (TT-24): every hand face down.
pub(super) fn public(view: &PublicView) -> Table {
    let to_act = match view.phase {
        PhaseView::Exchange { to_act } | PhaseView::Play { to_act, .. } => Some(to_act),
        PhaseView::Over => None,
    };
    let seats =
        view.seats
            .iter()
            .map(|public| {
                let seat = public.seat;
                let mut piles = Vec::new();
                if !public.penalty_pile.is_empty() {
                    piles.push(Pile::face_up("penalty cards", public.penalty_pile.clone()));
                }
                if !public.won.is_empty() {
                    piles.push(Pile::face_up("cards won", public.won.clone()));
                }
                let mut notes = Vec::new();
                if let Some(count) = public.exchanged {
                    notes.push(format!("exchanged {count}"));
                }
                if public.eliminated {
                    notes.push("eliminated".to_owned());
                }
                let place = view.standings.as_ref().and_then(|standings| {
                    standings.iter().find(|s| s.seat == seat).map(|s| s.place)
                });
                TableSeat {
                    seat,
                    to_act: to_act == Some(seat),
                    dealer: view.dealer == seat,
                    out: public.eliminated,
                    place,
                    figures: vec![Figure::new("score", public.score)],
                    hand: Hand { shown: Vec::new(), hidden: public.hand_len, drawn: None },
                    piles,
                    notes,
                }
            })
            .collect();
    let (shown, earlier) = shown_trick(view);
    let out_of_play: Vec<Card> = earlier
        .iter()
        .flat_map(|trick| &trick.plays)
        .flat_map(|play| play.cards.as_slice())
        .copied()
        .collect();
    let exchanged: usize = view.seats.iter().filter_map(|s| s.exchanged).map(usize::from).sum();
    let mut piles = vec![Pile::face_down("stock", view.stock_len)];
    if exchanged > 0 {
        piles.push(Pile::face_down("exchanged", exchanged));
    }
    if !out_of_play.is_empty() {
        piles.push(Pile::face_up("out of play", out_of_play));
    }
    let centre = match (shown, &view.last_deal) {
        (Some((number, trick)), _) => vec![trick_area(number, trick)],
        (None, Some(result)) => vec![deal_area(result)],
        (None, None) => dealer_draw(view).into_iter().collect(),
    };
    let mut figures = vec![Figure::new("cards each", view.hand_size)];
    figures.push(Figure::new("limit", view.options.limit));
    if view.packs > 1 {
        figures.push(Figure::new("packs", view.packs));
    }
    Table {
        perspective: Perspective::Spectator,
        title: format!("Deal {}", view.deal),
        figures,
        seats,
        piles,
        centre,
        over: matches!(view.phase, PhaseView::Over),
    }
}

/// The table as the observation's seat sees it (TT-25): its hand face up, and the cards it
/// discarded in this deal's exchange.
pub(super) fn seat(observation: &Observation) -> Table {
    let mut table = public(&observation.public);
    table.perspective = Perspective::Seat(observation.seat);
    if let Some(row) = table.seats.get_mut(observation.seat.index()) {
        row.hand = Hand { shown: observation.hand.as_slice().to_vec(), hidden: 0, drawn: None };
        if !observation.discards.is_empty() {
            row.piles.push(Pile::face_up("discarded", observation.discards.clone()));
        }
    }
    table
}

/// The trick the middle shows, with its number from 1, and the tricks before it (out of play,
/// TT-15): the trick under way once it has a play, else the one just won.
fn shown_trick(view: &PublicView) -> (Option<(usize, &Trick)>, &[Trick]) {
    let played = match view.tricks.last() {
        Some(last) if last.plays.is_empty() => view.tricks.len() - 1,
        _ => view.tricks.len(),
    };
    match played.checked_sub(1) {
        Some(index) => (Some((played, &view.tricks[index])), &view.tricks[..index]),
        None => (None, &[]),
    }
}

/// A trick: each play, the strongest so far marked (TT-13), the winner once it is won (TT-14).
fn trick_area(number: usize, trick: &Trick) -> Area {
    let groups = trick
        .plays
        .iter()
        .enumerate()
        .map(|(i, play)| {
            let (mark, note) = match trick.winner {
                Some(winner) if winner == play.seat => (Mark::Won, Some("wins the trick")),
                Some(_) => (Mark::None, None),
                None if i == trick.strongest => (Mark::Ahead, Some("strongest so far")),
                None => (Mark::None, None),
            };
            let label = if i == 0 { "leads" } else { "" };
            Group {
                seat: Some(play.seat),
                mark,
                note: note.map(str::to_owned),
                ..Group::new(label, play.cards.as_slice().to_vec())
            }
        })
        .collect();
    let title = Line::new().text(format!("Trick {number}"));
    let title = match trick.winner {
        Some(winner) => title.text(": ").seat(winner).text(" wins"),
        None => title,
    };
    Area { title, groups }
}

/// Each seat's one card in the middle, labelled `label`; those of the seats `marked` picks
/// marked with `mark` and `note`.
fn seat_cards(
    cards: &[SeatCard],
    label: &str,
    marked: impl Fn(Seat) -> bool,
    (mark, note): (Mark, &str),
) -> Vec<Group> {
    cards
        .iter()
        .map(|shown| {
            let marked = marked(shown.seat);
            Group {
                seat: Some(shown.seat),
                mark: if marked { mark } else { Mark::None },
                note: marked.then(|| note.to_owned()),
                ..Group::new(label, vec![shown.card])
            }
        })
        .collect()
}

/// The deal just lost: each seat's last card, the losers' marked (TT-17).
fn deal_area(result: &DealResult) -> Area {
    let lost = |seat| result.losers.contains(&seat);
    let groups = seat_cards(&result.revealed, "last card", lost, (Mark::Lost, "loses the deal"));
    Area { title: deal_lost(Line::new(), "Deal", result), groups }
}

/// The draw for the first dealer (TT-5): the last round's cards, the dealer's marked.
fn dealer_draw(view: &PublicView) -> Option<Area> {
    let round = view.dealer_draw.last()?;
    let groups = seat_cards(round, "draws", |seat| seat == view.dealer, (Mark::Won, "deals"));
    Some(Area { title: Line::new().text("The draw for the dealer"), groups })
}

/// `deal 2 lost with Q by seat 1` after `line`, the first word `deal` as given, with the
/// tie-break and the eliminations.
fn deal_lost(line: Line, deal: &str, result: &DealResult) -> Line {
    let mut line = line.text(format!("{deal} {} lost with {} by ", result.deal, result.rank));
    line = seats(line, &result.losers);
    line = match result.tie_break {
        TieBreak::None => line,
        TieBreak::Points => line.text(" (more points won)"),
        TieBreak::Random => line.text(" (drawn at random among equals)"),
    };
    if result.eliminated.is_empty() {
        line
    } else {
        seats(line.text("; eliminated: "), &result.eliminated)
    }
}

/// Seats separated by commas.
fn seats(line: Line, seats: &[Seat]) -> Line {
    seats
        .iter()
        .enumerate()
        .fold(line, |line, (i, seat)| (if i == 0 { line } else { line.text(", ") }).seat(*seat))
}

/// An event in one line, as the transcripts write it.
pub(super) fn event_line(event: &Event) -> Line {
    match event {
        Event::DealerDrawn { rounds, dealer } => {
            let mut line = Line::new().text("dealer draw:");
            for round in rounds {
                line = line.text(" [");
                for (i, draw) in round.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    line = line.text(sep).seat(draw.seat).text(" ").cards([draw.card]);
                }
                line = line.text("]");
            }
            line.text("; ").seat(*dealer).text(" deals")
        }
        Event::DealStarted { deal, dealer, hand_size, stock_len } => Line::new()
            .text(format!("deal {deal}: "))
            .seat(*dealer)
            .text(format!(" deals {hand_size} cards each, {stock_len} in the stock")),
        Event::Exchanged { seat, count } => {
            Line::new().seat(*seat).text(format!(" exchanges {count}"))
        }
        Event::Played { seat, cards, strongest } => {
            let line = Line::new().seat(*seat).text(" plays ");
            let line = if cards.is_empty() {
                line.text("no cards")
            } else {
                line.cards(cards.as_slice().iter().copied())
            };
            if *strongest { line.text(" (strongest)") } else { line }
        }
        Event::TrickWon { seat } => Line::new().seat(*seat).text(" wins the trick"),
        Event::DealLost(result) => {
            let mut line = Line::new();
            if !result.revealed.is_empty() {
                line = line.text("last cards: ");
                for (i, shown) in result.revealed.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    line = line.text(sep).seat(shown.seat).text(" ").cards([shown.card]);
                }
                line = line.text("; ");
            }
            deal_lost(line, "deal", result)
        }
        Event::Penalty { seat, card, score } => Line::new()
            .seat(*seat)
            .text(" takes ")
            .cards([*card])
            .text(format!(" as a penalty, score {score}")),
        Event::MatchOver { standings } => {
            standings.iter().fold(Line::new().text("match over:"), |line, s| {
                line.text(format!(" {}. ", s.place)).seat(s.seat)
            })
        }
    }
}

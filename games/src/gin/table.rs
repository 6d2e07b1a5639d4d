//! Gin Rummy's table ([`Table`]): two seats with their totals and hands, the stock and the
//! discard pile with its upcard, and at the end of a hand the knocker's melds with the
//! defender's layoffs on them and both deadwoods (GR-9, GR-12). What a spectator sees is GR-15's
//! public part; a seat sees its own hand too (GR-16), arranged into melds and its deadwood
//! counted (GR-2, GR-3).

use super::cardset::CardSet;
use super::solver::{self, Arrangement};
use super::view::{Event, GoOut, HandEnd, HandResult, Observation, Phase, PublicView, Showdown};
use crate::card::Card;
use crate::seat::Seat;
use crate::table::{Area, Figure, Group, Hand, Line, Perspective, Pile, Table, TableSeat};

/// The table as a spectator sees it (GR-15): each hand face down but for the cards its seat
/// took from the discard pile.
pub(super) fn public(view: &PublicView) -> Table {
    let mut figures = vec![Figure::new("knock limit", view.knock_limit)];
    if view.multiplier > 1 {
        figures.push(Figure::new("scores ×", view.multiplier));
    }
    figures.push(Figure::new("target", view.options.target));
    let taken = match view.phase {
        Phase::Discard { seat, taken: Some(card), .. } => Some((seat, card)),
        _ => None,
    };
    let seats = (0..2u8)
        .map(Seat)
        .map(|seat| {
            let i = seat.index();
            let known = view.known_cards[i];
            let place = view.outcome.as_ref().and_then(|outcome| {
                outcome.standings.iter().find(|s| s.seat == seat).map(|s| s.place)
            });
            let total = view.outcome.as_ref().map_or(view.scores[i], |outcome| outcome.totals[i]);
            TableSeat {
                seat,
                to_act: view.to_act == Some(seat),
                dealer: view.dealer == seat,
                out: false,
                place,
                figures: vec![
                    Figure::new("score", total),
                    Figure::new("hands won", view.hands_won[i]),
                ],
                hand: Hand {
                    shown: known.to_vec(),
                    hidden: view.hand_sizes[i].saturating_sub(known.len()),
                    drawn: taken.filter(|&(s, _)| s == seat).map(|(_, card)| card),
                },
                piles: Vec::new(),
                notes: Vec::new(),
            }
        })
        .collect();
    let top = view.discard_pile.last().map(|pile| pile.card);
    let piles = vec![
        Pile::face_down("stock", view.stock_size),
        Pile {
            label: "discard pile".to_owned(),
            count: view.discard_pile.len(),
            top: top.into_iter().collect(),
        },
    ];
    // The last hand's end stays in the middle until the new hand's first card is drawn, and
    // once the match is over.
    let just_ended = view.outcome.is_some() || matches!(view.phase, Phase::FirstUpcard { .. });
    let centre = match view.last_result {
        Some(result) if just_ended => hand_end(&result),
        _ => Vec::new(),
    };
    Table {
        perspective: Perspective::Spectator,
        title: format!("Hand {}", view.hand_number),
        figures,
        seats,
        piles,
        centre,
        over: view.outcome.is_some(),
    }
}

/// The table as the observation's seat sees it (GR-16): its hand face up, melds first, with its
/// deadwood: the hand's least (GR-2), or with 11 cards the least after a discard (GR-3).
pub(super) fn seat(observation: &Observation) -> Table {
    let mut table = public(&observation.public);
    table.perspective = Perspective::Seat(observation.seat);
    if let Some(row) = table.seats.get_mut(observation.seat.index()) {
        let hand = observation.hand;
        let drawn = observation.drawn.or(taken_by(&observation.public, observation.seat));
        row.hand = Hand { shown: arranged(hand), hidden: 0, drawn };
        if let Some(figure) = deadwood(hand) {
            row.figures.push(figure);
        }
    }
    table
}

/// The card `seat` just took from the discard pile, while it holds it to discard.
fn taken_by(view: &PublicView, seat: Seat) -> Option<Card> {
    match view.phase {
        Phase::Discard { seat: s, taken, .. } if s == seat => taken,
        _ => None,
    }
}

/// A hand's deadwood as a figure: GR-2's for up to 10 cards, GR-3's with 11; none for an empty
/// hand.
fn deadwood(hand: CardSet) -> Option<Figure> {
    match hand.len() {
        0 => None,
        11 => solver::knock_deadwood(hand).ok().map(|d| Figure::new("deadwood after a discard", d)),
        _ => solver::deadwood(hand).ok().map(|d| Figure::new("deadwood", d)),
    }
}

/// The hand's cards as a player holds them: the melds of its best arrangement (GR-2), then the
/// rest, each in the set's order.
fn arranged(hand: CardSet) -> Vec<Card> {
    let melds = solver::min_deadwood(hand)
        .ok()
        .and_then(|(_, arrangements)| arrangements.into_iter().next())
        .unwrap_or(Arrangement::EMPTY);
    let mut cards: Vec<Card> = melds.melds().flat_map(CardSet::iter).collect();
    cards.extend((hand - melds.cards()).iter());
    cards
}

/// The middle of the table at the end of a hand: the knocker's melds with the layoffs on them,
/// the defender's layout (GR-9), both deadwoods and the score (GR-12); or the draw.
fn hand_end(result: &HandResult) -> Vec<Area> {
    let mut areas = Vec::new();
    if let HandEnd::Showdown(showdown) = &result.end {
        areas.push(knocker(showdown));
        areas.push(defender(showdown));
    }
    areas.push(Area { title: result_line(result), groups: Vec::new() });
    areas
}

fn knocker(showdown: &Showdown) -> Area {
    let seat = Some(showdown.knocker);
    let mut groups: Vec<Group> = showdown
        .melds
        .melds()
        .zip(showdown.layout.onto)
        .map(|(meld, onto)| Group {
            seat,
            added: onto.to_vec(),
            ..Group::new("meld", meld.to_vec())
        })
        .collect();
    if !showdown.deadwood_cards.is_empty() {
        let label = format!("deadwood {}", showdown.deadwood);
        groups.push(Group { seat, ..Group::new(&label, showdown.deadwood_cards.to_vec()) });
    }
    if let Some(card) = showdown.discard {
        groups.push(Group { seat, ..Group::new("discarded", vec![card]) });
    }
    let title = Line::new().seat(showdown.knocker).text(format!(
        " {}, deadwood {}",
        went_out(showdown.kind),
        showdown.deadwood
    ));
    Area { title, groups }
}

fn defender(showdown: &Showdown) -> Area {
    let seat = Some(showdown.defender);
    let layout = &showdown.layout;
    let mut groups: Vec<Group> = layout
        .melds
        .melds()
        .map(|meld| Group { seat, ..Group::new("meld", meld.to_vec()) })
        .collect();
    if !layout.deadwood_cards.is_empty() {
        let label = format!("deadwood {}", layout.deadwood);
        groups.push(Group { seat, ..Group::new(&label, layout.deadwood_cards.to_vec()) });
    }
    let mut title = Line::new().seat(showdown.defender).text(" lays out");
    if !layout.layoffs.is_empty() {
        title = title.text(", lays off ").cards(layout.layoffs.iter());
    }
    Area { title: title.text(format!(", deadwood {}", layout.deadwood)), groups }
}

fn went_out(kind: GoOut) -> &'static str {
    match kind {
        GoOut::Knock => "knocks",
        GoOut::Gin => "goes gin",
        GoOut::BigGin => "goes big gin",
    }
}

/// Melds as the transcripts write them: `[A♠ 2♠ 3♠] [5♣ 5♦ 5♥]`, or `no melds`.
fn melds_line(line: Line, melds: &Arrangement) -> Line {
    if melds.is_empty() {
        return line.text("no melds");
    }
    melds.melds().enumerate().fold(line, |line, (i, meld)| {
        line.text(if i == 0 { "[" } else { " [" }).cards(meld.iter()).text("]")
    })
}

/// A hand's result in one line: `hand 3 won by seat 1, 23 points; totals 45 – 12`.
fn result_line(result: &HandResult) -> Line {
    let line = Line::new().text(format!("hand {} ", result.hand_number));
    let line = match (result.end, result.winner) {
        (HandEnd::Wall, _) => line.text("is a draw at the wall"),
        (HandEnd::UpcardLimit, _) => line.text("is a draw: the upcard limit"),
        (HandEnd::Showdown(_), Some(winner)) => {
            let how = if result.undercut { " by an undercut" } else { "" };
            line.text("won by ").seat(winner).text(format!("{how}, {} points", result.points))
        }
        (HandEnd::Showdown(_), None) => line.text("scores nothing"),
    };
    line.text(format!("; totals {} – {}", result.scores[0], result.scores[1]))
}

/// An event in one line, as the transcripts write it.
pub(super) fn event_line(event: &Event) -> Line {
    match event {
        Event::HandDealt { hand_number, dealer, upcard, knock_limit, multiplier } => {
            let line = Line::new()
                .text(format!("hand {hand_number}: "))
                .seat(*dealer)
                .text(" deals, upcard ")
                .cards([*upcard])
                .text(format!(", knock at {knock_limit}"));
            if *multiplier > 1 { line.text(format!(", scores ×{multiplier}")) } else { line }
        }
        Event::UpcardTaken { seat, card } => {
            Line::new().seat(*seat).text(" takes the upcard ").cards([*card])
        }
        Event::UpcardPassed { seat } => Line::new().seat(*seat).text(" passes"),
        Event::DrewStock { seat } => Line::new().seat(*seat).text(" draws from the stock"),
        Event::DrewDiscard { seat, card } => {
            Line::new().seat(*seat).text(" takes ").cards([*card]).text(" from the discard pile")
        }
        Event::Discarded { seat, card } => {
            Line::new().seat(*seat).text(" discards ").cards([*card])
        }
        Event::WentOut { seat, kind, melds, deadwood_cards, deadwood } => {
            let line = Line::new().seat(*seat).text(format!(" {}: ", went_out(*kind)));
            let line = melds_line(line, melds);
            if *deadwood > 0 {
                line.text(format!(", deadwood {deadwood} (")).cards(deadwood_cards.iter()).text(")")
            } else {
                line
            }
        }
        Event::LaidOut { seat, layout } => {
            let line = melds_line(Line::new().seat(*seat).text(" lays out: melds "), &layout.melds);
            let line = if layout.layoffs.is_empty() {
                line.text(", nothing laid off, ")
            } else {
                line.text(", laid off ").cards(layout.layoffs.iter()).text(", ")
            };
            let line = line.text(format!("deadwood {}", layout.deadwood));
            if layout.deadwood_cards.is_empty() {
                line
            } else {
                line.text(" (").cards(layout.deadwood_cards.iter()).text(")")
            }
        }
        Event::HandEnded { result } => result_line(result),
        Event::MatchOver { outcome } => {
            let line = Line::new()
                .text(format!("match over: totals {} – {}", outcome.totals[0], outcome.totals[1]));
            match outcome.winner {
                Some(winner) => line.text(", ").seat(winner).text(" wins"),
                None => line.text(", a tie"),
            }
        }
    }
}

//! The table drawn: a [`Table`] as HTML and CSS, whatever the game. The seats sit around the
//! felt, each with its name, figures, turn and hand as a fan of cards (face down where the
//! viewer may not see them); the piles and what lies in the middle sit between them. A
//! [`Line`] says what just happened, cards drawn as cards, and is read out by screen readers.
//!
//! The game built the table (`cardroom_games::Game::table`): this module names no game.

use cardroom_games::{Card, Group, Line, Mark, Part, Pile, Rank, Seat, Suit, Table, TableSeat};
use maud::{Markup, html};

/// How many cards of a face-up pile are drawn: the top ones; the rest are counted.
const PILE_SHOWN: usize = 8;

/// A card's name for a screen reader: `10 of hearts`, `queen of spades`.
fn card_name(card: Card) -> String {
    let rank = match card.rank() {
        Rank::Jack => "jack",
        Rank::Queen => "queen",
        Rank::King => "king",
        Rank::Ace => "ace",
        other => other.symbol(),
    };
    let suit = match card.suit() {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    };
    format!("{rank} of {suit}")
}

/// One card face up: its rank and suit, red or black, named for screen readers.
pub(super) fn card(card: Card) -> Markup {
    let red = matches!(card.suit(), Suit::Diamonds | Suit::Hearts);
    html! {
        span.card.red[red] data-card=(card.code()) role="img" aria-label=(card_name(card)) {
            span.rank { (card.rank().symbol()) } span.suit { (card.suit().symbol()) }
        }
    }
}

/// Cards face up, in a row.
fn cards(list: &[Card]) -> Markup {
    html! { span.cards { @for c in list { (card(*c)) } } }
}

/// A seat's name as the pages call it: its bot's, else `seat N`.
fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).filter(|n| !n.is_empty()).cloned().unwrap_or_else(|| seat.to_string())
}

/// A line about the table: words, seats by name, cards as cards.
pub(super) fn line(names: &[String], line: &Line) -> Markup {
    html! {
        @for part in &line.parts {
            @match part {
                Part::Text(text) => (text),
                Part::Seat(seat) => span.who data-seat=(seat.0) { (name(names, *seat)) },
                Part::Cards(list) => (cards(list)),
            }
        }
    }
}

/// What just happened, in one line: each event's, in order. The pages read it out to screen
/// readers: `replay.js` copies it into the replay's live region, and a live match's events
/// are a log.
fn happened(names: &[String], lines: &[Line]) -> Markup {
    html! {
        p.line {
            @if lines.is_empty() { "The table now" }
            @for (i, l) in lines.iter().enumerate() {
                @if i > 0 { "; " }
                (line(names, l))
            }
            "."
        }
    }
}

/// The cards of a person's own hand that act when clicked (the pages' seat): each card with
/// its control, which draws the card.
pub(super) struct Clickable<'a> {
    pub(super) seat: Seat,
    pub(super) cards: &'a [(Card, Markup)],
}

/// A hand as a fan: the cards face up, then the rest face down; a card with a control in
/// `clickable` is drawn as that control.
fn fan(names: &[String], row: &TableSeat, clickable: Option<&Clickable<'_>>) -> Markup {
    // A person's own seat (the pages' seat, whose cards it plays) is theirs.
    let own = clickable.filter(|k| k.seat == row.seat);
    let control =
        |c: &Card| own?.cards.iter().find(|(card, _)| card == c).map(|(_, control)| control);
    let hand = &row.hand;
    let whose = match own {
        Some(_) => "your".to_owned(),
        None => format!("{}'s", name(names, row.seat)),
    };
    let mut label = format!("{whose} hand, {} cards", hand.len());
    if hand.hidden > 0 {
        label.push_str(&format!(", {} face down", hand.hidden));
    }
    html! {
        div.hand.fan data-seat=(row.seat.0) data-hidden=(hand.hidden) aria-label=(label) {
            @for c in &hand.shown {
                @if let Some(control) = control(c) { (control) }
                @else if hand.drawn == Some(*c) { span.drawn title="just taken" { (card(*c)) } }
                @else { (card(*c)) }
            }
            @for _ in 0..hand.hidden { span.card.back aria-hidden="true" {} }
            @if hand.is_empty() { span.none { "no cards" } }
        }
    }
}

/// A pile: its label and count, and its top cards face up (or its back).
fn pile(pile: &Pile) -> Markup {
    let shown = &pile.top[pile.top.len().saturating_sub(PILE_SHOWN)..];
    html! {
        div.pile data-pile=(pile.label) data-count=(pile.count) {
            span.label { (pile.label) " " span.count { (pile.count) } }
            span.stack {
                @if shown.is_empty() {
                    @if pile.count > 0 { span.card.back aria-hidden="true" {} }
                    @else { span.none { "empty" } }
                } @else {
                    @if shown.len() < pile.count { span.more { "…" } }
                    @for (i, c) in shown.iter().enumerate() {
                        @if i + 1 == shown.len() { span.top { (card(*c)) } } @else { (card(*c)) }
                    }
                }
            }
        }
    }
}

/// A seat: its name and marks, its figures, its hand, its own piles and notes.
fn seat(names: &[String], row: &TableSeat, clickable: Option<&Clickable<'_>>) -> Markup {
    html! {
        div.seat data-seat=(row.seat.0) data-turn[row.to_act] data-out[row.out] {
            div.who {
                span.name { (name(names, row.seat)) }
                " " span.number { "(" (row.seat) ")" }
                @if row.dealer { " " span.dealer title="the dealer" { "dealer" } }
                @if row.to_act { " " span.turn { "to play" } }
                @if let Some(place) = row.place { " " span.place { (super::ordinal(place)) } }
            }
            dl.figures {
                @for f in &row.figures { div { dt { (f.label) } dd { (f.value) } } }
            }
            (fan(names, row, clickable))
            @if !row.piles.is_empty() {
                div.piles { @for p in &row.piles { (pile(p)) } }
            }
            @for note in &row.notes { span.note { (note) } }
        }
    }
}

/// A group of cards in the middle: whose (unless the group before was the same seat's), what,
/// the cards and any added to them.
fn group(names: &[String], g: &Group, same_seat: bool) -> Markup {
    let mark = match g.mark {
        Mark::Ahead => "ahead",
        Mark::Won => "won",
        Mark::Lost => "lost",
        Mark::None => "none",
    };
    html! {
        div.group data-mark=(mark) data-seat=[g.seat.map(|s| s.0)] {
            @if let Some(s) = g.seat.filter(|_| !same_seat) { span.who { (name(names, s)) } " " }
            @if !g.label.is_empty() { span.label { (g.label) } " " }
            (cards(&g.cards))
            @if !g.added.is_empty() { span.added title="laid off" { "+ " (cards(&g.added)) } }
            @if let Some(note) = &g.note { " " span.mark { (note) } }
        }
    }
}

/// The table as `names` call its seats, with what just happened (`lines`).
pub(super) fn draw(table: &Table, names: &[String], lines: &[Line]) -> Markup {
    draw_for(table, names, lines, None)
}

/// [`draw`], with the cards of `clickable` drawn as their controls.
pub(super) fn draw_for(
    table: &Table,
    names: &[String],
    lines: &[Line],
    clickable: Option<&Clickable<'_>>,
) -> Markup {
    // The seats go round the felt: the first half along the top, the rest back along the
    // bottom, so that each sits beside the next.
    let top = table.seats.len().div_ceil(2);
    let (upper, lower) = table.seats.split_at(top);
    html! {
        (happened(names, lines))
        div.felt data-over[table.over] {
            div.table-head {
                strong { (table.title) }
                @for f in &table.figures { " · " (f.label) " " (f.value) }
                @if table.over { " · " strong { "over" } }
            }
            div.seats.upper { @for row in upper { (seat(names, row, clickable)) } }
            div.middle {
                div.piles { @for p in &table.piles { (pile(p)) } }
                @for area in &table.centre {
                    div.area {
                        h4 { (line(names, &area.title)) }
                        @for (i, g) in area.groups.iter().enumerate() {
                            (group(names, g, i > 0 && area.groups[i - 1].seat == g.seat))
                        }
                    }
                }
            }
            div.seats.lower { @for row in lower.iter().rev() { (seat(names, row, clickable)) } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardroom_games::{Game, Perspective, gin};

    #[test]
    fn a_table_draws_names_turns_face_down_cards_and_the_piles_top() {
        let state = gin::State::new(gin::Options::default(), 7).unwrap();
        let table = state.table(Perspective::Spectator);
        let names = ["<b>north</b>".to_owned(), String::new()];
        let html = draw(&table, &names, &[Line::new().seat(Seat(0)).text(" deals")]).into_string();
        assert!(html.contains("&lt;b&gt;north"), "names are escaped: {html}");
        assert!(html.contains(">seat 1<"), "a seat with no name is its number: {html}");
        assert_eq!(html.matches("card back").count(), 20 + 1, "both hands and the stock");
        let upcard = state.discard_pile()[0].card;
        let top = format!(
            r#"<span class="top"><span class="card{}" data-card="{}""#,
            if matches!(upcard.suit(), Suit::Diamonds | Suit::Hearts) { " red" } else { "" },
            upcard.code()
        );
        assert!(html.contains(&top), "{html}");
        assert_eq!(html.matches("data-turn").count(), 1);
        assert_eq!(card_name("QS".parse().unwrap()), "queen of spades");
    }

    /// Hold'em's table: each seat's chips and bet, the pot and the blinds, the board as cards,
    /// and for a seat its own two hole cards only.
    #[test]
    fn a_holdem_table_draws_chips_bets_the_pot_and_the_board() {
        use cardroom_games::holdem::{Action, Options, State};
        let mut state = State::new(Options::default(), 4, 3).unwrap();
        // Everyone calls to the flop.
        while state.betting().street == cardroom_games::holdem::Street::Preflop {
            let seat = state.to_act().unwrap();
            let legal = state.legal_actions();
            let action = if legal.contains(&Action::Call) { Action::Call } else { Action::Check };
            state.apply(seat, action).unwrap();
        }
        let names = vec![String::new(); 4];
        let spectator = draw(&state.table(Perspective::Spectator), &names, &[]).into_string();
        for figure in ["pot", "chips", "big blind"] {
            assert!(spectator.contains(figure), "{figure}: {spectator}");
        }
        assert!(spectator.contains("pot 8 "), "the pot of four big blinds: {spectator}");
        for card in state.board() {
            assert!(spectator.contains(&format!("data-card=\"{}\"", card.code())), "{card}");
        }
        assert_eq!(spectator.matches("card back").count(), 8, "four hands face down");
        let seat = state.to_act().unwrap();
        let own = draw(&state.table(Perspective::Seat(seat)), &names, &[]).into_string();
        for card in state.hole_cards(seat) {
            assert!(own.contains(&format!("data-card=\"{}\"", card.code())), "{card}");
        }
        assert_eq!(own.matches("card back").count(), 6, "the three other hands face down");
    }
}

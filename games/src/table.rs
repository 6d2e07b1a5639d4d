//! [`Table`]: the table as people see it, whatever the game, and [`Line`], a sentence about it.
//! Each game builds them (`<game>/table.rs`); the pages draw them without knowing the game.

use std::fmt;

use serde::Serialize;

use crate::card::Card;
use crate::seat::Seat;

/// Whose eyes a [`Table`] is drawn for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Perspective {
    /// A spectator: the public view alone (TT-24, GR-15). A live match is drawn so.
    Spectator,
    /// One seat: the public view and that seat's own cards, as its observation holds them. A
    /// person playing at the seat sees this, their controls beside their seat.
    Seat(Seat),
    /// Every hand face up: the replay of a finished match, whose record reveals them.
    Everyone,
}

impl Perspective {
    /// The seat whose eyes these are, for one seat's table.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Perspective::Seat(seat) => Some(seat),
            Perspective::Spectator | Perspective::Everyone => None,
        }
    }
}

/// A match at one moment, as one viewer sees it, whatever the game: the seats with their
/// hands, figures and turn, the piles, and what lies in the middle. Each game builds it from
/// what one viewer may see ([`Game::public_table`], [`Game::seat_table`]) and says each event
/// as a [`Line`] ([`Game::event_line`]); the pages draw both without knowing the game.
///
/// A table is drawn for a [`Perspective`]: a spectator's (the public view alone), one seat's
/// (its observation: its own cards face up), or everyone's (a finished match's replay, every
/// hand face up). A card a viewer may not see is never in the table built for it: a hand holds
/// only a count of such cards, a pile only its count. The names of the seats' bots are no part
/// of it; the pages put them in the [`Seat`] slots.
///
/// Chips, bets and a pot are [`Figure`]s (a seat's or the table's), and a seat's table
/// ([`Perspective::Seat`]) tells the page where that seat's controls go.
///
/// ```
/// use cardroom_games::{Game, Perspective, Seat, gin};
///
/// let state = gin::State::new(gin::Options::default(), 7).unwrap();
/// let spectator = state.table(Perspective::Spectator);
/// // GR-16: a spectator sees no card of either hand, only how many there are.
/// assert!(spectator.seats.iter().all(|s| s.hand.shown.is_empty() && s.hand.hidden == 10));
/// let north = state.table(Perspective::Seat(Seat(0)));
/// assert_eq!(north.seats[0].hand.shown.len(), 10);
/// assert_eq!(north.seats[1].hand.shown.len(), 0);
/// // The upcard is on the discard pile, face up, for everybody (GR-4).
/// let upcard = state.discard_pile().last().unwrap().card;
/// assert_eq!(spectator.pile("discard pile").unwrap().top, [upcard]);
/// ```
///
/// [`Game::public_table`]: crate::Game::public_table
/// [`Game::seat_table`]: crate::Game::seat_table
/// [`Game::event_line`]: crate::Game::event_line
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Whose eyes these are.
    pub perspective: Perspective,
    /// Where the match is, such as `Hand 3` or `Deal 2`.
    pub title: String,
    /// Figures of the whole table: a knock limit, the cards dealt, a pot.
    pub figures: Vec<Figure>,
    /// Every seat, in seat order.
    pub seats: Vec<TableSeat>,
    /// The piles in the middle: a stock, a discard pile, the cards out of play.
    pub piles: Vec<Pile>,
    /// What lies in the middle, each part with its title: a trick, the melds laid at a knock,
    /// the last cards of a deal.
    pub centre: Vec<Area>,
    /// Whether the match is over.
    pub over: bool,
}

impl Table {
    /// The seat whose turn it is, if any.
    pub fn to_act(&self) -> Option<Seat> {
        self.seats.iter().find(|s| s.to_act).map(|s| s.seat)
    }

    /// The pile of the middle labelled `label`.
    pub fn pile(&self, label: &str) -> Option<&Pile> {
        self.piles.iter().find(|p| p.label == label)
    }

    /// Every card face up anywhere on the table, each as often as it shows.
    pub fn face_up(&self) -> Vec<Card> {
        let seats = self
            .seats
            .iter()
            .flat_map(|s| s.hand.shown.iter().chain(s.piles.iter().flat_map(|p| &p.top)));
        let piles = self.piles.iter().flat_map(|p| &p.top);
        let centre = self.centre.iter().flat_map(|a| {
            a.title.named().chain(a.groups.iter().flat_map(|g| g.cards.iter().chain(&g.added)))
        });
        seats.chain(piles).chain(centre).copied().collect()
    }
}

/// One seat at the table. Its bot's name is the page's to fill in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableSeat {
    /// The seat.
    pub seat: Seat,
    /// Whether it is this seat's turn.
    pub to_act: bool,
    /// Whether it dealt the current deal or hand.
    pub dealer: bool,
    /// Whether it is out of the match (eliminated).
    pub out: bool,
    /// Its final place once the match is over (1 is first).
    pub place: Option<u8>,
    /// Its figures: a score, hands won, the deadwood of a hand in view, chips, a bet.
    pub figures: Vec<Figure>,
    /// Its hand.
    pub hand: Hand,
    /// Its own piles: penalty cards, cards won, its exchange discards.
    pub piles: Vec<Pile>,
    /// Short notes, such as `exchanged 2`.
    pub notes: Vec<String>,
}

/// A hand as a fan of cards: those the viewer sees face up, then the rest face down.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Hand {
    /// The cards face up, in the order the game lays them out.
    pub shown: Vec<Card>,
    /// How many cards are face down.
    pub hidden: usize,
    /// A card of `shown` to point out: the one just drawn or taken.
    pub drawn: Option<Card>,
}

impl Hand {
    /// Cards in the hand, face up or down.
    pub fn len(&self) -> usize {
        self.shown.len() + self.hidden
    }

    /// Whether the hand holds no card.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A pile: how many cards it holds and which of them show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pile {
    /// What it is, such as `stock` or `discard pile`.
    pub label: String,
    /// Cards in it.
    pub count: usize,
    /// The cards that show, the top last; none for a face-down pile.
    pub top: Vec<Card>,
}

impl Pile {
    /// A pile of `count` cards face down.
    pub fn face_down(label: &str, count: usize) -> Pile {
        Pile { label: label.to_owned(), count, top: Vec::new() }
    }

    /// A pile whose every card shows, the top last.
    pub fn face_up(label: &str, cards: Vec<Card>) -> Pile {
        Pile { label: label.to_owned(), count: cards.len(), top: cards }
    }
}

/// A number with its label: a score, a knock limit, chips.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// What it counts, such as `score`.
    pub label: String,
    /// Its value.
    pub value: i64,
}

impl Figure {
    /// The figure `label` of `value`.
    pub fn new(label: &str, value: impl Into<i64>) -> Figure {
        Figure { label: label.to_owned(), value: value.into() }
    }
}

/// A part of the middle of the table, with its title: a trick, a knock's melds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Area {
    /// What it shows, such as `Trick 3` or `seat 0 knocks`.
    pub title: Line,
    /// Its groups of cards.
    pub groups: Vec<Group>,
}

/// Cards that lie together: one seat's play to a trick, a meld, a deadwood.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// Whose cards they are, if one seat's.
    pub seat: Option<Seat>,
    /// What they are, such as `meld` or `deadwood 4`; empty when the seat says it all.
    pub label: String,
    /// The cards.
    pub cards: Vec<Card>,
    /// Cards another seat added to them: the layoffs on a knocker's meld.
    pub added: Vec<Card>,
    /// How the group stands, for the eye.
    pub mark: Mark,
    /// The same in words, such as `strongest so far`.
    pub note: Option<String>,
}

impl Group {
    /// `cards`, with `label`, of no seat in particular, unmarked.
    pub fn new(label: &str, cards: Vec<Card>) -> Group {
        Group {
            seat: None,
            label: label.to_owned(),
            cards,
            added: Vec::new(),
            mark: Mark::None,
            note: None,
        }
    }
}

/// How a [`Group`] stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Nothing to point out.
    None,
    /// Ahead so far: the strongest play of a trick under way.
    Ahead,
    /// It won: the play that took a trick, a hand's winner.
    Won,
    /// It lost: the card that lost a deal.
    Lost,
}

/// A sentence about the table, such as `seat 1 plays 7♠ 7♦`: text, seats and cards, so that a
/// page can put a bot's name for a seat and draw the cards as cards. Its [`Display`] writes
/// seats as `seat 1` and cards as `7♠`.
///
/// [`Display`]: fmt::Display
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Line {
    /// Its parts, in order.
    pub parts: Vec<Part>,
}

/// A part of a [`Line`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Words.
    Text(String),
    /// A seat, for its name.
    Seat(Seat),
    /// Cards, separated by spaces when written.
    Cards(Vec<Card>),
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line::default()
    }

    /// The line with `text` added.
    pub fn text(mut self, text: impl AsRef<str>) -> Line {
        let text = text.as_ref();
        if text.is_empty() {
            return self;
        }
        match self.parts.last_mut() {
            Some(Part::Text(last)) => last.push_str(text),
            _ => self.parts.push(Part::Text(text.to_owned())),
        }
        self
    }

    /// The line with `seat` added.
    pub fn seat(mut self, seat: Seat) -> Line {
        self.parts.push(Part::Seat(seat));
        self
    }

    /// The line with `cards` added (nothing for none).
    pub fn cards(mut self, cards: impl IntoIterator<Item = Card>) -> Line {
        let cards: Vec<Card> = cards.into_iter().collect();
        if !cards.is_empty() {
            self.parts.push(Part::Cards(cards));
        }
        self
    }

    /// The line with the parts of `other` added.
    pub fn then(mut self, other: Line) -> Line {
        for part in other.parts {
            self = match part {
                Part::Text(text) => self.text(text),
                part => {
                    self.parts.push(part);
                    self
                }
            };
        }
        self
    }

    /// The cards the line names.
    pub fn cards_named(&self) -> impl Iterator<Item = Card> + '_ {
        self.named().copied()
    }

    fn named(&self) -> impl Iterator<Item = &Card> + '_ {
        self.parts.iter().flat_map(|part| match part {
            Part::Cards(cards) => cards.as_slice(),
            Part::Text(_) | Part::Seat(_) => &[],
        })
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in &self.parts {
            match part {
                Part::Text(text) => f.write_str(text)?,
                Part::Seat(seat) => write!(f, "{seat}")?,
                Part::Cards(cards) => {
                    for (i, card) in cards.iter().enumerate() {
                        let sep = if i == 0 { "" } else { " " };
                        write!(f, "{sep}{card}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    #[test]
    fn a_line_writes_seats_and_cards_as_the_transcripts_do() {
        let cards = parse_cards("7S 7D").unwrap();
        let line =
            Line::new().seat(Seat(1)).text(" plays ").cards(cards.clone()).text("").text("!");
        assert_eq!(line.to_string(), "seat 1 plays 7♠ 7♦!");
        assert_eq!(line.parts.len(), 4, "adjacent words join: {line:?}");
        assert_eq!(line.cards_named().collect::<Vec<_>>(), cards);
        let joined = Line::new().text("a ").then(Line::new().text("b ").seat(Seat(0)));
        assert_eq!(joined.to_string(), "a b seat 0");
        assert_eq!(joined.parts.len(), 2);
    }
}

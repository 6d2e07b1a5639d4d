//! The text harness (issue 46): a seat's turn as plain text, as a person or a language model
//! reads it, and a reply in the same words read back as one of the legal actions.
//!
//! One form serves every game. The text is drawn from the seat's [`Table`], which holds
//! nothing the seat may not see, from [`Line`]s of what happened since its last turn, and
//! from the legal actions' own words (their `Display`), numbered from 1:
//!
//! ```text
//! Hand 1
//! - seat 0 (you): 2♣ 3♣ 4♣ 7♦ 9♥ J♠ …; score 0
//! - seat 1: 10 cards face down; score 0; to act
//! - stock: 31 cards face down
//! - discard pile: 1 card, showing K♥
//! Your turn. Legal actions:
//! 1. take the upcard
//! 2. pass
//! Reply with one action's number or its words: "1" or "take the upcard", say.
//! ```
//!
//! A reply is an action's number (`2`, `#2`, `2.`), its words (`pass`), or both (`2. pass`,
//! which must agree). A number that comes first is the action's number; a number after words
//! is a word (Hold'em's `raise to 37`). Words may be shortened to a prefix (`exch 2c 3d`), cards written as
//! codes or symbols in any case (`7d`, `7D`, `7♦`, `10h`, `TH`), and a card group in any
//! order. The reply names the action whose words hold every word of the reply, whose cards
//! hold every card of it and whose bracketed groups (a Gin Rummy meld) hold each of its
//! groups; among several, the one whose cards are exactly the reply's, then the one with the
//! most whole words. A reply that names none, or several equally, is
//! refused with [`ReplyError`], which says why in words meant for the one who replied.

use std::fmt::{Display, Write as _};

use crate::card::Card;
use crate::table::{Area, Line, Perspective, Table, TableSeat};

/// The most of a reply an error repeats, in bytes.
const ECHO_BYTES: usize = 64;

/// The most legal actions an error lists.
const LISTED: usize = 12;

/// Why a reply names no single legal action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// The reply holds nothing.
    #[error("the reply is empty: answer with one action's number (1 to {count}) or its words")]
    Empty {
        /// Legal actions.
        count: usize,
    },
    /// No action is legal: it is not the seat's turn.
    #[error("no action is legal now: it is not your turn")]
    NotYourTurn,
    /// A number out of the list.
    #[error("there is no action {number}: the actions are numbered 1 to {count}")]
    NoSuchNumber {
        /// The number given.
        number: String,
        /// Legal actions.
        count: usize,
    },
    /// A word that is neither a card nor a word of any legal action.
    #[error("{word:?} is neither a card (such as 7♦ or 7d) nor a word of any legal action")]
    UnknownWord {
        /// The word, as given (at most 64 bytes).
        word: String,
    },
    /// Words and cards that fit no legal action.
    #[error("no legal action is {reply:?}; the legal actions are: {listed}")]
    NoMatch {
        /// The reply (at most 64 bytes).
        reply: String,
        /// The legal actions, numbered.
        listed: String,
    },
    /// Words and cards that fit several legal actions equally.
    #[error(
        "{reply:?} fits {count} legal actions: {listed}; give its number, or more of its words \
         or cards"
    )]
    Ambiguous {
        /// The reply (at most 64 bytes).
        reply: String,
        /// How many it fits.
        count: usize,
        /// Those it fits, numbered.
        listed: String,
    },
    /// A number and words that name different actions.
    #[error("action {number} is \"{action}\", which is not {words:?}")]
    Disagrees {
        /// The number given.
        number: usize,
        /// That action's words.
        action: String,
        /// The rest of the reply (at most 64 bytes).
        words: String,
    },
}

/// A seat's turn as plain text: its table, `recent` (what happened since its last turn, one
/// line each), and the legal actions numbered from 1 with how to answer. With no legal action
/// it says whose turn it is instead.
pub fn turn_text<A: Display>(table: &Table, recent: &[Line], legal: &[A]) -> String {
    let mut out = table_text(table);
    if !recent.is_empty() {
        out.push_str("Since your last turn:\n");
        for line in recent {
            let _ = writeln!(out, "- {line}");
        }
    }
    if legal.is_empty() {
        match table.to_act() {
            Some(seat) => {
                let _ = writeln!(out, "Not your turn: {seat} is to act.");
            }
            None => out.push_str("Nobody is to act.\n"),
        }
        return out;
    }
    out.push_str("Your turn. Legal actions:\n");
    list_actions(legal, &mut out);
    let _ = writeln!(
        out,
        "Reply with one action's number or its words: \"1\" or \"{}\", say.",
        legal[0]
    );
    out
}

/// A legal action, or a run of them, as a person picks it: the text form lists each on a line,
/// and the web pages' seat draws each as a control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// One action.
    One {
        /// Its number in the list, from 1: a reply may be just that.
        number: usize,
        /// Its words (its `Display`).
        words: String,
        /// The cards its words name, in order.
        cards: Vec<Card>,
    },
    /// Three or more actions whose words differ only in a last whole number that counts up by
    /// one (Hold'em's raise sizes): `head` then one of `low..=high`, numbered `first` on.
    Run {
        /// The first one's number in the list, from 1.
        first: usize,
        /// The words before the number, such as `raise to`.
        head: String,
        /// The first one's number in its words.
        low: u64,
        /// The last one's.
        high: u64,
    },
}

/// The legal actions as [`Choice`]s, in the list's order.
pub fn choices<A: Display>(legal: &[A]) -> Vec<Choice> {
    let words: Vec<String> = legal.iter().map(ToString::to_string).collect();
    let split = |text: &str| {
        let (head, number) = text.rsplit_once(' ')?;
        Some((head.to_owned(), number.parse::<u64>().ok()?))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if let Some((head, low)) = split(&words[i]) {
            let run = words[i..]
                .iter()
                .zip(low..)
                .take_while(|(text, n)| split(text) == Some((head.clone(), *n)))
                .count();
            if run >= 3 {
                out.push(Choice::Run { first: i + 1, head, low, high: low + run as u64 - 1 });
                i += run;
                continue;
            }
        }
        let cards = Said::read(&words[i]).cards;
        out.push(Choice::One { number: i + 1, words: words[i].clone(), cards });
        i += 1;
    }
    out
}

/// The legal actions numbered from 1, one a line. A run ([`Choice::Run`]) is one line:
/// `3-199. raise to 4, 5, … 200 (one action for each number)`.
fn list_actions<A: Display>(legal: &[A], out: &mut String) {
    for choice in choices(legal) {
        let _ = match choice {
            Choice::One { number, words, .. } => writeln!(out, "{number}. {words}"),
            Choice::Run { first, head, low, high } => writeln!(
                out,
                "{first}-{}. {head} {low}, {}, … {high} (one action for each number)",
                first as u64 + high - low,
                low + 1
            ),
        };
    }
}

/// The table as plain text, one line each for the table's title and figures, each seat, each
/// pile and each part of the middle. A seat's own table says which seat is "you".
pub fn table_text(table: &Table) -> String {
    let mut out = String::new();
    out.push_str(&table.title);
    if table.over {
        out.push_str(" (the match is over)");
    }
    out.push('\n');
    if !table.figures.is_empty() {
        let figures: Vec<String> =
            table.figures.iter().map(|f| format!("{} {}", f.label, f.value)).collect();
        let _ = writeln!(out, "{}", figures.join(", "));
    }
    for seat in &table.seats {
        let _ = writeln!(out, "- {}", seat_text(seat, table.perspective));
    }
    for pile in &table.piles {
        let _ = writeln!(out, "- {}", pile_text(&pile.label, pile.count, &pile.top));
    }
    for area in &table.centre {
        let _ = writeln!(out, "{}", area_text(area));
    }
    out
}

fn seat_text(seat: &TableSeat, perspective: Perspective) -> String {
    let mut parts = Vec::new();
    let hand = &seat.hand;
    let mut held = cards_text(&hand.shown);
    if hand.hidden > 0 {
        let down = plural(hand.hidden, "card");
        held = if hand.shown.is_empty() {
            format!("{down} face down")
        } else {
            format!("{held} and {down} face down")
        };
    } else if hand.is_empty() {
        held = "no cards".to_owned();
    }
    if let Some(drawn) = hand.drawn {
        held = format!("{held} (just took {drawn})");
    }
    parts.push(held);
    parts.extend(seat.figures.iter().map(|f| format!("{} {}", f.label, f.value)));
    parts.extend(seat.piles.iter().map(|p| pile_text(&p.label, p.count, &p.top)));
    parts.extend(seat.notes.iter().cloned());
    if seat.dealer {
        parts.push("dealer".to_owned());
    }
    if seat.out {
        parts.push("out".to_owned());
    }
    if let Some(place) = seat.place {
        parts.push(format!("place {place}"));
    }
    if seat.to_act {
        parts.push("to act".to_owned());
    }
    let you = if perspective == Perspective::Seat(seat.seat) { " (you)" } else { "" };
    format!("{}{you}: {}", seat.seat, parts.join("; "))
}

fn pile_text(label: &str, count: usize, top: &[Card]) -> String {
    if top.is_empty() {
        return format!("{label}: {} face down", plural(count, "card"));
    }
    let showing = if top.len() == count {
        cards_text(top)
    } else {
        format!("{}, showing {}", plural(count, "card"), cards_text(top))
    };
    if top.len() > 1 {
        format!("{label}: {showing} (top last)")
    } else {
        format!("{label}: {showing}")
    }
}

fn area_text(area: &Area) -> String {
    let groups: Vec<String> = area
        .groups
        .iter()
        .map(|group| {
            let mut text = String::new();
            if let Some(seat) = group.seat {
                let _ = write!(text, "{seat} ");
            }
            if !group.label.is_empty() {
                let _ = write!(text, "{} ", group.label);
            }
            text.push_str(&cards_text(&group.cards));
            if !group.added.is_empty() {
                let _ = write!(text, " + {}", cards_text(&group.added));
            }
            if let Some(note) = &group.note {
                let _ = write!(text, " ({note})");
            }
            text
        })
        .collect();
    if groups.is_empty() {
        area.title.to_string()
    } else {
        format!("{}: {}", area.title, groups.join("; "))
    }
}

fn cards_text(cards: &[Card]) -> String {
    crate::card::display_cards(cards)
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// A reply's parts: its number (a first token of digits), its cards and its words (lower
/// case, later numbers among them), and the cards it groups in brackets (`[7♦ 8♦ 9♦]`: a meld),
/// each group sorted.
#[derive(Debug, Default)]
struct Said {
    number: Option<String>,
    cards: Vec<Card>,
    words: Vec<String>,
    groups: Vec<Vec<Card>>,
}

impl Said {
    fn read(text: &str) -> Said {
        let mut said = Said::default();
        for (i, token) in tokens(text).enumerate() {
            let digits = token.chars().all(|c| c.is_ascii_digit());
            if digits && i == 0 {
                said.number = Some(token.to_owned());
            } else if digits {
                // A number after words is a word: a raise's size.
                said.words.push(token.to_owned());
            } else if let Ok(card) = token.parse::<Card>() {
                said.cards.push(card);
            } else {
                said.words.push(token.to_lowercase());
            }
        }
        for group in text.split('[').skip(1).filter_map(|rest| rest.split_once(']')) {
            let mut cards: Vec<Card> =
                tokens(group.0).filter_map(|token| token.parse::<Card>().ok()).collect();
            cards.sort();
            said.groups.push(cards);
        }
        said
    }

    fn is_empty(&self) -> bool {
        self.number.is_none() && self.cards.is_empty() && self.words.is_empty()
    }
}

/// A text's tokens: split at white space and at punctuation, `#` included.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(c, ',' | '.' | ';' | ':' | '!' | '?' | '#' | '"' | '\'')
            || matches!(c, '(' | ')' | '[' | ']' | '{' | '}' | '|' | '`' | '*')
    })
    .filter(|token| !token.is_empty())
}

/// How well an action fits a reply, when it fits at all: its cards exactly the reply's, then
/// the reply's words it holds whole.
fn fit(said: &Said, action: &Said) -> Option<(bool, usize)> {
    let mut whole = 0;
    for word in &said.words {
        if action.words.iter().any(|w| w == word) {
            whole += 1;
        } else if !action.words.iter().any(|w| w.starts_with(word.as_str())) {
            return None;
        }
    }
    let mut left = action.cards.clone();
    for card in &said.cards {
        let at = left.iter().position(|c| c == card)?;
        left.swap_remove(at);
    }
    if !said.groups.iter().all(|group| action.groups.contains(group)) {
        return None;
    }
    Some((left.is_empty(), whole))
}

/// At most [`ECHO_BYTES`] of `text`, cut at a character.
fn echo(text: &str) -> String {
    let text = text.trim();
    if text.len() <= ECHO_BYTES {
        return text.to_owned();
    }
    let mut end = ECHO_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// The actions at `indices` (from 0), numbered from 1, at most [`LISTED`].
fn listed<A: Display>(legal: &[A], indices: impl Iterator<Item = usize>) -> String {
    let indices: Vec<usize> = indices.collect();
    let mut list: Vec<String> =
        indices.iter().take(LISTED).map(|&i| format!("{}. {}", i + 1, legal[i])).collect();
    if indices.len() > LISTED {
        list.push(format!("and {} more", indices.len() - LISTED));
    }
    list.join("; ")
}

/// The legal action `reply` names (see the [module](self)'s docs for the form).
pub fn parse_reply<A: Display + Copy>(reply: &str, legal: &[A]) -> Result<A, ReplyError> {
    if legal.is_empty() {
        return Err(ReplyError::NotYourTurn);
    }
    let said = Said::read(reply);
    if said.is_empty() {
        return Err(ReplyError::Empty { count: legal.len() });
    }
    let number = match &said.number {
        None => None,
        Some(number) => {
            let index = number.parse::<usize>().ok().filter(|n| (1..=legal.len()).contains(n));
            let index = index.ok_or_else(|| ReplyError::NoSuchNumber {
                number: echo(number),
                count: legal.len(),
            })?;
            Some(index - 1)
        }
    };
    let actions: Vec<Said> = legal.iter().map(|a| Said::read(&a.to_string())).collect();
    if said.cards.is_empty() && said.words.is_empty() {
        return number.map(|i| legal[i]).ok_or(ReplyError::Empty { count: legal.len() });
    }
    if let Some(word) = said
        .words
        .iter()
        .find(|word| !actions.iter().any(|a| a.words.iter().any(|w| w.starts_with(word.as_str()))))
    {
        return Err(ReplyError::UnknownWord { word: echo(word) });
    }
    let fits: Vec<(usize, (bool, usize))> =
        actions.iter().enumerate().filter_map(|(i, a)| Some((i, fit(&said, a)?))).collect();
    if let Some(index) = number {
        if fits.iter().any(|(i, _)| *i == index) {
            return Ok(legal[index]);
        }
        let words: Vec<String> =
            said.cards.iter().map(Card::to_string).chain(said.words.iter().cloned()).collect();
        return Err(ReplyError::Disagrees {
            number: index + 1,
            action: legal[index].to_string(),
            words: echo(&words.join(" ")),
        });
    }
    let Some(best) = fits.iter().map(|(_, score)| *score).max() else {
        return Err(ReplyError::NoMatch {
            reply: echo(reply),
            listed: listed(legal, 0..legal.len()),
        });
    };
    let best: Vec<usize> = fits.iter().filter(|(_, s)| *s == best).map(|(i, _)| *i).collect();
    match best.as_slice() {
        [one] => Ok(legal[*one]),
        _ => Err(ReplyError::Ambiguous {
            reply: echo(reply),
            count: best.len(),
            listed: listed(legal, best.iter().copied()),
        }),
    }
}

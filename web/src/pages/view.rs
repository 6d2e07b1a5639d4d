//! An engine's JSON view drawn as HTML: objects as labelled lists, and every card (`AS`, `TH`,
//! `2C`) as a card, red or black by suit. The same drawing serves every game, so a new game's
//! views show without page code of their own.

use maud::{Markup, html};
use serde_json::Value;

/// Keys left out of a view: the rule set (shown once, not at every step) and the legal
/// actions (a seat's business).
const HIDDEN_KEYS: &[&str] = &["options", "legal_actions"];

/// A card's rank and suit as shown, and whether it is red; `None` if `text` is not a card.
fn card_face(text: &str) -> Option<(&'static str, char, bool)> {
    let mut chars = text.chars();
    let (rank, suit, rest) = (chars.next()?, chars.next()?, chars.next());
    if rest.is_some() {
        return None;
    }
    let rank = match rank {
        '2' => "2",
        '3' => "3",
        '4' => "4",
        '5' => "5",
        '6' => "6",
        '7' => "7",
        '8' => "8",
        '9' => "9",
        'T' => "10",
        'J' => "J",
        'Q' => "Q",
        'K' => "K",
        'A' => "A",
        _ => return None,
    };
    let (suit, red) = match suit {
        'C' => ('♣', false),
        'D' => ('♦', true),
        'H' => ('♥', true),
        'S' => ('♠', false),
        _ => return None,
    };
    Some((rank, suit, red))
}

/// One card, or the text itself if it is not a card.
pub(super) fn card(text: &str) -> Markup {
    match card_face(text) {
        Some((rank, suit, red)) => html! {
            span.card.red[red] title=(text) data-card=(text) { (rank) (suit) }
        },
        None => html! { (text) },
    }
}

/// A list of cards, or `—` for none.
pub(super) fn cards(list: &Value) -> Markup {
    match list.as_array() {
        Some(items) if !items.is_empty() => html! {
            span.cards { @for item in items { (value(item)) } }
        },
        Some(_) => html! { span.none { "—" } },
        None => value(list),
    }
}

fn label(key: &str) -> String {
    key.replace('_', " ")
}

/// Any JSON value.
pub(super) fn value(v: &Value) -> Markup {
    match v {
        Value::Null => html! { span.none { "—" } },
        Value::Bool(b) => html! { (if *b { "yes" } else { "no" }) },
        Value::Number(n) => html! { (n.to_string()) },
        Value::String(s) => card(s),
        Value::Array(items) if items.is_empty() => html! { span.none { "—" } },
        Value::Array(items)
            if items.iter().all(|i| i.as_str().is_some_and(|s| card_face(s).is_some())) =>
        {
            cards(v)
        }
        Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => html! {
            @for (i, item) in items.iter().enumerate() {
                @if i > 0 { ", " }
                (value(item))
            }
        },
        Value::Array(items) => html! {
            ol.nested { @for item in items { li { (value(item)) } } }
        },
        Value::Object(fields) => html! {
            dl.view {
                @for (key, field) in fields {
                    @if !HIDDEN_KEYS.contains(&key.as_str()) {
                        dt { (label(key)) }
                        dd data-key=(key) { (value(field)) }
                    }
                }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_drawn_and_nothing_else_is_taken_for_one() {
        assert_eq!(card_face("TH"), Some(("10", '♥', true)));
        assert_eq!(card_face("AS"), Some(("A", '♠', false)));
        for text in ["", "A", "ASS", "1H", "AX", "as"] {
            assert_eq!(card_face(text), None, "{text:?}");
        }
        let html =
            value(&serde_json::json!({"hand": ["2C", "KD"], "options": {"x": 1}})).into_string();
        assert!(html.contains(r#"data-card="KD""#), "{html}");
        assert!(!html.contains("options"), "{html}");
    }
}

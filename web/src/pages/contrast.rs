//! The style sheet's colours against WCAG 2's contrast ratio: every pair of a text colour and
//! what it sits on reaches AA's 4.5:1, every mark that is not text (the turn's border, a card's
//! edge against the felt) 3:1. (Borders and rules that only separate, such as a table's lines,
//! are left out.) The colours are the custom properties of `:root` in
//! `static/style.css`; the pairs are those the rules of that sheet set.

use std::collections::HashMap;

const STYLE: &str = include_str!("../../static/style.css");

/// Text and its background, by custom property: each pair some rule of the sheet sets.
const TEXT: &[(&str, &str)] = &[
    ("ink", "paper"),          // the pages
    ("muted", "paper"),        // `.none`
    ("ink", "current"),        // the step shown in the list
    ("card-ink", "card"),      // a black card
    ("card-red", "card"),      // a red card
    ("on-felt", "felt"),       // names, figures, titles on the table
    ("on-felt-muted", "felt"), // labels on the table
    ("on-felt", "felt-edge"),  // the darkest felt a seat's shade comes near
    ("ink", "turn"),           // `to play`, a group's mark
    ("on-nav", "nav"),         // the navigation
    ("note", "paper"),         // notes, a view's labels
    ("note", "plot"),          // a plot's labels
    ("error", "paper"),        // errors
    ("on-live", "live"),       // the `live` badge
];

/// Marks that are not text, and what they stand on.
const MARKS: &[(&str, &str)] = &[
    ("turn", "felt"),          // the seat to play, a trick's winner
    ("lost", "felt"),          // the card that lost a deal
    ("on-felt-muted", "felt"), // the strongest play so far
    ("card", "felt"),          // a card, face up or down, on the table
    ("card-edge", "card"),     // a card's edge in the page's lines
];

/// The `--name: #rrggbb` properties of `:root`.
fn palette() -> HashMap<String, [u8; 3]> {
    let root = STYLE.split(":root {").nth(1).and_then(|s| s.split('}').next()).unwrap_or("");
    root.split(';')
        .filter_map(|decl| {
            let (name, value) = decl.split_once(':')?;
            let hex = value.trim().strip_prefix('#')?;
            let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
            Some((
                name.trim().strip_prefix("--")?.to_owned(),
                [channel(0)?, channel(2)?, channel(4)?],
            ))
        })
        .collect()
}

/// WCAG 2's relative luminance of an sRGB colour.
fn luminance(rgb: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.040_45 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2])
}

/// WCAG 2's contrast ratio, from 1 to 21.
fn ratio(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[test]
fn the_tables_colours_pass_wcag_aa_contrast() {
    assert!((ratio([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
    assert!((ratio([118, 118, 118], [255, 255, 255]) - 4.54).abs() < 0.01, "#767676 on white");
    let palette = palette();
    let colour = |name: &str| *palette.get(name).unwrap_or_else(|| panic!("no --{name} in :root"));
    for (pairs, least) in [(TEXT, 4.5), (MARKS, 3.0)] {
        for (fore, back) in pairs {
            let r = ratio(colour(fore), colour(back));
            assert!(r >= least, "--{fore} on --{back}: {r:.2}:1, under {least}:1");
        }
    }
    // Every colour of the palette is in some pair.
    for name in palette.keys().filter(|n| !["back", "back-stripe"].contains(&n.as_str())) {
        assert!(
            TEXT.iter().chain(MARKS).any(|(f, b)| f == name || b == name),
            "--{name} is checked in no pair"
        );
    }
}

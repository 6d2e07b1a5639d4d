//! Human-readable events, for transcripts (`cardroom replay`).

use std::fmt;

use super::view::{Event, GoOut, HandEnd};

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::HandDealt { hand_number, dealer, upcard, knock_limit, multiplier } => {
                write!(
                    f,
                    "hand {hand_number}: {dealer} deals, upcard {upcard}, knock at {knock_limit}"
                )?;
                if *multiplier > 1 {
                    write!(f, ", scores ×{multiplier}")?;
                }
                Ok(())
            }
            Event::UpcardTaken { seat, card } => write!(f, "{seat} takes the upcard {card}"),
            Event::UpcardPassed { seat } => write!(f, "{seat} passes"),
            Event::DrewStock { seat } => write!(f, "{seat} draws from the stock"),
            Event::DrewDiscard { seat, card } => {
                write!(f, "{seat} takes {card} from the discard pile")
            }
            Event::Discarded { seat, card } => write!(f, "{seat} discards {card}"),
            Event::WentOut { seat, kind, melds, deadwood_cards, deadwood } => {
                let how = match kind {
                    GoOut::Knock => "knocks",
                    GoOut::Gin => "goes gin",
                    GoOut::BigGin => "goes big gin",
                };
                write!(f, "{seat} {how}: {melds}")?;
                if *deadwood > 0 {
                    write!(f, ", deadwood {deadwood} ({deadwood_cards})")?;
                }
                Ok(())
            }
            Event::LaidOut { seat, layout } => write!(f, "{seat} lays out: {layout}"),
            Event::HandEnded { result } => {
                write!(f, "hand {} ", result.hand_number)?;
                match (result.end, result.winner) {
                    (HandEnd::Wall, _) => f.write_str("is a draw at the wall")?,
                    (HandEnd::UpcardLimit, _) => f.write_str("is a draw: the upcard limit")?,
                    (HandEnd::Showdown(_), Some(winner)) => {
                        let how = if result.undercut { " by an undercut" } else { "" };
                        write!(f, "won by {winner}{how}, {} points", result.points)?;
                    }
                    (HandEnd::Showdown(_), None) => f.write_str("scores nothing")?,
                }
                write!(f, "; totals {} – {}", result.scores[0], result.scores[1])
            }
            Event::MatchOver { outcome } => {
                write!(f, "match over: totals {} – {}", outcome.totals[0], outcome.totals[1])?;
                match outcome.winner {
                    Some(winner) => write!(f, ", {winner} wins"),
                    None => f.write_str(", a tie"),
                }
            }
        }
    }
}

//! A match's final standings on the wire: the engine's places, with forfeited seats after
//! everyone else (docs/protocol.md, "Clocks, strikes and the default action").

use cardroom_games::{Seat, Standing};
use cardroom_proto::pb;

/// The final standings of a match of `forfeited.len()` seats. `engine` is the engine's
/// standings, or `None` for a match that did not finish (aborted, or ended by a forfeit):
/// then every seat shares first place before forfeits are counted. Seats that forfeited are
/// placed after every other seat, keeping their order and ties among themselves; places are
/// competition ranks (1, 1, 3).
pub(crate) fn final_standings(
    engine: Option<Vec<Standing>>,
    forfeited: &[bool],
) -> Vec<pb::Standing> {
    let engine = engine.unwrap_or_else(|| {
        (0..forfeited.len()).map(|i| Standing { place: 1, seat: Seat(i as u8) }).collect()
    });
    let has_forfeited = |s: &Standing| forfeited.get(s.seat.index()).copied().unwrap_or(false);
    let mut out: Vec<pb::Standing> = Vec::with_capacity(engine.len());
    for group in [false, true] {
        let members: Vec<&Standing> = engine.iter().filter(|s| has_forfeited(s) == group).collect();
        let offset = out.len() as u32;
        for (i, s) in members.iter().enumerate() {
            let place = match (i, out.last()) {
                (0, _) => offset + 1,
                (_, Some(prev)) if members[i - 1].place == s.place => prev.place,
                _ => offset + i as u32 + 1,
            };
            out.push(pb::Standing { seat: u32::from(s.seat.0), place, forfeited: group });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's standings from (seat, place) pairs, best first.
    fn engine(places: &[(u8, u8)]) -> Option<Vec<Standing>> {
        Some(places.iter().map(|&(seat, place)| Standing { place, seat: Seat(seat) }).collect())
    }

    /// (seat, place, forfeited) of each standing, in order.
    fn check(engine: Option<Vec<Standing>>, forfeited: &[bool], expect: &[(u32, u32, bool)]) {
        let got: Vec<(u32, u32, bool)> = final_standings(engine, forfeited)
            .iter()
            .map(|s| (s.seat, s.place, s.forfeited))
            .collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn without_forfeits_the_engine_decides() {
        check(
            engine(&[(2, 1), (0, 2), (1, 2), (3, 4)]),
            &[false; 4],
            &[(2, 1, false), (0, 2, false), (1, 2, false), (3, 4, false)],
        );
    }

    #[test]
    fn a_forfeited_winner_is_placed_last() {
        check(
            engine(&[(1, 1), (0, 2), (2, 3)]),
            &[false, true, false],
            &[(0, 1, false), (2, 2, false), (1, 3, true)],
        );
    }

    #[test]
    fn ties_survive_on_both_sides_of_the_forfeits() {
        check(
            engine(&[(0, 1), (1, 1), (2, 3), (3, 3), (4, 5)]),
            &[true, false, true, false, false],
            &[(1, 1, false), (3, 2, false), (4, 3, false), (0, 4, true), (2, 5, true)],
        );
    }

    #[test]
    fn an_unfinished_match_shares_first_place_except_the_forfeits() {
        // A Gin match ended by a forfeit: the other seat wins.
        check(None, &[true, false], &[(1, 1, false), (0, 2, true)]);
        // An aborted match with no forfeit: everyone first.
        check(None, &[false; 3], &[(0, 1, false), (1, 1, false), (2, 1, false)]);
        // Two forfeits of three: they share last place.
        check(None, &[true, false, true], &[(1, 1, false), (0, 2, true), (2, 2, true)]);
    }
}

//! Duplicate deals: the same deal played again with the bots in other seats, so that the luck
//! of the cards cancels out of the comparison.
//!
//! A *seating* maps each seat to a position in the table's list of bots. The deal itself is
//! named by its seed: every engine deals the same cards to the same seats from the same seed
//! (see `State::new` of each game), so moving the bots moves them onto each other's cards.

/// The seatings of one deal at a table of `table` seats: seating `j` puts the table's bot
/// `(seat + r_j) % table` in `seat`.
///
/// With `max_rotations` at least `table` (or `None`), every rotation is played: each bot sits
/// in every seat once and each seat holds every bot once (a Latin square). With fewer, `k`
/// rotations are spread evenly around the table (`r_j = j * table / k`), which keeps the
/// square balanced by rows: each bot plays `k` different seats and each seat holds `k`
/// different bots. Gin Rummy (`table == 2`) gets both seats.
pub fn rotations(table: usize, max_rotations: Option<usize>) -> Vec<Vec<usize>> {
    if table == 0 {
        return Vec::new();
    }
    let k = max_rotations.map_or(table, |max| max.clamp(1, table));
    (0..k)
        .map(|j| {
            let r = j * table / k;
            (0..table).map(|seat| (seat + r) % table).collect()
        })
        .collect()
}

/// A seed derived from a ladder's seed and a counter (SplitMix64), so that each deal of a
/// ladder has its own well-mixed seed and a restarted ladder derives the same ones.
pub fn derive_seed(seed: u64, counter: u64) -> u64 {
    let mut z = seed ^ counter.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_latin(rows: &[Vec<usize>], table: usize) -> bool {
        let rows_ok = rows.iter().all(|row| {
            let mut seen = vec![false; table];
            row.iter().all(|&b| !std::mem::replace(&mut seen[b], true))
        });
        let cols_ok = (0..table).all(|seat| {
            let mut seen = vec![false; table];
            rows.iter().all(|row| !std::mem::replace(&mut seen[row[seat]], true))
        });
        rows_ok && cols_ok
    }

    #[test]
    fn gin_plays_both_seats() {
        assert_eq!(rotations(2, None), vec![vec![0, 1], vec![1, 0]]);
    }

    #[test]
    fn full_rotation_is_a_latin_square() {
        for table in 2..=12 {
            let rows = rotations(table, None);
            assert_eq!(rows.len(), table);
            assert!(is_latin(&rows, table), "table {table}");
        }
    }

    #[test]
    fn subset_is_balanced() {
        // 12 seats, 4 rotations: offsets 0, 3, 6, 9.
        let rows = rotations(12, Some(4));
        assert_eq!(rows.len(), 4);
        assert_eq!(rows.iter().map(|row| row[0]).collect::<Vec<_>>(), vec![0, 3, 6, 9]);
        assert!(is_latin(&rows, 12) || rows.len() < 12);
        for bot in 0..12 {
            let mut seats: Vec<usize> =
                rows.iter().map(|row| row.iter().position(|&b| b == bot).unwrap()).collect();
            seats.sort_unstable();
            seats.dedup();
            assert_eq!(seats.len(), 4, "bot {bot} plays 4 different seats");
        }
    }

    #[test]
    fn seeds_differ_and_repeat() {
        assert_eq!(derive_seed(7, 3), derive_seed(7, 3));
        assert_ne!(derive_seed(7, 3), derive_seed(7, 4));
        assert_ne!(derive_seed(7, 3), derive_seed(8, 3));
    }
}

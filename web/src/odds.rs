//! How sure a leaderboard is: the chance that one bot is stronger than another, and the ranks
//! a bot may hold, from ratings with their uncertainty.
//!
//! Each rating is read as a normal belief `N(mean, sigma²)` about the bot's strength (as both
//! Glicko-2 and Weng-Lin keep it), so that `P(a > b) = Φ((μa − μb) / √(σa² + σb²))`.

/// The chance that a bot rated `(mean_a, sigma_a)` is stronger than one rated
/// `(mean_b, sigma_b)`.
pub(crate) fn better(mean_a: f64, sigma_a: f64, mean_b: f64, sigma_b: f64) -> f64 {
    let spread = (sigma_a * sigma_a + sigma_b * sigma_b).sqrt();
    if spread <= 0.0 {
        return match mean_a.total_cmp(&mean_b) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
    }
    normal_cdf((mean_a - mean_b) / spread)
}

/// The pairwise matrix: `m[i][j]` is the chance that bot `i` is stronger than bot `j`.
pub(crate) fn matrix(ratings: &[(f64, f64)]) -> Vec<Vec<f64>> {
    ratings
        .iter()
        .enumerate()
        .map(|(i, &(ma, sa))| {
            ratings
                .iter()
                .enumerate()
                .map(|(j, &(mb, sb))| if i == j { 0.5 } else { better(ma, sa, mb, sb) })
                .collect()
        })
        .collect()
}

/// Row `i`'s rank interval at 95%: best, one more than the bots surely stronger (`P > 97.5%`);
/// worst, one more than the bots not surely weaker.
pub(crate) fn rank_interval(matrix: &[Vec<f64>], i: usize) -> (usize, usize) {
    let others = (0..matrix.len()).filter(|&j| j != i);
    let surely_stronger = others.clone().filter(|&j| matrix[j][i] > 0.975).count();
    let maybe_stronger = others.filter(|&j| matrix[j][i] > 0.025).count();
    (1 + surely_stronger, 1 + maybe_stronger)
}

/// The standard normal distribution function.
fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1e-7 (Numerical Recipes' `erfcc`, a Chebyshev
/// fit).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_distribution_at_known_points() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
    }

    #[test]
    fn the_matrix_is_complementary_and_ranks_follow_it() {
        // Two bots far apart and one near the second.
        let m = matrix(&[(1900.0, 30.0), (1500.0, 40.0), (1480.0, 60.0)]);
        for (i, row) in m.iter().enumerate() {
            assert_eq!(row[i], 0.5);
            for (j, p) in row.iter().enumerate() {
                assert!((p + m[j][i] - 1.0).abs() < 1e-9, "{i} {j}");
            }
        }
        assert!(m[0][1] > 0.999);
        assert!(m[1][2] > 0.5 && m[1][2] < 0.975);
        assert_eq!(rank_interval(&m, 0), (1, 1));
        assert_eq!(rank_interval(&m, 1), (2, 3));
        assert_eq!(rank_interval(&m, 2), (2, 3));
        assert!((better(1.0, 0.0, 1.0, 0.0) - 0.5).abs() < 1e-12);
    }
}

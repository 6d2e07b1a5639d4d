//! Times as the pages (and the command line's tables) print them (tested in the cli crate's
//! `table` module, which re-exports it).

/// Milliseconds since the Unix epoch as a UTC time, `2026-12-01 12:30:00Z`.
pub fn utc_time(ms: i64) -> String {
    let seconds = ms.div_euclid(1_000);
    let (days, in_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Days to a civil date (Howard Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (hour, minute, second) = (in_day / 3_600, in_day % 3_600 / 60, in_day % 60);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02}Z")
}

//! Times as the pages (and the command line's tables) print them (tested in the cli crate's
//! `table` module, which re-exports it).

use time::OffsetDateTime;
use time::format_description::BorrowedFormatItem;
use time::macros::format_description;

/// How a time is printed: `2026-12-01 12:30:00Z`.
const UTC: &[BorrowedFormatItem<'_>] =
    format_description!("[year]-[month]-[day] [hour]:[minute]:[second]Z");

/// Milliseconds since the Unix epoch as a UTC time, `2026-12-01 12:30:00Z` (to the second,
/// rounded down); a time past the calendar's range (beyond the year 9999) as its milliseconds.
pub fn utc_time(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp(ms.div_euclid(1_000))
        .ok()
        .and_then(|time| time.format(UTC).ok())
        .unwrap_or_else(|| format!("{ms} ms since 1970"))
}

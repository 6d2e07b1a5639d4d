//! Human-readable events, for transcripts (`cardroom replay`) and the wire's `Event.text`: the
//! words of the event's line on the table (`table.rs`).

use std::fmt;

use super::view::Event;

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::table::event_line(self).fmt(f)
    }
}

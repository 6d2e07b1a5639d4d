//! [`Echo`]: what a client sent, quoted in a message without letting it grow the message or
//! reach a terminal raw.

/// The most bytes of a client's text a message repeats.
pub const ECHO_BYTES: usize = 64;

/// `text` as a message quotes it: in double quotes with control characters escaped (as Rust's
/// `{:?}` writes a string), cut to its first [`ECHO_BYTES`] bytes (at a character boundary),
/// followed by `…` and its length when longer. A 5,000-byte name sent to a server comes back
/// as 64 bytes and a count, never whole.
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a>(pub &'a str);

impl std::fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.0;
        if text.len() <= ECHO_BYTES {
            return write!(f, "{text:?}");
        }
        let mut end = ECHO_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{:?}… ({} bytes)", &text[..end], text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_cut() {
        assert_eq!(Echo("alice").to_string(), "\"alice\"");
        assert_eq!(Echo("v1\n\u{1b}[31mred").to_string(), "\"v1\\n\\u{1b}[31mred\"");
        let long = "é".repeat(2_500);
        let echoed = Echo(&long).to_string();
        assert!(echoed.ends_with("… (5000 bytes)"), "{echoed}");
        assert!(echoed.len() < 100, "{echoed}");
    }
}

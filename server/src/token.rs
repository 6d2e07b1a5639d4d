//! Unguessable identifiers: seat tokens and match ids.

/// 128 random bits from the operating system, as 32 hex digits.
pub fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    // The OS RNG failing is not recoverable for a server that hands out credentials.
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    hex::encode(bytes)
}

/// 64 random bits from the operating system: a match's seed when it did not ask for one.
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    u64::from_le_bytes(bytes)
}

/// Compares secrets in time that does not depend on where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_differ() {
        let a = random_hex();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, random_hex());
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &random_hex()));
        assert!(!same_secret("abc", "abcd"));
    }
}

//! Bot keys: 32 random bytes shown once, and the SHA-256 the store keeps instead.
//!
//! A key carries 256 bits from the operating system's generator, so a plain SHA-256 is the
//! right hash: a slow password hash (argon2, bcrypt) defends low-entropy secrets against
//! guessing, and no guess finds a 256-bit key. Hashes are compared in constant time.

use std::fmt;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The prefix of every key: it tells a reader (and a secret scanner) what the string is.
const PREFIX: &str = "crk_";

/// A bot's key, the secret itself: shown once when issued, never stored, never logged (its
/// `Debug` shows only that it is a key).
#[derive(Clone, PartialEq, Eq)]
pub struct BotKey(String);

impl BotKey {
    /// A new key: `crk_` and 32 random bytes in hex.
    pub fn generate() -> BotKey {
        BotKey::with_prefix(PREFIX)
    }

    /// A new secret of another kind, as a bot's key is made: `prefix` (`cra_` an author's
    /// token, `cri_` an invite code) and 32 random bytes in hex.
    pub fn with_prefix(prefix: &str) -> BotKey {
        let mut bytes = [0u8; 32];
        // The OS generator failing is not recoverable for a service that issues credentials.
        getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
        BotKey(format!("{prefix}{}", hex::encode(bytes)))
    }

    /// The key, to show its owner once.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Its hash, as the store keeps it.
    pub fn hash(&self) -> KeyHash {
        KeyHash::of(&self.0)
    }
}

impl fmt::Debug for BotKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BotKey(…)")
    }
}

/// The SHA-256 of a key: what the store keeps and looks keys up by.
#[derive(Copy, Clone, Debug, Eq)]
pub struct KeyHash(pub [u8; 32]);

impl KeyHash {
    /// The hash of a presented key (whatever its form: a malformed key hashes to something no
    /// bot has).
    pub fn of(key: &str) -> KeyHash {
        KeyHash(Sha256::digest(key.as_bytes()).into())
    }

    /// The hash from its 32 stored bytes; `None` if there are not 32.
    pub fn from_slice(bytes: &[u8]) -> Option<KeyHash> {
        bytes.try_into().ok().map(KeyHash)
    }
}

impl PartialEq for KeyHash {
    /// In constant time: how long a comparison takes says nothing of where hashes differ.
    fn eq(&self, other: &KeyHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_256_random_bits_and_only_their_own_hash_matches() {
        let key = BotKey::generate();
        let hex = key.expose().strip_prefix(PREFIX).unwrap_or_default();
        assert_eq!(hex.len(), 64);
        assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()));
        let other = BotKey::generate();
        assert_ne!(key, other);
        assert_eq!(key.hash(), KeyHash::of(key.expose()));
        assert_ne!(key.hash(), other.hash());
        assert_eq!(format!("{key:?}"), "BotKey(…)");
        assert_eq!(KeyHash::from_slice(&key.hash().0), Some(key.hash()));
        assert_eq!(KeyHash::from_slice(&[0; 31]), None);
    }

    #[test]
    fn the_hash_is_sha256() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(hex::encode(KeyHash::of("abc").0), expected);
    }
}

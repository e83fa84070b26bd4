//! A room's id and its three keys (edit, view, owner): 128 random bits each from the OS, in
//! URL-safe base64. The server keeps only a key's SHA-256 and compares digests in constant
//! time, so neither its memory nor its store holds a key that opens a room.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::Digest as _;
use subtle::ConstantTimeEq as _;

/// How many random bytes an id or a key holds (128 bits).
const RANDOM_BYTES: usize = 16;

/// A new random id or key: 22 URL-safe characters.
pub fn random() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; RANDOM_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// The SHA-256 of a key: what the server keeps of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    pub fn of(key: &str) -> Digest {
        Digest(sha2::Sha256::digest(key.as_bytes()).into())
    }

    /// Whether `key` is the key this is the digest of, in time that does not depend on where
    /// the digests differ.
    pub fn matches(&self, key: &str) -> bool {
        bool::from(Digest::of(key).0.ct_eq(&self.0))
    }

    pub fn to_base64(self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }

    pub fn from_base64(text: &str) -> Option<Digest> {
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        Some(Digest(bytes.try_into().ok()?))
    }
}

impl std::fmt::Debug for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Digest(..)")
    }
}

/// Whether `text` could be a room id this server made: 22 URL-safe base64 characters. Checked
/// before a store is asked, so a path never reaches it unbounded.
pub fn is_room_id(text: &str) -> bool {
    text.len() == 22
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A room's keys as the server keeps them.
#[derive(Debug, Clone, Copy)]
pub struct Keys {
    pub edit: Digest,
    pub view: Digest,
    pub owner: Digest,
}

/// The keys of a new room, given once to its creator.
pub struct NewKeys {
    pub edit: String,
    pub view: String,
    pub owner: String,
}

impl std::fmt::Debug for NewKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewKeys(..)")
    }
}

impl NewKeys {
    pub fn random() -> Result<NewKeys, getrandom::Error> {
        Ok(NewKeys {
            edit: random()?,
            view: random()?,
            owner: random()?,
        })
    }

    pub fn digests(&self) -> Keys {
        Keys {
            edit: Digest::of(&self.edit),
            view: Digest::of(&self.view),
            owner: Digest::of(&self.owner),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_key_matches_its_digest_only() {
        let key = random().unwrap();
        let other = random().unwrap();
        assert_eq!(key.len(), 22);
        assert!(is_room_id(&key));
        assert_ne!(key, other);
        let digest = Digest::of(&key);
        assert!(digest.matches(&key));
        assert!(!digest.matches(&other));
        assert!(!digest.matches(""));
        assert_eq!(Digest::from_base64(&digest.to_base64()), Some(digest));
    }
}

//! A fast hash for the maps of work that grows with a design (the sample's keys, the item
//! store's partitions and entities): a multiply-rotate over 8-byte words, with fixed keys, so
//! that a map's order is the same every time. SipHash, std's, took a sixth of the sample's
//! generation and a tenth of building the store from 100,000 items (issue 13).
//!
//! Not for maps whose keys a hostile design could choose to collide where a collision costs
//! more than a lookup: those keep std's seeded hasher. No IO here.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: each 8-byte word of the input is mixed in by a rotate, an xor and a multiply.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    /// The state turned so that its best-mixed bits, the multiply's high ones, come low,
    /// where a hash table picks its bucket (as rustc-hash does).
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

/// A map hashed by [`FastHasher`].
pub(crate) type FastHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A set hashed by [`FastHasher`].
pub(crate) type FastHashSet<T> = HashSet<T, BuildHasherDefault<FastHasher>>;

/// `value`'s [`FastHasher`] hash.
pub(crate) fn hash_of<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = FastHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

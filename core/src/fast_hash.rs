//! A fast hash for the maps of work that grows with a design (the sample's keys, the item
//! store's partitions and the names keying its indexes): a multiply-rotate over 8-byte words,
//! with fixed keys, so that a map's order is the same every time. SipHash, std's, took a sixth
//! of the sample's generation and a tenth of building the store from 100,000 items (issue 13).
//!
//! Not for maps whose keys a hostile design could choose to collide where a collision costs
//! more than a lookup (entity names): those keep SipHash. No IO here.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: each 8-byte word of the input is mixed in by a rotate, an xor and a multiply.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl FastHasher {
    /// Mixes one word in.
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Whole words read as words, and the tail byte by byte: a copy of each word into a
        // buffer was a call to memcpy per 8 bytes.
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word: [u8; 8] = word.try_into().unwrap_or_default();
            self.add(u64::from_le_bytes(word));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let word = tail
                .iter()
                .rev()
                .fold(0u64, |word, &byte| (word << 8) | u64::from(byte));
            self.add(word);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
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

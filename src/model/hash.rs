//! A fast hash for the tool's own keys: node and policy numbers, addresses, a hash
//! already computed, a namespace. The standard SipHash resists keys chosen to collide,
//! which costs several times more per lookup; these keys are the tool's own numbers or
//! short names it read, and the folds look them up millions of times.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// `Hasher` for a hash that takes eight bytes at a time (its `add`), the last ones
/// padded with zeros, and finishes its state with `$finish`.
macro_rules! by_words {
    ($hasher:ty, $finish:expr) => {
        impl Hasher for $hasher {
            #[inline]
            fn finish(&self) -> u64 {
                $finish(self.0)
            }

            #[inline]
            fn write(&mut self, bytes: &[u8]) {
                let mut words = bytes.chunks_exact(8);
                for w in &mut words {
                    self.add(u64::from_le_bytes(w.try_into().unwrap_or_default()));
                }
                let rest = words.remainder();
                if !rest.is_empty() {
                    let mut last = [0u8; 8];
                    last[..rest.len()].copy_from_slice(rest);
                    self.add(u64::from_le_bytes(last));
                }
            }

            #[inline]
            fn write_u8(&mut self, i: u8) {
                self.add(u64::from(i));
            }

            #[inline]
            fn write_u32(&mut self, i: u32) {
                self.add(u64::from(i));
            }

            #[inline]
            fn write_u64(&mut self, i: u64) {
                self.add(i);
            }

            #[inline]
            fn write_usize(&mut self, i: usize) {
                self.add(i as u64);
            }
        }
    };
}

/// The multiply-and-rotate hash rustc uses for its own tables (FxHash), eight bytes at
/// a time.
#[derive(Clone, Copy, Default)]
pub struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

by_words!(FastHasher, std::convert::identity);

/// A hash that folds every word through a 64×64→128-bit multiply (as wyhash and
/// foldhash mix), for hashes kept as keys of their own (the node index, the duplicate
/// check): a little slower than [`FastHasher`], but names made to a pattern do not
/// collide. Under FastHasher's rotate-xor-multiply, `app-20/route-00800` and
/// `app-20/route-08300` have the same 64 bits, and a large cluster has thousands of
/// such pairs.
#[derive(Clone, Copy, Default)]
pub struct WideHasher(u64);

impl WideHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        const A: u64 = 0x2d35_8dcc_aa6c_78a5;
        const B: u64 = 0x8bb8_4b93_962e_acc9;
        let m = u128::from(self.0 ^ A) * u128::from(word ^ B);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
}

by_words!(WideHasher, spread);

/// `x`'s bits mixed so that each depends on all of them (MurmurHash3's finalizer): a
/// hash kept as a key of its own must differ in every bit for near names (`app-00`,
/// `app-01`), the low ones a table looks at included.
fn spread(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// A `HashMap` with [`WideHasher`]: for keys of names made to a pattern (references).
pub type WideMap<K, V> = HashMap<K, V, BuildHasherDefault<WideHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_near_keys_apart() {
        let hash = |s: &str| {
            let mut h = FastHasher::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash("app-00"), hash("app-00"));
        assert_ne!(hash("app-00"), hash("app-01"));
        assert_ne!(
            hash("gateway.networking.k8s.io"),
            hash("gateway.networking.k8s.i")
        );
        let mut m: FastMap<(u32, &str), u32> = FastMap::default();
        m.insert((1, "a"), 1);
        m.insert((1, "b"), 2);
        assert_eq!((m[&(1, "a")], m[&(1, "b")], m.get(&(2, "a"))), (1, 2, None));
    }

    /// What the synthetic clusters name: 60 namespaces of 10,000 routes. FastHasher
    /// gives some pairs the same 64 bits (why the index does not use it); WideHasher
    /// gives none.
    #[test]
    fn patterned_names_do_not_collide_under_the_wide_hash() {
        use std::hash::Hash;
        fn hash<H: Hasher + Default>(ns: &str, name: &str) -> u64 {
            let mut h = H::default();
            ("gateway.networking.k8s.io", "HTTPRoute", Some(ns), name).hash(&mut h);
            h.finish()
        }
        let pair = [("app-20", "route-00800"), ("app-20", "route-08300")];
        let fast = pair.map(|(ns, name)| hash::<FastHasher>(ns, name));
        assert_eq!(fast[0], fast[1], "the pair FastHasher confuses");
        let mut seen = HashSet::new();
        for ns in 0..60 {
            let ns = format!("app-{ns:02}");
            for r in 0..10_000 {
                assert!(seen.insert(hash::<WideHasher>(&ns, &format!("route-{r:05}"))));
            }
        }
    }
}

//! The hash of the tool's own tables and of the reference hashes it keeps, from
//! `foldhash`. The standard SipHash resists keys chosen to collide, which costs several
//! times more per lookup; these keys are the tool's own numbers or short names it read,
//! and the folds look them up millions of times.
//!
//! Both variants fold every word through a 64×64→128-bit multiply, so names made to a
//! pattern (`app-20/route-00800`, `app-20/route-08300`) hash apart. The seed is fixed,
//! not random: two runs on the same input walk their tables alike, so an answer, a
//! profile or a benchmark does not change from one run to the next.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

/// Builds the hashers of [`FastMap`] and [`FastSet`]: foldhash's variant for tables.
pub(crate) type FastState = foldhash::fast::FixedState;

/// A `HashMap` with foldhash (fast variant, fixed seed).
pub(crate) type FastMap<K, V> = HashMap<K, V, FastState>;

/// A `HashSet` with foldhash (fast variant, fixed seed).
pub(crate) type FastSet<K> = HashSet<K, FastState>;

/// The 64 bits of `value` kept as a key of its own, in place of the value (the node
/// index, the duplicate check, the shared strings' table): foldhash's quality variant,
/// which mixes every bit into every other, the low ones a table picks buckets by
/// included.
pub(crate) fn key_hash<T: Hash + ?Sized>(value: &T) -> u64 {
    foldhash::quality::FixedState::default().hash_one(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_near_keys_apart() {
        let hash = |s: &str| FastState::default().hash_one(s);
        assert_eq!(hash("app-00"), hash("app-00"));
        assert_ne!(hash("app-00"), hash("app-01"));
        assert_ne!(
            hash("gateway.networking.k8s.io"),
            hash("gateway.networking.k8s.i")
        );
        assert_eq!(key_hash("app-00"), key_hash("app-00"));
        assert_ne!(key_hash("app-00"), key_hash("app-01"));
        let mut m: FastMap<(u32, &str), u32> = FastMap::default();
        m.insert((1, "a"), 1);
        m.insert((1, "b"), 2);
        assert_eq!((m[&(1, "a")], m[&(1, "b")], m.get(&(2, "a"))), (1, 2, None));
    }

    /// What the synthetic clusters name: 60 namespaces of 10,000 routes. The FxHash
    /// copy this module once held gave `app-20/route-00800` and `app-20/route-08300`
    /// the same 64 bits (and a thousand other pairs); the hash kept as a key gives no
    /// two of them the same, nor does the tables' one.
    #[test]
    fn patterned_names_do_not_collide() {
        fn r<'a>(ns: &'a str, name: &'a str) -> (&'a str, &'a str, Option<&'a str>, &'a str) {
            ("gateway.networking.k8s.io", "HTTPRoute", Some(ns), name)
        }
        let pair = [("app-20", "route-00800"), ("app-20", "route-08300")];
        let keys = pair.map(|(ns, name)| key_hash(&r(ns, name)));
        assert_ne!(keys[0], keys[1]);
        let (mut keyed, mut tabled) = (HashSet::new(), HashSet::new());
        for ns in 0..60 {
            let ns = format!("app-{ns:02}");
            for n in 0..10_000 {
                let name = format!("route-{n:05}");
                assert!(keyed.insert(key_hash(&r(&ns, &name))), "{ns}/{name}");
                assert!(tabled.insert(FastState::default().hash_one(r(&ns, &name))));
            }
        }
    }
}

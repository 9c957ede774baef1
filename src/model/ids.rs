//! Typed indices: a number that says which list it indexes, so that a node's number is
//! never used for a policy's. Each indexes `Vec<T>` and `[T]` directly.

/// Declares the methods and the indexing of an id type `$id(pub u32)`.
macro_rules! index_type {
    ($id:ident) => {
        impl $id {
            /// Its position in the list it indexes.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id at position `i` (a topology has far fewer than 2^32 of either).
            pub fn at(i: usize) -> $id {
                $id(i as u32)
            }

            /// Every id of a list of `len`.
            pub fn all(len: usize) -> impl DoubleEndedIterator<Item = $id> + Clone {
                (0..len as u32).map($id)
            }
        }

        impl<T> std::ops::Index<$id> for Vec<T> {
            type Output = T;
            fn index(&self, i: $id) -> &T {
                &self[i.0 as usize]
            }
        }

        impl<T> std::ops::IndexMut<$id> for Vec<T> {
            fn index_mut(&mut self, i: $id) -> &mut T {
                &mut self[i.0 as usize]
            }
        }

        impl<T> std::ops::Index<$id> for [T] {
            type Output = T;
            fn index(&self, i: $id) -> &T {
                &self[i.0 as usize]
            }
        }

        impl<T> std::ops::IndexMut<$id> for [T] {
            fn index_mut(&mut self, i: $id) -> &mut T {
                &mut self[i.0 as usize]
            }
        }

        impl std::fmt::Display for $id {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}
pub(crate) use index_type;

/// An object of the snapshot: an index into `Snapshot::objects`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ObjectId(pub u32);

index_type!(ObjectId);

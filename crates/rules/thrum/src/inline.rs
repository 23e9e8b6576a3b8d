//! [`Inline`]: the short lists inside resolution frames (an ability use's targets and per-target
//! records, a trigger window's candidates), kept inline so that copying a frame, which every
//! frame event does, allocates nothing.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::ops::{Deref, DerefMut};

/// A list of `Copy` items held inline up to `N` of them and on the heap beyond, so a longer list
/// (an Area over a crowd) still fits. Serialised as a plain list, exactly as a `Vec` is, so
/// records and event logs keep their form.
///
/// It dereferences to a [`SmallVec`] (and through it to a slice) for reading and editing. Its
/// copy is one memory copy of the items, not an item-by-item clone.
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Inline<T: Copy, const N: usize>(SmallVec<[T; N]>);

impl<T: Copy, const N: usize> Inline<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        Inline(SmallVec::new())
    }

    /// `n` copies of `item`.
    pub fn filled(item: T, n: usize) -> Self {
        Inline(SmallVec::from_elem(item, n))
    }

    /// The items of a slice.
    pub fn from_slice(items: &[T]) -> Self {
        Inline(SmallVec::from_slice(items))
    }
}

impl<T: Copy, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline::new()
    }
}

impl<T: Copy, const N: usize> Clone for Inline<T, N> {
    fn clone(&self) -> Self {
        Inline::from_slice(&self.0)
    }

    fn clone_from(&mut self, source: &Self) {
        self.0.clear();
        self.0.extend_from_slice(&source.0);
    }
}

impl<T: Copy, const N: usize> Deref for Inline<T, N> {
    type Target = SmallVec<[T; N]>;
    fn deref(&self) -> &SmallVec<[T; N]> {
        &self.0
    }
}

impl<T: Copy, const N: usize> DerefMut for Inline<T, N> {
    fn deref_mut(&mut self) -> &mut SmallVec<[T; N]> {
        &mut self.0
    }
}

impl<T: Copy, const N: usize> From<Vec<T>> for Inline<T, N> {
    fn from(v: Vec<T>) -> Self {
        Inline::from_slice(&v)
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for Inline<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Inline(iter.into_iter().collect())
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_a_plain_list_inline_or_spilled() {
        for n in [0usize, 1, 3, 4, 5, 9] {
            let v: Vec<u16> = (0..n as u16).collect();
            let i: Inline<u16, 4> = Inline::from(v.clone());
            assert_eq!(serde_json::to_string(&i).unwrap(), serde_json::to_string(&v).unwrap());
            let back: Inline<u16, 4> = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
            assert_eq!(back, i);
            assert_eq!(i.clone(), i);
            let mut other: Inline<u16, 4> = Inline::filled(7, 6);
            other.clone_from(&i);
            assert_eq!(other, i);
            assert_eq!(i.spilled(), n > 4);
        }
    }
}

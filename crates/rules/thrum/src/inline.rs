//! [`Inline`]: the short lists inside resolution frames (an ability use's targets and per-target
//! records, a trigger window's candidates), kept inline so that copying a frame, which every
//! frame event does, allocates nothing and copies a fixed block of memory.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Deref, DerefMut};

/// A list of `Copy` items held inline up to `N` of them and on the heap beyond, so a longer list
/// (an Area over a crowd) still fits. Serialised as a plain list, exactly as a `Vec` is, so
/// records and event logs keep their form.
///
/// It dereferences to a slice for reading and editing, and grows with [`Inline::push`]. The
/// inline form keeps a whole array (slots past the length hold `T::default()` or a stale item
/// and are never read), so copying it is one fixed-size copy of the array, not an item-by-item
/// clone or a copy of a length known only at run time.
#[derive(Clone)]
pub struct Inline<T: Copy + Default, const N: usize>(Repr<T, N>);

/// The two forms of an [`Inline`] list.
#[derive(Clone)]
enum Repr<T: Copy + Default, const N: usize> {
    /// At most `N` items: the first `len` of `items`.
    Here {
        /// How many items are in use.
        len: u8,
        /// The items, then unused slots.
        items: [T; N],
    },
    /// More than `N` items (only ever grows back to `Here` through a new list).
    Heap(Vec<T>),
}

impl<T: Copy + Default, const N: usize> Inline<T, N> {
    /// The inline length fits a `u8`.
    const FITS: () = assert!(N <= u8::MAX as usize, "an Inline list holds at most 255 items inline");

    /// An empty list.
    pub fn new() -> Self {
        let () = Self::FITS;
        Inline(Repr::Here {
            len: 0,
            items: [T::default(); N],
        })
    }

    /// `n` copies of `item`.
    pub fn filled(item: T, n: usize) -> Self {
        let () = Self::FITS;
        if n <= N {
            Inline(Repr::Here {
                len: n as u8,
                items: [item; N],
            })
        } else {
            Inline(Repr::Heap(vec![item; n]))
        }
    }

    /// The items of a slice.
    pub fn from_slice(items: &[T]) -> Self {
        let () = Self::FITS;
        if items.len() <= N {
            let mut here = [T::default(); N];
            here[..items.len()].copy_from_slice(items);
            Inline(Repr::Here {
                len: items.len() as u8,
                items: here,
            })
        } else {
            Inline(Repr::Heap(items.to_vec()))
        }
    }

    /// Adds an item at the end (moving the list to the heap when it outgrows `N`).
    pub fn push(&mut self, item: T) {
        match &mut self.0 {
            Repr::Here { len, items } if (*len as usize) < N => {
                items[*len as usize] = item;
                *len += 1;
            }
            Repr::Here { items, .. } => {
                let mut v = Vec::with_capacity(2 * N + 1);
                v.extend_from_slice(items);
                v.push(item);
                self.0 = Repr::Heap(v);
            }
            Repr::Heap(v) => v.push(item),
        }
    }

    /// Whether the list has moved to the heap (more than `N` items were held).
    pub fn spilled(&self) -> bool {
        matches!(self.0, Repr::Heap(_))
    }
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for Inline<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match &self.0 {
            Repr::Here { len, items } => &items[..*len as usize],
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Inline<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.0 {
            Repr::Here { len, items } => &mut items[..*len as usize],
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Inline<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Inline<T, N> {}

impl<T: Copy + Default + std::hash::Hash, const N: usize> std::hash::Hash for Inline<T, N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for Inline<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Inline").field(&&**self).finish()
    }
}

impl<T: Copy + Default + Serialize, const N: usize> Serialize for Inline<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>, const N: usize> Deserialize<'de> for Inline<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(|v| Inline::from_slice(&v))
    }
}

impl<T: Copy + Default, const N: usize> From<Vec<T>> for Inline<T, N> {
    fn from(v: Vec<T>) -> Self {
        Inline::from_slice(&v)
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Inline<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut out = Inline::new();
        for item in iter {
            out.push(item);
        }
        out
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
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
            assert_eq!(&*i, v.as_slice());
            assert_eq!(format!("{i:?}"), format!("Inline({v:?})"));
        }
    }

    #[test]
    fn pushing_past_the_inline_room_keeps_every_item_in_order() {
        let mut i: Inline<u16, 2> = Inline::new();
        for k in 0..7u16 {
            i.push(k);
            assert_eq!(&*i, (0..=k).collect::<Vec<_>>().as_slice());
            assert_eq!(i.spilled(), k >= 2);
        }
        let collected: Inline<u16, 2> = (0..7u16).collect();
        assert_eq!(collected, i);
        // Equality ignores the unused inline slots.
        let mut a: Inline<u16, 4> = Inline::filled(9, 3);
        a[0] = 1;
        let b: Inline<u16, 4> = Inline::from_slice(&[1, 9, 9]);
        assert_eq!(a, b);
        assert_ne!(a, Inline::from_slice(&[1, 9]));
    }
}

//! The faces of one roll, stored inline.
//!
//! [`Faces`] is a fixed array of [`MAX_DICE`] slots plus a length, so rolling
//! dice never touches the heap and a whole roll is `Copy`. Thirty-two dice
//! covers every roll a rule makes in one go, and it matches the 32-bit kept
//! mask in [`crate::Roll`]. Larger pools (only meaningful for exact odds)
//! are handled by [`crate::Dist`] without rolling.
//!
//! Equality, hashing, `Debug` and serialisation look only at the live faces,
//! never at the unused slots, and the type serialises as a plain list of
//! numbers.

use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::source::DiceError;

/// The most dice one roll may hold.
pub const MAX_DICE: usize = 32;

/// Faces of one roll, inline (no heap). Serialises as a plain list of
/// numbers.
#[derive(Clone, Copy, Default)]
pub struct Faces {
    /// How many of the slots in `faces` are live; never above [`MAX_DICE`].
    len: u8,
    /// The faces in the order they were rolled; slots at `len` and beyond
    /// are unused.
    faces: [u16; MAX_DICE],
}

impl Faces {
    /// An empty list of faces.
    pub fn new() -> Faces {
        Faces::default()
    }

    /// Builds a list from a slice, failing with [`DiceError::TooManyDice`]
    /// when the slice holds more than [`MAX_DICE`] faces.
    pub fn from_slice(faces: &[u16]) -> Result<Faces, DiceError> {
        let mut out = Faces::new();
        out.extend_from_slice(faces)?;
        Ok(out)
    }

    /// Appends one face, failing with [`DiceError::TooManyDice`] when the
    /// list is full.
    pub fn push(&mut self, face: u16) -> Result<(), DiceError> {
        let slot = self
            .faces
            .get_mut(usize::from(self.len))
            .ok_or(DiceError::TooManyDice { max: MAX_DICE })?;
        *slot = face;
        self.len += 1;
        Ok(())
    }

    /// Appends every face of `faces`, or none of them (and fails with
    /// [`DiceError::TooManyDice`]) if they do not all fit.
    pub fn extend_from_slice(&mut self, faces: &[u16]) -> Result<(), DiceError> {
        if faces.len() > self.spare() {
            return Err(DiceError::TooManyDice { max: MAX_DICE });
        }
        for &face in faces {
            self.push(face)?;
        }
        Ok(())
    }

    /// The live faces, in the order they were rolled.
    pub fn as_slice(&self) -> &[u16] {
        &self.faces[..usize::from(self.len)]
    }

    /// Iterates over the live faces.
    pub fn iter(&self) -> std::iter::Copied<std::slice::Iter<'_, u16>> {
        self.as_slice().iter().copied()
    }

    /// How many faces the list holds.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the list holds no faces.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many more faces fit.
    pub fn spare(&self) -> usize {
        MAX_DICE - self.len()
    }

    /// Removes every face.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The sum of all faces (at most 32 times 65535, so it always fits).
    pub fn sum(&self) -> i32 {
        self.iter().map(i32::from).sum()
    }
}

impl PartialEq for Faces {
    fn eq(&self, other: &Faces) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Faces {}

impl Hash for Faces {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Faces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl AsRef<[u16]> for Faces {
    fn as_ref(&self) -> &[u16] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Faces {
    type Item = u16;
    type IntoIter = std::iter::Copied<std::slice::Iter<'a, u16>>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl TryFrom<&[u16]> for Faces {
    type Error = DiceError;

    fn try_from(faces: &[u16]) -> Result<Faces, DiceError> {
        Faces::from_slice(faces)
    }
}

impl Serialize for Faces {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for face in self {
            seq.serialize_element(&face)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Faces {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Faces, D::Error> {
        deserializer.deserialize_seq(FacesVisitor)
    }
}

/// Reads a sequence of faces, refusing more than [`MAX_DICE`].
struct FacesVisitor;

impl<'de> Visitor<'de> for FacesVisitor {
    type Value = Faces;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list of at most {MAX_DICE} die faces")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Faces, A::Error> {
        let mut faces = Faces::new();
        while let Some(face) = seq.next_element::<u16>()? {
            if faces.push(face).is_err() {
                return Err(de::Error::invalid_length(MAX_DICE + 1, &self));
            }
        }
        Ok(faces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_and_read_back() {
        let mut f = Faces::new();
        assert!(f.is_empty());
        f.push(3).unwrap();
        f.push(4).unwrap();
        f.push(6).unwrap();
        assert_eq!(f.as_slice(), &[3, 4, 6]);
        assert_eq!(f.len(), 3);
        assert_eq!(f.sum(), 13);
        assert_eq!(f.spare(), MAX_DICE - 3);
        assert_eq!(format!("{f:?}"), "[3, 4, 6]");
        f.clear();
        assert!(f.is_empty());
        assert_eq!(f.sum(), 0);
    }

    #[test]
    fn full_list_refuses_more() {
        let mut f = Faces::new();
        for i in 0..MAX_DICE {
            f.push(u16::try_from(i).unwrap() + 1).unwrap();
        }
        assert_eq!(f.push(1), Err(DiceError::TooManyDice { max: MAX_DICE }));
        assert_eq!(f.len(), MAX_DICE);
        assert_eq!(f.sum(), (1..=32).sum::<i32>());
    }

    #[test]
    fn extend_is_all_or_nothing() {
        let mut f = Faces::from_slice(&[1; 30]).unwrap();
        assert_eq!(
            f.extend_from_slice(&[2, 2, 2]),
            Err(DiceError::TooManyDice { max: MAX_DICE })
        );
        assert_eq!(f.len(), 30);
        f.extend_from_slice(&[2, 2]).unwrap();
        assert_eq!(f.len(), 32);
        assert!(Faces::try_from(&[1u16; 33][..]).is_err());
    }

    #[test]
    fn max_faces_sum_fits() {
        let f = Faces::from_slice(&[u16::MAX; MAX_DICE]).unwrap();
        assert_eq!(f.sum(), 32 * 65_535);
    }

    #[test]
    fn equality_ignores_unused_slots() {
        let mut a = Faces::from_slice(&[5, 6]).unwrap();
        a.clear();
        a.push(1).unwrap();
        let b = Faces::from_slice(&[1]).unwrap();
        assert_eq!(a, b);
        let hash = |f: &Faces| {
            use std::collections::hash_map::DefaultHasher;
            let mut h = DefaultHasher::new();
            f.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&a), hash(&b));
    }

    #[test]
    fn serialises_as_plain_list() {
        let f = Faces::from_slice(&[3, 4, 6]).unwrap();
        assert_eq!(serde_json::to_string(&f).unwrap(), "[3,4,6]");
        let back: Faces = serde_json::from_str("[3,4,6]").unwrap();
        assert_eq!(back, f);
        let empty: Faces = serde_json::from_str("[]").unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn deserialising_too_many_is_an_error() {
        let ok = format!("[{}]", vec!["1"; 32].join(","));
        assert_eq!(serde_json::from_str::<Faces>(&ok).unwrap().len(), 32);
        let too_many = format!("[{}]", vec!["1"; 33].join(","));
        assert!(serde_json::from_str::<Faces>(&too_many).is_err());
        assert!(serde_json::from_str::<Faces>("[70000]").is_err());
        assert!(serde_json::from_str::<Faces>("[-1]").is_err());
    }
}

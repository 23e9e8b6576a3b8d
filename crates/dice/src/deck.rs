//! A deck of numbered cards for a ruleset's state.
//!
//! A card is drawn through [`Dice::draw`](crate::Dice::draw) with the cards
//! left ([`Deck::cards`]); the ruleset then removes it with [`Deck::remove`]
//! when it applies its own event, so the deck changes only where the state
//! does. No shuffle order is kept: every draw is uniform over the cards
//! left, which is what drawing from a shuffled deck is.

use serde::{Deserialize, Serialize};

/// The cards still in a deck, as values in ascending order (a value may
/// appear more than once, as with two decks together).
///
/// It serialises as the list of values; a list read back is sorted, so the
/// order a seeded draw picks from is always the same for the same cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<u16>", into = "Vec<u16>")]
pub struct Deck {
    /// The values, ascending.
    cards: Vec<u16>,
}

impl Deck {
    /// A full deck of the cards `1..=n`.
    pub fn numbered(n: u16) -> Deck {
        Deck {
            cards: (1..=n).collect(),
        }
    }

    /// A deck holding `cards` (in any order; kept ascending). Values should
    /// be 1 or more, since a person cannot type a card 0.
    pub fn from_cards(cards: impl IntoIterator<Item = u16>) -> Deck {
        let mut cards: Vec<u16> = cards.into_iter().collect();
        cards.sort_unstable();
        Deck { cards }
    }

    /// The cards left, ascending: what to pass to
    /// [`Dice::draw`](crate::Dice::draw).
    pub fn cards(&self) -> &[u16] {
        &self.cards
    }

    /// How many cards are left.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether no card is left.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Whether a card with value `card` is left.
    pub fn contains(&self, card: u16) -> bool {
        self.cards.binary_search(&card).is_ok()
    }

    /// Takes one card with value `card` out of the deck; returns whether one
    /// was there (a deck without it is left unchanged).
    pub fn remove(&mut self, card: u16) -> bool {
        match self.cards.binary_search(&card) {
            Ok(i) => {
                self.cards.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// Puts a card with value `card` back into the deck (for instance the
    /// one of two drawn cards that is not kept).
    pub fn put_back(&mut self, card: u16) {
        let i = self.cards.partition_point(|&c| c <= card);
        self.cards.insert(i, card);
    }
}

impl From<Vec<u16>> for Deck {
    fn from(cards: Vec<u16>) -> Deck {
        Deck::from_cards(cards)
    }
}

impl From<Deck> for Vec<u16> {
    fn from(deck: Deck) -> Vec<u16> {
        deck.cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_and_put_back_keep_the_cards_ascending() {
        let mut deck = Deck::numbered(5);
        assert_eq!(deck.cards(), &[1, 2, 3, 4, 5]);
        assert!(deck.remove(3));
        assert!(!deck.remove(3), "a card is removed once");
        assert!(!deck.remove(9));
        assert_eq!(deck.cards(), &[1, 2, 4, 5]);
        assert!(!deck.contains(3));
        deck.put_back(3);
        assert_eq!(deck.cards(), &[1, 2, 3, 4, 5]);
        deck.put_back(2);
        assert_eq!(deck.cards(), &[1, 2, 2, 3, 4, 5]);
        assert!(deck.remove(2));
        assert!(deck.contains(2), "the second card with the same value stays");
        assert_eq!(deck.len(), 5);
        assert!(Deck::numbered(0).is_empty());
    }

    #[test]
    fn serialises_as_a_list_and_sorts_what_it_reads() {
        let deck = Deck::from_cards([5, 1, 3]);
        assert_eq!(deck.cards(), &[1, 3, 5]);
        let json = serde_json::to_string(&deck).unwrap();
        assert_eq!(json, "[1,3,5]");
        let back: Deck = serde_json::from_str("[3,5,1]").unwrap();
        assert_eq!(back, deck);
    }
}

//! A monotone bucket queue: the priority queue of Dijkstra searches whose costs are small
//! integers, with the same order as a binary heap keyed by `(cost, item)`.
//!
//! Items are `usize` indices below a bound given to [`BucketQueue::reset`]; keys are costs from
//! 0 to a maximum also given there. One bucket per cost holds a bit set of its items, so the
//! lowest item of the cheapest non-empty bucket is found by scanning words, and pushing,
//! removing and popping cost a few instructions each. Keys pushed must never be below the key
//! last popped (true of Dijkstra with non-negative step costs); the queue checks this in debug
//! builds. After [`BucketQueue::clear`] (or once every item was popped) it is empty and keeps its
//! memory for the next search: nothing is allocated per search once it has grown.

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct BucketQueue {
    /// Words per bucket: `ceil(items / 64)`.
    words: usize,
    /// Buckets in use: `max_key + 1`.
    buckets: usize,
    /// `bits[b * words + w]`: items `64 * w ..` of bucket `b`.
    bits: Vec<u64>,
    /// Per bucket: no word before this one holds an item (`words` when the bucket is empty).
    lowest: Vec<u32>,
    /// The bucket popped from last: every bucket before it is empty.
    current: usize,
    /// Items queued.
    len: usize,
}

impl BucketQueue {
    /// Words of memory (buckets × words per bucket) above which a search should use a heap
    /// instead: the queue is meant for small cost ranges.
    pub const MAX_WORDS: usize = 1 << 16;

    /// Whether a queue for `items` items and keys up to `max_key` stays within [`Self::MAX_WORDS`].
    #[must_use]
    pub fn fits(items: usize, max_key: u32) -> bool {
        let words = items.div_ceil(64).max(1);
        (max_key as usize)
            .checked_add(1)
            .and_then(|b| b.checked_mul(words))
            .is_some_and(|w| w <= Self::MAX_WORDS)
    }

    /// Prepares an empty queue for items below `items` and keys up to `max_key` (which must
    /// [`fit`](Self::fits)).
    pub fn reset(&mut self, items: usize, max_key: u32) {
        debug_assert!(Self::fits(items, max_key));
        debug_assert_eq!(self.len, 0, "reset of a queue that still holds items");
        let words = items.div_ceil(64).max(1);
        let buckets = max_key as usize + 1;
        if self.words != words || self.bits.len() < buckets * words {
            self.bits.clear();
            self.bits.resize(buckets * words, 0);
        }
        if self.lowest.len() < buckets {
            self.lowest.resize(buckets, 0);
        }
        self.lowest[..buckets].fill(words as u32);
        self.words = words;
        self.buckets = buckets;
        self.current = 0;
    }

    /// Queues `item` with cost `key`.
    #[inline]
    pub fn push(&mut self, item: usize, key: u32) {
        let b = key as usize;
        debug_assert!(b < self.buckets && b >= self.current, "key {key} out of order");
        let w = item / 64;
        self.bits[b * self.words + w] |= 1 << (item % 64);
        if (w as u32) < self.lowest[b] {
            self.lowest[b] = w as u32;
        }
        self.len += 1;
    }

    /// Takes `item`, queued with cost `key`, out of the queue.
    #[inline]
    pub fn remove(&mut self, item: usize, key: u32) {
        let word = &mut self.bits[key as usize * self.words + item / 64];
        debug_assert!(*word & (1 << (item % 64)) != 0, "item {item} is not queued at {key}");
        *word &= !(1 << (item % 64));
        self.len -= 1;
    }

    /// Removes and returns the queued item with the lowest `(key, item)`.
    #[inline]
    pub fn pop(&mut self) -> Option<(usize, u32)> {
        if self.len == 0 {
            return None;
        }
        while self.current < self.buckets {
            let b = self.current;
            let base = b * self.words;
            let mut w = self.lowest[b] as usize;
            while w < self.words {
                let word = self.bits[base + w];
                if word != 0 {
                    let bit = word.trailing_zeros() as usize;
                    self.bits[base + w] = word & (word - 1);
                    self.lowest[b] = w as u32;
                    self.len -= 1;
                    return Some((w * 64 + bit, b as u32));
                }
                w += 1;
            }
            self.lowest[b] = self.words as u32;
            self.current += 1;
        }
        debug_assert!(false, "{} items queued but no bucket holds one", self.len);
        None
    }

    /// Empties the queue (a search that stopped early), keeping its memory.
    pub fn clear(&mut self) {
        if self.len > 0 {
            for b in self.current..self.buckets {
                let lo = self.lowest[b] as usize;
                self.bits[b * self.words + lo.min(self.words)..(b + 1) * self.words].fill(0);
                self.lowest[b] = self.words as u32;
            }
            self.len = 0;
        }
    }

    /// Whether nothing is queued.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue pops in the order of a sorted list of `(key, item)`, whatever the pushes,
    /// removals and interleaved pops (monotone keys), and is empty and reusable afterwards.
    #[test]
    fn pops_in_key_then_item_order_like_a_sorted_list() {
        let mut q = BucketQueue::default();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % m
        };
        for round in 0..200 {
            let items = 1 + next(300) as usize;
            let max_key = next(40) as u32;
            q.reset(items, max_key);
            let mut model: std::collections::BTreeSet<(u32, usize)> = Default::default();
            let mut key_of = vec![None; items];
            let mut floor = 0u32;
            for _ in 0..(3 * items) {
                match next(4) {
                    0 | 1 => {
                        let it = next(items as u64) as usize;
                        let k = floor + next(u64::from(max_key - floor) + 1) as u32;
                        if let Some(old) = key_of[it] {
                            if k < old {
                                q.remove(it, old);
                                model.remove(&(old, it));
                            } else {
                                continue;
                            }
                        }
                        q.push(it, k);
                        model.insert((k, it));
                        key_of[it] = Some(k);
                    }
                    2 => {
                        let want = model.pop_first();
                        assert_eq!(q.pop().map(|(i, k)| (k, i)), want, "round {round}");
                        if let Some((k, it)) = want {
                            floor = k;
                            key_of[it] = None;
                        }
                    }
                    _ => {}
                }
            }
            if round % 2 == 0 {
                q.clear();
            } else {
                while let Some((i, k)) = q.pop() {
                    assert_eq!(model.pop_first(), Some((k, i)));
                }
            }
            assert!(q.is_empty());
        }
    }

    #[test]
    fn fits_only_small_cost_ranges() {
        assert!(BucketQueue::fits(144, 20));
        assert!(!BucketQueue::fits(65_536, u32::MAX));
        assert!(!BucketQueue::fits(65_536, 100));
    }
}

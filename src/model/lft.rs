//! A switch's linear forwarding table: destination LID → output port.

use std::collections::BTreeMap;

use super::ids::{DROP_PORT, Lid, PortNum};

/// What a forwarding table says about one destination LID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LftEntry {
    Port(PortNum),
    /// Marked `UNREACHABLE`, or port 255.
    Unreachable,
    /// The table has no row for this LID.
    Missing,
}

/// A table indexed by LID: dense for the LIDs a subnet manager hands out (1, 2, 3, … with no
/// big gaps), sparse past that, so that memory stays proportional to the rows set. One row at LID
/// `0xBFFF` costs a few bytes, not 48 K (issue 6: a small file must not make a big table).
///
/// The dense part covers LIDs `0..ports.len()`; it only grows to cover a LID when that keeps it
/// at most [`DENSE_SLACK`] + 4 × rows long. Other rows wait in `sparse` and move into the dense
/// part as it grows past them.
#[derive(Clone, Debug, Default)]
pub struct Lft {
    ports: Vec<u8>,
    /// Set rows hold a port in 0..=254, DROP_PORT for unreachable; this marks rows never set
    /// (one bit a LID: on a k = 36 fat tree the tables are 21 million rows per rail).
    set: RowMask,
    /// Rows at LIDs `>= ports.len()`: port, or DROP_PORT for unreachable.
    sparse: BTreeMap<u16, u8>,
    /// Rows set, dense and sparse.
    rows: usize,
}

/// One bit per dense LID: whether its row is set.
#[derive(Clone, Debug, Default)]
struct RowMask {
    words: Vec<u64>,
    len: usize,
}

impl RowMask {
    fn len(&self) -> usize {
        self.len
    }

    /// Grows (or shrinks) to `len` bits; new bits are clear.
    fn resize(&mut self, len: usize) {
        self.words.resize(len.div_ceil(64), 0);
        if len < self.len
            && !len.is_multiple_of(64)
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << (len % 64)) - 1;
        }
        self.len = len;
    }

    #[inline]
    fn get(&self, i: usize) -> Option<bool> {
        (i < self.len).then(|| self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    /// The set bits, in order, a word at a time (bits past `len` are never set).
    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                let bit = (rest != 0).then(|| rest.trailing_zeros() as usize)?;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }

    /// The last set bit, a word at a time (a table grown by doubling may end in thousands of
    /// unset rows; a k = 36 rail shrinks 1,620 tables).
    fn last_one(&self) -> Option<usize> {
        let w = self.words.iter().rposition(|&word| word != 0)?;
        Some(w * 64 + 63 - self.words[w].leading_zeros() as usize)
    }

    /// Sets bit `i`, which must be below `len`.
    #[inline]
    fn put(&mut self, i: usize, on: bool) {
        if i < self.len {
            let bit = 1u64 << (i % 64);
            if on { self.words[i / 64] |= bit } else { self.words[i / 64] &= !bit }
        }
    }

    fn heap_bytes(&self) -> usize {
        self.words.capacity() * 8
    }
}

/// LIDs as one bit each, to test many tables for the same LIDs ([`Lft::missing`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LidSet {
    words: Vec<u64>,
}

impl FromIterator<Lid> for LidSet {
    fn from_iter<I: IntoIterator<Item = Lid>>(lids: I) -> Self {
        let mut words = Vec::new();
        for Lid(lid) in lids {
            let w = usize::from(lid) / 64;
            if w >= words.len() {
                words.resize(w + 1, 0);
            }
            words[w] |= 1u64 << (lid % 64);
        }
        LidSet { words }
    }
}

/// Marker for an unset row in [`Lft`]'s port vector (the `set` mask is what counts).
pub const MISSING: u8 = DROP_PORT;

/// How many dense slots a table may hold beyond 4 per row set (2 bytes each).
pub const DENSE_SLACK: usize = 1024;

impl PartialEq for Lft {
    /// Tables are equal when they hold the same rows, however they are stored.
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows && self.entries().eq(other.entries())
    }
}

impl Eq for Lft {}

impl Lft {
    pub fn new() -> Self {
        Lft::default()
    }

    /// Sets a row. Returns the previous entry if the LID was already set.
    ///
    /// Inlined into the readers (a k = 36 rail has 19 million rows): the crate's code is split
    /// into units that inline across only where asked, and an unrelated change once moved this
    /// call out of line and slowed reading a rail by a tenth.
    #[inline]
    pub fn set(&mut self, lid: Lid, entry: LftEntry) -> Option<LftEntry> {
        let i = usize::from(lid.0);
        // The common case while a dump is read: a new row inside the dense part.
        if let LftEntry::Port(PortNum(port)) = entry
            && self.set.get(i) == Some(false)
        {
            self.ports[i] = port;
            self.set.put(i, true);
            self.rows += 1;
            return None;
        }
        self.set_other(lid, entry)
    }

    /// [`Lft::set`] outside the dense part, over a row, or not a port.
    #[inline(never)]
    fn set_other(&mut self, lid: Lid, entry: LftEntry) -> Option<LftEntry> {
        let i = usize::from(lid.0);
        let previous = self.get(lid);
        let value = match entry {
            LftEntry::Port(p) => p.0,
            LftEntry::Unreachable | LftEntry::Missing => DROP_PORT,
        };
        let is_set = entry != LftEntry::Missing;
        match (previous != LftEntry::Missing, is_set) {
            (false, true) => self.rows += 1,
            (true, false) => self.rows -= 1,
            _ => {}
        }
        let limit = DENSE_SLACK + 4 * self.rows;
        if i >= self.ports.len() && i < limit {
            // Grow by doubling (within the limit), not a row at a time.
            self.grow_dense((i + 1).max((2 * self.ports.len()).min(limit)));
        }
        if i < self.ports.len() {
            self.ports[i] = value;
            self.set.put(i, is_set);
        } else if is_set {
            self.sparse.insert(lid.0, value);
        } else {
            self.sparse.remove(&lid.0);
        }
        (previous != LftEntry::Missing).then_some(previous)
    }

    /// Extends the dense part to `len` LIDs and moves the sparse rows below `len` into it.
    fn grow_dense(&mut self, mut len: usize) {
        // Take in the sparse rows the new size allows too, so none is left behind a dense part.
        let limit = DENSE_SLACK + 4 * self.rows;
        for &lid in self.sparse.keys().take_while(|&&lid| usize::from(lid) < limit) {
            len = len.max(usize::from(lid) + 1);
        }
        self.ports.resize(len, MISSING);
        self.set.resize(len);
        if self.sparse.is_empty() {
            return;
        }
        let still_sparse = match u16::try_from(len) {
            Ok(len) => self.sparse.split_off(&len),
            Err(_) => BTreeMap::new(),
        };
        for (lid, port) in std::mem::replace(&mut self.sparse, still_sparse) {
            self.ports[usize::from(lid)] = port;
            self.set.put(usize::from(lid), true);
        }
    }

    /// A row; inlined into the tracers' hop loops (see [`Lft::set`]).
    #[inline]
    pub fn get(&self, lid: Lid) -> LftEntry {
        let i = usize::from(lid.0);
        let port = match (self.set.get(i), self.ports.get(i)) {
            (Some(true), Some(&port)) => port,
            (Some(false), _) | (Some(true), None) => return LftEntry::Missing,
            _ => match self.sparse.get(&lid.0) {
                Some(&port) => port,
                None => return LftEntry::Missing,
            },
        };
        if port == DROP_PORT { LftEntry::Unreachable } else { LftEntry::Port(PortNum(port)) }
    }

    /// The LIDs of `wanted` this table has no row for, in increasing order. Where the table is
    /// dense, 64 LIDs at a time: a k = 36 rail tests 11,664 CA LIDs against each of its 1,620
    /// switches.
    pub fn missing(&self, wanted: &LidSet) -> Vec<u16> {
        let mut missing = Vec::new();
        for (w, &bits) in wanted.words.iter().enumerate() {
            // Bits past the dense part are never set: those LIDs are looked up in the sparse rows.
            let mut lacking = bits & !self.set.words.get(w).copied().unwrap_or(0);
            while lacking != 0 {
                let lid = (w * 64) as u16 + lacking.trailing_zeros() as u16;
                lacking &= lacking - 1;
                if usize::from(lid) < self.set.len() || !self.sparse.contains_key(&lid) {
                    missing.push(lid);
                }
            }
        }
        missing
    }

    /// Number of LIDs with a row (routed or unreachable).
    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Gives back the room the table grew into but does not use: the dense part grows by
    /// doubling, so it may end thousands of LIDs past the last row (16,384 slots for 13,285
    /// LIDs on a k = 36 fat tree).
    pub fn shrink_to_fit(&mut self) {
        let used = self.set.last_one().map_or(0, |i| i + 1);
        self.ports.truncate(used);
        self.set.resize(used);
        self.ports.shrink_to_fit();
        self.set.words.shrink_to_fit();
    }

    /// Bytes of table storage held, for the memory bounds of issue 6.
    pub fn heap_bytes(&self) -> usize {
        self.ports.capacity() + self.set.heap_bytes() + self.sparse.len() * 2 * std::mem::size_of::<u16>()
    }

    /// Marks in `routed` (grown as needed) every LID this table routes out of a port. One pass
    /// over the dense ports, which the compiler vectorises: a k = 36 rail has 37 million rows.
    pub fn mark_routed(&self, routed: &mut Vec<bool>) {
        // Unset dense rows hold MISSING, which is DROP_PORT, so any other value is a routed row.
        if routed.len() < self.ports.len() {
            routed.resize(self.ports.len(), false);
        }
        for (marked, &port) in routed.iter_mut().zip(&self.ports) {
            *marked |= port != DROP_PORT;
        }
        for (&lid, &port) in &self.sparse {
            let i = usize::from(lid);
            if port != DROP_PORT {
                if routed.len() <= i {
                    routed.resize(i + 1, false);
                }
                routed[i] = true;
            }
        }
    }

    /// Which ports some row routes out of (`Port` rows only): one pass over the dense ports, so
    /// a check can skip the rows of a table that uses no port it looks for.
    pub fn ports_used(&self) -> [bool; 256] {
        let mut used = [false; 256];
        // Unset dense rows hold MISSING, which is DROP_PORT, cleared below with the unreachable.
        // Two plain loops: through a chained iterator, the dense one (millions of rows) tested
        // which half it was in at every row.
        for &port in &self.ports {
            used[usize::from(port)] = true;
        }
        for &port in self.sparse.values() {
            used[usize::from(port)] = true;
        }
        used[usize::from(DROP_PORT)] = false;
        used
    }

    /// Every set row, in LID order.
    pub fn entries(&self) -> impl Iterator<Item = (Lid, LftEntry)> + '_ {
        // The dense rows straight from the mask's set bits: a k = 36 rail has 37 million.
        let dense = self.set.ones().map(|i| {
            let entry = match self.ports.get(i) {
                Some(&DROP_PORT) => LftEntry::Unreachable,
                Some(&port) => LftEntry::Port(PortNum(port)),
                None => LftEntry::Missing,
            };
            (Lid(i as u16), entry)
        });
        dense.chain(self.sparse.keys().map(|&lid| (Lid(lid), self.get(Lid(lid)))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routed_lids_are_those_with_a_port_dense_or_sparse_and_the_mark_only_grows() {
        let mut lft = Lft::new();
        lft.set(Lid(1), LftEntry::Port(PortNum(3)));
        lft.set(Lid(2), LftEntry::Unreachable);
        lft.set(Lid(40_000), LftEntry::Port(PortNum(7)));
        lft.set(Lid(40_001), LftEntry::Unreachable);
        let mut routed = vec![false, false, false, false, true];
        lft.mark_routed(&mut routed);
        let marked: Vec<usize> = routed.iter().enumerate().filter(|(_, r)| **r).map(|(i, _)| i).collect();
        assert_eq!(marked, [1, 4, 40_000], "LID 4 was marked before and stays marked");
        let from_entries: Vec<usize> = lft
            .entries()
            .filter(|(_, e)| matches!(e, LftEntry::Port(_)))
            .map(|(lid, _)| usize::from(lid.0))
            .collect();
        assert_eq!(from_entries, [1, 40_000]);
    }

    #[test]
    fn the_missing_lids_are_those_without_a_row_dense_or_sparse_as_get_says() {
        let mut lft = Lft::new();
        for lid in [1, 2, 3, 65, 130] {
            lft.set(Lid(lid), LftEntry::Port(PortNum(1)));
        }
        lft.set(Lid(4), LftEntry::Unreachable);
        lft.set(Lid(40_000), LftEntry::Port(PortNum(7)));
        lft.set(Lid(3), LftEntry::Missing);
        let lids = [1, 3, 4, 5, 64, 65, 129, 130, 39_999, 40_000, 40_001, 65_535];
        let wanted: LidSet = lids.map(Lid).into_iter().collect();
        let by_get: Vec<u16> = lids.into_iter().filter(|&l| lft.get(Lid(l)) == LftEntry::Missing).collect();
        assert_eq!(lft.missing(&wanted), by_get);
        assert_eq!(by_get, vec![3, 5, 64, 129, 39_999, 40_001, 65_535]);
        assert_eq!(Lft::new().missing(&wanted).len(), 12);
    }

    #[test]
    fn the_ports_used_are_those_of_port_rows_dense_or_sparse_and_only_those() {
        let mut lft = Lft::new();
        lft.set(Lid(1), LftEntry::Port(PortNum(0)));
        lft.set(Lid(5), LftEntry::Port(PortNum(3)));
        lft.set(Lid(6), LftEntry::Unreachable);
        lft.set(Lid(40_000), LftEntry::Port(PortNum(7)));
        lft.set(Lid(5), LftEntry::Missing);
        lft.set(Lid(9), LftEntry::Port(PortNum(4)));
        let used: Vec<usize> = (0..256).filter(|&p| lft.ports_used()[p]).collect();
        assert_eq!(used, [0, 4, 7], "port 3's only row was unset; unreachable and unset rows use none");
        let from_entries: std::collections::BTreeSet<usize> = lft
            .entries()
            .filter_map(|(_, e)| if let LftEntry::Port(p) = e { Some(usize::from(p.0)) } else { None })
            .collect();
        assert_eq!(from_entries.into_iter().collect::<Vec<_>>(), used);
    }

    #[test]
    fn rows_read_back_as_set_and_unset_rows_are_missing() {
        let mut lft = Lft::new();
        assert_eq!(lft.set(Lid(3), LftEntry::Port(PortNum(7))), None);
        lft.set(Lid(5), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(3)), LftEntry::Port(PortNum(7)));
        assert_eq!(lft.get(Lid(4)), LftEntry::Missing);
        assert_eq!(lft.get(Lid(5)), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(900)), LftEntry::Missing);
        assert_eq!(lft.len(), 2);
    }

    #[test]
    fn rows_either_side_of_a_mask_word_boundary_are_kept_apart() {
        let mut lft = Lft::new();
        for lid in [63, 64, 65, 127, 128] {
            lft.set(Lid(lid), LftEntry::Port(PortNum(2)));
        }
        lft.set(Lid(64), LftEntry::Missing);
        let lids: Vec<u16> = lft.entries().map(|(l, _)| l.0).collect();
        assert_eq!(lids, [63, 65, 127, 128]);
        assert_eq!(lft.get(Lid(64)), LftEntry::Missing);
        assert_eq!(lft.len(), 4);
    }

    #[test]
    fn a_shrunk_table_keeps_every_row_and_takes_new_ones() {
        let mut lft = Lft::new();
        for lid in 1..=1500 {
            lft.set(Lid(lid), LftEntry::Port(PortNum((lid % 30) as u8)));
        }
        lft.set(Lid(0xBFFF), LftEntry::Unreachable);
        let before: Vec<_> = lft.entries().collect();
        lft.shrink_to_fit();
        assert_eq!(lft.entries().collect::<Vec<_>>(), before);
        assert!(lft.heap_bytes() < 1501 + 200 + 64, "{} bytes", lft.heap_bytes());
        lft.set(Lid(1501), LftEntry::Port(PortNum(4)));
        assert_eq!(lft.get(Lid(1501)), LftEntry::Port(PortNum(4)));
        assert_eq!(lft.len(), 1502);
    }

    #[test]
    fn shrinking_keeps_the_dense_part_up_to_its_last_row_at_any_word_boundary() {
        for last in [1u16, 63, 64, 65, 127, 128, 1000] {
            let mut lft = Lft::new();
            lft.set(Lid(1), LftEntry::Port(PortNum(2)));
            lft.set(Lid(last), LftEntry::Unreachable);
            lft.set(Lid(last + 500), LftEntry::Port(PortNum(3)));
            lft.set(Lid(last + 500), LftEntry::Missing);
            let before: Vec<_> = lft.entries().collect();
            lft.shrink_to_fit();
            assert_eq!(lft.ports.len(), usize::from(last) + 1, "last row {last}");
            assert_eq!(lft.entries().collect::<Vec<_>>(), before, "last row {last}");
        }
        let mut empty = Lft::new();
        empty.set(Lid(5), LftEntry::Port(PortNum(1)));
        empty.set(Lid(5), LftEntry::Missing);
        empty.shrink_to_fit();
        assert_eq!((empty.ports.len(), empty.len()), (0, 0));
    }

    #[test]
    fn setting_a_row_twice_returns_the_old_entry() {
        let mut lft = Lft::new();
        lft.set(Lid(3), LftEntry::Port(PortNum(7)));
        assert_eq!(lft.set(Lid(3), LftEntry::Port(PortNum(9))), Some(LftEntry::Port(PortNum(7))));
        assert_eq!(lft.get(Lid(3)), LftEntry::Port(PortNum(9)));
    }

    #[test]
    fn a_lone_row_at_a_high_lid_costs_bytes_not_a_dense_table() {
        let mut lft = Lft::new();
        lft.set(Lid(0xBFFF), LftEntry::Port(PortNum(3)));
        lft.set(Lid(1), LftEntry::Unreachable);
        assert!(lft.heap_bytes() < 4 * DENSE_SLACK, "{} bytes", lft.heap_bytes());
        assert_eq!(lft.get(Lid(0xBFFF)), LftEntry::Port(PortNum(3)));
        assert_eq!(lft.get(Lid(1)), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(0xBFFE)), LftEntry::Missing);
        assert_eq!(lft.entries().collect::<Vec<_>>().len(), 2);
    }

    #[test]
    fn sparse_rows_move_into_the_dense_part_as_it_grows_and_equality_ignores_storage() {
        let mut sparse_first = Lft::new();
        sparse_first.set(Lid(3000), LftEntry::Port(PortNum(9)));
        let mut dense_only = Lft::new();
        for lid in 1..=2999u16 {
            sparse_first.set(Lid(lid), LftEntry::Port(PortNum((lid % 200) as u8)));
            dense_only.set(Lid(lid), LftEntry::Port(PortNum((lid % 200) as u8)));
        }
        dense_only.set(Lid(3000), LftEntry::Port(PortNum(9)));
        assert!(sparse_first.sparse.is_empty());
        assert_eq!(sparse_first, dense_only);
        assert_eq!(sparse_first.len(), 3000);
        dense_only.set(Lid(3000), LftEntry::Missing);
        assert_ne!(sparse_first, dense_only);
        assert_eq!(dense_only.len(), 2999);
    }
}

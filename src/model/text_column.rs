//! A text column as codes into its distinct values. A fabric's `link_ends` table names the same
//! few thousand nodes in 140,000 rows (`from`, `to`) and three directions in all of them; stored
//! as strings, those cells alone cost tens of megabytes at k = 36. Here each distinct value is
//! held once, a row is a `u32`, and a condition on the column is decided once per distinct value.
//!
//! The build index holds codes, not a second copy of each value, and hashes with foldhash
//! (seeded per process, so a file cannot choose colliding names): with a `HashMap<String, u32>`
//! under SipHash, building the k = 36 fabric's node, port and link tables was 0.2 s of the
//! window's first frame on both cores.

use std::hash::BuildHasher;

use hashbrown::HashTable;

/// Text cells, row by row, each a code into the column's distinct values.
#[derive(Clone, Default)]
pub struct TextColumn {
    codes: Vec<u32>,
    values: Vec<String>,
    /// Codes of `values` by the values' hashes while the column is being built; emptied by
    /// [`TextColumn::seal`] (rebuilt if rows are pushed again).
    index: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for TextColumn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextColumn").field("codes", &self.codes).field("values", &self.values).finish()
    }
}

impl TextColumn {
    pub fn new() -> TextColumn {
        TextColumn::default()
    }

    pub fn with_capacity(rows: usize) -> TextColumn {
        TextColumn { codes: Vec::with_capacity(rows), ..TextColumn::default() }
    }

    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Appends one cell.
    pub fn push(&mut self, text: &str) {
        let code = self.intern(text);
        self.codes.push(code);
    }

    /// Appends a cell holding the value of `code`, a code [`TextColumn::intern`] gave: for rows
    /// that repeat a few values (a link's end nodes), intern each value once and push codes.
    ///
    /// # Panics
    /// If `code` is not one of the column's values (a caller's bug, not a file's).
    pub fn push_code(&mut self, code: u32) {
        assert!((code as usize) < self.values.len(), "code {code} of {} values", self.values.len());
        self.codes.push(code);
    }

    /// The code of `text`, added to the distinct values if new; no row is appended.
    pub fn intern(&mut self, text: &str) -> u32 {
        let hasher = &self.hasher;
        if self.index.is_empty() && !self.values.is_empty() {
            let values = &self.values;
            for code in 0..values.len() as u32 {
                let hash = hash_of(hasher, values, code);
                self.index.insert_unique(hash, code, |&c| hash_of(hasher, values, c));
            }
        }
        let hash = hasher.hash_one(text);
        let values = &self.values;
        if let Some(&code) = self.index.find(hash, |&c| values[c as usize] == text) {
            return code;
        }
        // Each distinct value is a heap string: memory runs out long before 2^32 of them.
        let code = values.len() as u32;
        self.values.push(text.to_string());
        let values = &self.values;
        self.index.insert_unique(hash, code, |&c| hash_of(hasher, values, c));
        code
    }

    /// The cell of `row`.
    pub fn get(&self, row: usize) -> Option<&str> {
        self.codes.get(row).map(|&c| self.values[c as usize].as_str())
    }

    /// The code of `row`'s cell: an index into [`TextColumn::distinct`].
    pub fn code(&self, row: usize) -> Option<u32> {
        self.codes.get(row).copied()
    }

    /// Every distinct value, by code (values of truncated rows may remain).
    pub fn distinct(&self) -> &[String] {
        &self.values
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.codes.iter().map(|&c| self.values[c as usize].as_str())
    }

    pub fn extend(&mut self, other: TextColumn) {
        self.codes.reserve(other.len());
        for text in other.iter() {
            self.push(text);
        }
    }

    pub fn reserve(&mut self, rows: usize) {
        self.codes.reserve(rows);
    }

    pub fn truncate(&mut self, rows: usize) {
        self.codes.truncate(rows);
    }

    /// Done building: drops the build index and spare room.
    pub fn seal(&mut self) {
        self.index = HashTable::new();
        self.codes.shrink_to_fit();
        self.values.shrink_to_fit();
    }

    /// Bytes held, for memory accounting.
    pub fn heap_bytes(&self) -> usize {
        self.codes.capacity() * 4 + self.values.iter().map(|v| v.capacity() + 24).sum::<usize>()
    }
}

/// The hash of value `code`, as the build index keeps it (the index holds codes, so it asks again
/// whenever it grows).
fn hash_of(hasher: &foldhash::fast::RandomState, values: &[String], code: u32) -> u64 {
    hasher.hash_one(values[code as usize].as_str())
}

/// Two columns are equal when their cells are, whatever their codes.
impl PartialEq for TextColumn {
    fn eq(&self, other: &TextColumn) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<S: AsRef<str>> FromIterator<S> for TextColumn {
    fn from_iter<I: IntoIterator<Item = S>>(cells: I) -> TextColumn {
        let mut column = TextColumn::new();
        for cell in cells {
            column.push(cell.as_ref());
        }
        column.seal();
        column
    }
}

impl From<Vec<String>> for TextColumn {
    fn from(cells: Vec<String>) -> TextColumn {
        cells.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_values_are_held_once_and_read_back_row_by_row() {
        let column: TextColumn = ["up", "down", "up", "up", "host"].into_iter().collect();
        assert_eq!(column.len(), 5);
        assert_eq!(column.distinct(), ["up", "down", "host"]);
        assert_eq!(column.iter().collect::<Vec<_>>(), ["up", "down", "up", "up", "host"]);
        assert_eq!(column.get(3), Some("up"));
        assert_eq!(column.get(5), None);
    }

    #[test]
    fn pushing_after_sealing_reuses_the_existing_codes() {
        let mut column: TextColumn = ["a", "b"].into_iter().collect();
        column.push("a");
        column.push("c");
        assert_eq!(column.distinct(), ["a", "b", "c"]);
        assert_eq!(column.code(2), Some(0));
    }

    #[test]
    fn truncating_and_extending_keep_the_cells_in_order() {
        let mut column: TextColumn = ["a", "b", "c"].into_iter().collect();
        column.truncate(1);
        column.extend(["c", "a"].into_iter().collect());
        assert_eq!(column.iter().collect::<Vec<_>>(), ["a", "c", "a"]);
    }

    #[test]
    fn equality_is_by_cells_not_by_codes() {
        let a: TextColumn = ["x", "y"].into_iter().collect();
        let mut b: TextColumn = ["y"].into_iter().collect();
        b.truncate(0);
        b.push("x");
        b.push("y");
        assert_eq!(a, b);
        assert_ne!(a, ["x", "z"].into_iter().collect::<TextColumn>());
    }
}

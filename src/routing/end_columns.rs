//! One counter's values for every link end at every step of a history, as compact columns:
//! one `u64` per cell and one validity bit, end-major (`cell = end × stride + step`, the ends
//! of rail 0 first), so that a series, one port's counter over the range, is written into one
//! contiguous row as it streams in, and differenced there. A day of every port of the k = 36
//! rails at one-minute steps is 201 M cells: 8 B each plus a bit, where one `Option<u64>` per
//! cell would be 16 B. Each end's validity bits start on a word of their own, so that rows are
//! handed out whole ([`EndColumns::rows`], [`EndColumns::par_rows_mut`]) and a day's passes over
//! every cell run row by row on every core.

use rayon::prelude::*;

pub use super::end_rows::{Row, RowMut};

/// Values per (step, link end), each known or not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndColumns {
    /// Where each rail's ends start in a column; the last entry is the column's length.
    rail_starts: Vec<usize>,
    steps: usize,
    /// Cells per end's row: the steps it was made for (truncating keeps it).
    stride: usize,
    /// Words of `known` per end's row.
    known_stride: usize,
    values: Vec<u64>,
    /// One bit per cell, each row starting on a word: set where the value is known.
    known: Vec<u64>,
}

impl EndColumns {
    /// `steps` columns of `rail_ends[r]` ends per rail, nothing known.
    pub fn new(rail_ends: &[usize], steps: usize) -> EndColumns {
        let mut rail_starts = vec![0];
        for &n in rail_ends {
            rail_starts.push(rail_starts[rail_starts.len() - 1] + n);
        }
        let ends = rail_starts[rail_starts.len() - 1];
        let known_stride = steps.div_ceil(64);
        let (values, known) = (vec![0; ends * steps], vec![0; ends * known_stride]);
        EndColumns { rail_starts, steps, stride: steps, known_stride, values, known }
    }

    /// Link ends in one column (every rail's).
    pub fn ends(&self) -> usize {
        self.rail_starts.last().copied().unwrap_or(0)
    }

    pub fn steps(&self) -> usize {
        self.steps
    }

    pub fn rails(&self) -> usize {
        self.rail_starts.len().saturating_sub(1)
    }

    /// Link ends of one rail.
    pub fn rail_ends(&self, rail: usize) -> usize {
        match (self.rail_starts.get(rail), self.rail_starts.get(rail + 1)) {
            (Some(a), Some(b)) => b - a,
            _ => 0,
        }
    }

    /// The end's position in a column: its rail's start plus its index.
    pub fn end_of(&self, rail: usize, index: usize) -> Option<usize> {
        (index < self.rail_ends(rail)).then(|| self.rail_starts[rail] + index)
    }

    pub fn get(&self, step: usize, end: usize) -> Option<u64> {
        self.row(end)?.get(step)
    }

    /// The value of a rail's end at a step, as [`crate::routing::Observed::at`] indexes.
    pub fn at(&self, step: usize, rail: usize, index: usize) -> Option<u64> {
        self.get(step, self.end_of(rail, index)?)
    }

    /// Sets a cell; false (and nothing changed) when it was known already or lies outside.
    pub fn set_new(&mut self, step: usize, end: usize, value: u64) -> bool {
        self.row_mut(end).is_some_and(|mut row| row.set_new(step, value))
    }

    /// Sets or clears a cell.
    pub fn put(&mut self, step: usize, end: usize, value: Option<u64>) {
        if step < self.steps
            && let Some(mut row) = self.row_mut(end)
        {
            row.put(step, value);
        }
    }

    /// One rail's column at a step, as the dense per-end list the rest of shoal reads.
    pub fn rail_column(&self, step: usize, rail: usize) -> Vec<Option<u64>> {
        (0..self.rail_ends(rail)).map(|i| self.at(step, rail, i)).collect()
    }

    /// Keeps the first `steps` columns; the rest are no longer read (their cells stay held
    /// until the columns are dropped: a column's worth, not worth a pass to free).
    pub fn truncate(&mut self, steps: usize) {
        self.steps = steps.min(self.steps);
    }

    /// Each end's row, in column order (every rail's).
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> + '_ {
        (0..self.ends()).filter_map(|end| self.row(end))
    }

    /// One end's row.
    pub fn row(&self, end: usize) -> Option<Row<'_>> {
        (end < self.ends()).then(|| Row {
            values: &self.values[end * self.stride..][..self.steps],
            known: &self.known[end * self.known_stride..][..self.known_stride],
        })
    }

    /// One end's row, to change.
    pub fn row_mut(&mut self, end: usize) -> Option<RowMut<'_>> {
        (end < self.ends()).then(|| RowMut {
            values: &mut self.values[end * self.stride..][..self.steps],
            known: &mut self.known[end * self.known_stride..][..self.known_stride],
        })
    }

    /// `f` of each end's row, in column order, worked out on every core.
    pub fn par_map_rows<T: Send>(&self, f: impl Fn(Row<'_>) -> T + Sync) -> Vec<T> {
        (0..self.ends()).into_par_iter().map(|end| f(self.row(end).expect("an end of the columns"))).collect()
    }

    /// Calls `f` with each end's row to change, and the same end's row of `other` (which has
    /// as many ends) if given, on every core: rows share no cell and no word.
    pub fn par_each_row_mut(
        &mut self,
        other: Option<&EndColumns>,
        f: impl Fn(RowMut<'_>, Option<Row<'_>>) + Sync,
    ) {
        let steps = self.steps;
        if self.stride == 0 {
            // Rows of no cell: chunks of 0 are refused.
            return;
        }
        let rows = self.values.par_chunks_mut(self.stride).zip(self.known.par_chunks_mut(self.known_stride));
        rows.enumerate().for_each(|(end, (values, known))| {
            f(RowMut { values: &mut values[..steps], known }, other.and_then(|o| o.row(end)))
        });
    }

    /// Bytes held: the figure a memory bound is checked against.
    pub fn heap_bytes(&self) -> usize {
        (self.values.capacity() + self.known.capacity()) * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_known_only_once_set_and_a_second_value_is_refused() {
        let mut c = EndColumns::new(&[3, 2], 4);
        assert_eq!((c.ends(), c.steps(), c.rails()), (5, 4, 2));
        assert_eq!(c.at(1, 1, 0), None);
        assert!(c.set_new(1, c.end_of(1, 0).unwrap(), 0));
        assert!(!c.set_new(1, 3, 9), "the first value stays");
        assert_eq!(c.at(1, 1, 0), Some(0), "zero is a value, not unknown");
        assert_eq!(c.end_of(1, 2), None, "rail 1 has two ends");
        assert_eq!(c.rail_column(1, 1), [Some(0), None]);
        c.put(1, 3, None);
        assert_eq!(c.get(1, 3), None);
    }

    #[test]
    fn truncating_keeps_the_first_steps_and_forgets_the_rest() {
        let mut c = EndColumns::new(&[70], 3);
        c.put(0, 69, Some(1));
        c.put(2, 0, Some(7));
        c.truncate(1);
        assert_eq!((c.steps(), c.get(0, 69), c.get(2, 0)), (1, Some(1), None));
        assert_eq!(c.rail_column(0, 0).iter().flatten().count(), 1);
    }
}

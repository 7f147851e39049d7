//! One link end's row of a history's [`super::end_columns::EndColumns`]: its values at every
//! step and their validity bits. A history's passes over every cell (totals, differences, the
//! receive counters filling in, the sums, the strip) read and write a row at a time, so that a
//! day of every port is a walk through memory on every core rather than a column lookup per cell.

/// An end's values and validity bits (the bits may run past the values after a truncation).
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    pub(super) values: &'a [u64],
    pub(super) known: &'a [u64],
}

/// An end's row, to change.
#[derive(Debug)]
pub struct RowMut<'a> {
    pub(super) values: &'a mut [u64],
    pub(super) known: &'a mut [u64],
}

fn bit_of(known: &[u64], step: usize) -> bool {
    known[step / 64] >> (step % 64) & 1 == 1
}

impl Row<'_> {
    /// The value at a step, if known.
    pub fn get(&self, step: usize) -> Option<u64> {
        (step < self.values.len() && bit_of(self.known, step)).then(|| self.values[step])
    }

    /// Whether no step of the row is known (a port no series gave).
    pub fn is_empty(&self) -> bool {
        let steps = self.values.len();
        let (whole, rest) = (steps / 64, steps % 64);
        self.known[..whole].iter().all(|&w| w == 0)
            && (rest == 0 || self.known[whole] & ((1 << rest) - 1) == 0)
    }

    /// The first and last known values among `steps` (in order), and how many are known.
    pub fn first_last(&self, steps: &[usize]) -> (Option<u64>, Option<u64>, usize) {
        if self.is_empty() {
            return (None, None, 0);
        }
        let (mut first, mut last, mut readings) = (None, None, 0);
        for &step in steps {
            if let Some(v) = self.get(step) {
                first = first.or(Some(v));
                last = Some(v);
                readings += 1;
            }
        }
        (first, last, readings)
    }

    /// The sum of every step's value, if every one is known (saturating).
    pub fn sum_if_complete(&self) -> Option<u64> {
        (0..self.values.len()).try_fold(0u64, |sum, step| Some(sum.saturating_add(self.get(step)?)))
    }
}

impl RowMut<'_> {
    fn read(&self) -> Row<'_> {
        Row { values: self.values, known: self.known }
    }

    /// Sets a step; false (and nothing changed) when it was known already or lies outside.
    pub fn set_new(&mut self, step: usize, value: u64) -> bool {
        if step >= self.values.len() || bit_of(self.known, step) {
            return false;
        }
        self.put(step, Some(value));
        true
    }

    /// Sets or clears a step (one of the row's).
    pub(super) fn put(&mut self, step: usize, value: Option<u64>) {
        let (word, bit) = (step / 64, 1u64 << (step % 64));
        match value {
            Some(v) => {
                self.known[word] |= bit;
                self.values[step] = v;
            }
            None => self.known[word] &= !bit,
        }
    }

    /// Counts to intervals between consecutive `steps`, in place: interval `j` becomes
    /// `steps[j + 1]` − `steps[j]`, known where both are and the count did not fall. Interval
    /// `j` overwrites step `j`, which no later interval reads (`steps` rise, so `steps[j] ≥ j`).
    pub fn difference(&mut self, steps: &[usize]) {
        if self.read().is_empty() {
            return;
        }
        for (j, pair) in steps.windows(2).enumerate() {
            let row = self.read();
            let value = row.get(pair[0]).zip(row.get(pair[1])).and_then(|(a, b)| b.checked_sub(a));
            self.put(j, value);
        }
    }

    /// Takes `other`'s value at every step this row does not know.
    pub fn fill_unknown_from(&mut self, other: Row<'_>) {
        if other.is_empty() {
            return;
        }
        for step in 0..self.values.len() {
            if self.read().get(step).is_none()
                && let Some(v) = other.get(step)
            {
                self.put(step, Some(v));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::end_columns::EndColumns;

    /// Two ends over 70 steps (rows cross a word): end 0 counts 10 × step at every step but
    /// 3 and 65; end 1 is empty.
    fn columns() -> EndColumns {
        let mut c = EndColumns::new(&[2], 70);
        for step in (0..70).filter(|s| ![3, 65].contains(s)) {
            c.put(step, 0, Some(10 * step as u64));
        }
        c
    }

    #[test]
    fn a_row_reads_as_its_cells_and_an_empty_row_says_so() {
        let c = columns();
        let (full, empty) = (c.row(0).unwrap(), c.row(1).unwrap());
        assert!((0..70).all(|s| full.get(s) == c.get(s, 0)));
        assert_eq!((full.get(70), full.is_empty(), empty.is_empty()), (None, false, true));
        assert_eq!(full.first_last(&[3, 5, 64, 65]), (Some(50), Some(640), 2));
        assert_eq!(empty.first_last(&[0, 1]), (None, None, 0));
        assert!(c.row(2).is_none(), "two ends");
    }

    #[test]
    fn differencing_rows_gives_each_interval_where_both_steps_are_known() {
        let mut c = columns();
        let steps: Vec<usize> = (0..70).collect();
        c.par_each_row_mut(None, |mut row, _| row.difference(&steps));
        c.truncate(69);
        let expected = |j: usize| (![2, 3, 64, 65].contains(&j)).then_some(10);
        assert!((0..69).all(|j| c.get(j, 0) == expected(j)));
        assert!((0..69).all(|j| c.get(j, 1).is_none()));
    }

    #[test]
    fn a_fall_is_no_interval_and_filling_takes_only_the_unknown_steps() {
        let mut c = EndColumns::new(&[1], 3);
        let mut other = EndColumns::new(&[1], 3);
        c.put(0, 0, Some(5));
        c.put(1, 0, Some(4));
        other.put(1, 0, Some(9));
        other.put(2, 0, Some(7));
        c.par_each_row_mut(Some(&other), |mut row, other| row.fill_unknown_from(other.unwrap()));
        assert_eq!((0..3).map(|s| c.get(s, 0)).collect::<Vec<_>>(), [Some(5), Some(4), Some(7)]);
        let mut row = c.row_mut(0).unwrap();
        assert!(!row.set_new(2, 1) && !row.set_new(3, 1), "known already; past the steps");
        c.par_each_row_mut(None, |mut row, _| row.difference(&[0, 1, 2]));
        assert_eq!((c.get(0, 0), c.get(1, 0)), (None, Some(3)), "5 -> 4 fell");
        assert_eq!(c.row(0).unwrap().sum_if_complete(), None);
    }
}

//! The values of every link end in one counter interval: a dense per-rail list (what a few
//! snapshot files give), or one step of a history's [`EndColumns`] (what a long Prometheus
//! range gives), shared and never copied. Either reads as `rails[r][LinkEnd::index()]`; the
//! columns' form materialises that list only when asked for it by index (tests, small
//! ranges), while the time strip, the link series and "who shared my links" read
//! [`EndValues::value_at`], which never does.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

use super::end_columns::EndColumns;

/// Per rail, per link end, a value or none.
pub type Dense = Vec<Vec<Option<u64>>>;

#[derive(Clone)]
pub enum EndValues {
    Dense(Dense),
    /// Step `step` of shared columns; `dense` caches the list once asked for.
    Column {
        columns: Arc<EndColumns>,
        step: usize,
        dense: OnceLock<Dense>,
    },
}

/// The history every one of `values` reads, with each one's step; `None` when some hold their
/// own values (snapshot files) or they read different histories.
pub fn shared_columns<'a>(
    values: impl Iterator<Item = &'a EndValues>,
) -> Option<(&'a EndColumns, Vec<usize>)> {
    let mut shared: Option<&Arc<EndColumns>> = None;
    let mut steps = Vec::new();
    for one in values {
        let EndValues::Column { columns, step, .. } = one else { return None };
        if shared.is_some_and(|s| !Arc::ptr_eq(s, columns)) {
            return None;
        }
        shared = Some(columns);
        steps.push(*step);
    }
    Some((shared?.as_ref(), steps))
}

impl EndValues {
    pub fn column(columns: Arc<EndColumns>, step: usize) -> EndValues {
        EndValues::Column { columns, step, dense: OnceLock::new() }
    }

    /// One end's value, read in place.
    pub fn value_at(&self, rail: usize, index: usize) -> Option<u64> {
        match self {
            EndValues::Dense(rails) => rails.get(rail)?.get(index).copied().flatten(),
            EndValues::Column { columns, step, .. } => columns.at(*step, rail, index),
        }
    }

    /// Rails held (none for an empty list).
    pub fn rail_count(&self) -> usize {
        match self {
            EndValues::Dense(rails) => rails.len(),
            EndValues::Column { columns, .. } => columns.rails(),
        }
    }

    /// Link ends of one rail.
    pub fn rail_len(&self, rail: usize) -> usize {
        match self {
            EndValues::Dense(rails) => rails.get(rail).map_or(0, Vec::len),
            EndValues::Column { columns, .. } => columns.rail_ends(rail),
        }
    }

    /// True when no rail is held: answered without materialising the columns.
    pub fn is_empty(&self) -> bool {
        self.rail_count() == 0
    }
}

impl Default for EndValues {
    fn default() -> EndValues {
        EndValues::Dense(Vec::new())
    }
}

impl From<Dense> for EndValues {
    fn from(rails: Dense) -> EndValues {
        EndValues::Dense(rails)
    }
}

impl Deref for EndValues {
    type Target = Dense;
    fn deref(&self) -> &Dense {
        match self {
            EndValues::Dense(rails) => rails,
            EndValues::Column { columns, step, dense } => {
                dense.get_or_init(|| (0..columns.rails()).map(|r| columns.rail_column(*step, r)).collect())
            }
        }
    }
}

/// Writing turns a column into its own dense list first.
impl DerefMut for EndValues {
    fn deref_mut(&mut self) -> &mut Dense {
        if let EndValues::Column { .. } = self {
            let dense: Dense = (**self).clone();
            *self = EndValues::Dense(dense);
        }
        match self {
            EndValues::Dense(rails) => rails,
            EndValues::Column { .. } => unreachable!("made dense above"),
        }
    }
}

impl PartialEq for EndValues {
    fn eq(&self, other: &EndValues) -> bool {
        self.rail_count() == other.rail_count()
            && (0..self.rail_count()).all(|r| {
                self.rail_len(r) == other.rail_len(r)
                    && (0..self.rail_len(r)).all(|i| self.value_at(r, i) == other.value_at(r, i))
            })
    }
}

impl Eq for EndValues {}

impl PartialEq<Dense> for EndValues {
    fn eq(&self, other: &Dense) -> bool {
        *self == EndValues::Dense(other.clone())
    }
}

impl std::fmt::Debug for EndValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.deref().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_reads_like_the_dense_list_it_stands_for() {
        let mut columns = EndColumns::new(&[2, 1], 2);
        columns.put(1, 0, Some(5));
        columns.put(1, 2, Some(0));
        let column = EndValues::column(Arc::new(columns), 1);
        let dense = vec![vec![Some(5), None], vec![Some(0)]];
        assert_eq!(column, dense);
        assert_eq!(column, EndValues::Dense(dense.clone()));
        assert_eq!(
            (column.value_at(0, 0), column.value_at(0, 1), column.value_at(1, 0)),
            (Some(5), None, Some(0))
        );
        assert_eq!(column[0][0], Some(5));
        assert_ne!(column, vec![vec![Some(5), None], vec![Some(1)]]);
    }

    #[test]
    fn writing_into_a_column_leaves_the_shared_columns_alone() {
        let columns = Arc::new(EndColumns::new(&[1], 1));
        let mut column = EndValues::column(columns.clone(), 0);
        column[0][0] = Some(3);
        assert_eq!(column.value_at(0, 0), Some(3));
        assert_eq!(columns.at(0, 0, 0), None);
    }
}

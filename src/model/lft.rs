//! A switch's linear forwarding table: destination LID → output port.

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

/// Dense table indexed by LID. Unset rows hold [`MISSING`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lft {
    ports: Vec<u8>,
    /// Set rows hold a port in 0..=254, DROP_PORT for unreachable; this marks rows never set.
    set: Vec<bool>,
}

/// Marker for an unset row in [`Lft`]'s port vector (the `set` mask is what counts).
pub const MISSING: u8 = DROP_PORT;

impl Lft {
    pub fn new() -> Self {
        Lft::default()
    }

    /// Sets a row. Returns the previous entry if the LID was already set.
    pub fn set(&mut self, lid: Lid, entry: LftEntry) -> Option<LftEntry> {
        let i = usize::from(lid.0);
        if self.ports.len() <= i {
            self.ports.resize(i + 1, MISSING);
            self.set.resize(i + 1, false);
        }
        let previous = self.get(lid);
        self.ports[i] = match entry {
            LftEntry::Port(p) => p.0,
            LftEntry::Unreachable | LftEntry::Missing => DROP_PORT,
        };
        self.set[i] = entry != LftEntry::Missing;
        (previous != LftEntry::Missing).then_some(previous)
    }

    pub fn get(&self, lid: Lid) -> LftEntry {
        let i = usize::from(lid.0);
        match (self.set.get(i), self.ports.get(i)) {
            (Some(true), Some(&DROP_PORT)) => LftEntry::Unreachable,
            (Some(true), Some(&p)) => LftEntry::Port(PortNum(p)),
            _ => LftEntry::Missing,
        }
    }

    /// Number of LIDs with a row (routed or unreachable).
    pub fn len(&self) -> usize {
        self.set.iter().filter(|&&s| s).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every set row, in LID order.
    pub fn entries(&self) -> impl Iterator<Item = (Lid, LftEntry)> + '_ {
        (0..self.set.len()).filter(|&i| self.set[i]).map(|i| (Lid(i as u16), self.get(Lid(i as u16))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn setting_a_row_twice_returns_the_old_entry() {
        let mut lft = Lft::new();
        lft.set(Lid(3), LftEntry::Port(PortNum(7)));
        assert_eq!(lft.set(Lid(3), LftEntry::Port(PortNum(9))), Some(LftEntry::Port(PortNum(7))));
        assert_eq!(lft.get(Lid(3)), LftEntry::Port(PortNum(9)));
    }
}

//! The rank's local InfiniBand ports, as found in sysfs or reported by a backend; written as
//! `port` lines by the shared ibprof writer.

use std::borrow::Cow;

/// A local InfiniBand port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalPort {
    pub index: u32,
    pub device: Option<String>,
    pub portnum: Option<u8>,
    pub guid: u64,
    pub lid: u16,
    pub lmc: u8,
}

impl LocalPort {
    /// True if `lid` is one of this port's LIDs (`lid .. lid + 2^lmc`).
    pub fn owns(&self, lid: u16) -> bool {
        let span = 1u32 << self.lmc.min(7);
        (self.lid as u32..self.lid as u32 + span).contains(&(lid as u32))
    }

    /// The port as its `port` record.
    pub fn record(&self) -> ibprof_format::Port<'_> {
        ibprof_format::Port {
            index: self.index,
            device: self.device.as_deref().map(Cow::Borrowed),
            portnum: self.portnum,
            guid: self.guid,
            lid: self.lid,
            lmc: self.lmc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_owns_its_lmc_range() {
        let p = LocalPort { lid: 0x10, lmc: 2, ..LocalPort::default() };
        assert!(p.owns(0x10) && p.owns(0x13));
        assert!(!p.owns(0x14) && !p.owns(0x0f));
    }
}

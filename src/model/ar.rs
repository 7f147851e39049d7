//! Adaptive routing (AR) tables of a switch: which destination LIDs may leave by any port of an
//! AR group, and which ports form each group.
//!
//! What a switch dumps (ibdiagnet2's `.far`, see `docs/formats/adaptive-routing.md`) is its
//! configuration, not its decisions: a packet to an AR-enabled LID leaves by whichever port of
//! the group the switch finds least loaded at that moment. Shoal models that as an even spread
//! over the group's ports ([`crate::routing::ar`]); the static forwarding table stays in
//! [`super::Lft`], and what is traced from it is what `ibtracert` prints.

use std::collections::BTreeMap;

use super::ids::{Lid, PortNum};

/// How a switch forwards one destination LID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArState {
    /// The static port only (`Static` in ibdiagnet2.far).
    Static,
    /// Adaptive: any port of the group, chosen per packet or per flowlet (`Free`), or by a hash
    /// of the flow (`HBF`, hash-based forwarding). Both spread a destination's bytes over the
    /// group; shoal does not know the hash, so both are modelled as an even spread.
    Adaptive { group: u16 },
}

/// One switch's AR configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArTable {
    /// Group number → its ports (the union of its sub-groups), ascending.
    pub groups: BTreeMap<u16, Vec<PortNum>>,
    /// Destination LID → how it is forwarded; LIDs not listed are static.
    pub lids: BTreeMap<Lid, ArState>,
}

impl ArTable {
    /// The ports a destination's bytes may leave by, if it is AR-enabled with a known group.
    pub fn group_ports(&self, dst: Lid) -> Option<&[PortNum]> {
        match self.lids.get(&dst)? {
            ArState::Adaptive { group } => self.groups.get(group).map(Vec::as_slice),
            ArState::Static => None,
        }
    }

    /// How many destinations are AR-enabled.
    pub fn adaptive_lids(&self) -> usize {
        self.lids.values().filter(|s| matches!(s, ArState::Adaptive { .. })).count()
    }
}

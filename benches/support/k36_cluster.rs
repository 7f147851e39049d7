//! The k = 36 fat tree's two rails built in memory (11,664 hosts, 1,620 switches and 34,992
//! links each), once per bench process: for the benches that need the fabric but not its dumps.

use std::sync::OnceLock;

use shoal::model::synthetic::ThreeLevel;
use shoal::model::{Cluster, RailId};

/// The two rails; rail 1's GUIDs are rail 0's with another prefix.
pub fn two_rails() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(|| {
        Cluster::new(vec![
            ThreeLevel::k_ary(36).build(),
            ThreeLevel::k_ary(36).rail(RailId(1), 0x0002_c901_0000_0000).build(),
        ])
    })
}

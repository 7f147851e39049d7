//! What a set of tables does with every destination from every switch: delivered or not, and on
//! a shortest path or not. Routing depends only on (switch, destination LID), so walking each
//! destination from each switch (memoised along the way) covers every CA pair at once.

use rayon::prelude::*;

use crate::model::{Fabric, LftEntry};

use super::topology::{NO_HOPS, Topology};

/// Counts over every (switch, CA LID) row, plus the switch-LID rows that do not arrive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteCheck {
    /// (switch, CA LID) rows: every CA pair's path is made of these.
    pub rows: usize,
    /// Rows whose walk reaches the LID's owner.
    pub delivered: usize,
    /// Delivered rows that take the fewest hops the cabling allows.
    pub shortest: usize,
    /// Rows whose walk comes back to a switch it crossed.
    pub loops: usize,
    /// (switch, switch LID) rows that do not arrive (management paths; up*/down* leaves some).
    pub switch_rows_undelivered: usize,
}

impl RouteCheck {
    pub fn all_delivered(&self) -> bool {
        self.delivered == self.rows
    }
}

/// Walks every destination of `topology` from every switch through `fabric`'s tables.
pub fn check_routes(fabric: &Fabric, topology: &Topology) -> RouteCheck {
    let n = topology.switches.len();
    topology
        .destinations
        .par_iter()
        .map_init(
            || (vec![Walk::Unknown; n], Vec::with_capacity(16)),
            |(memo, chain), dest| {
                memo.fill(Walk::Unknown);
                let target = topology.switches[dest.target];
                let hands_over =
                    fabric.lft(target).map(|lft| lft.get(dest.lid)) == Some(LftEntry::Port(dest.exit));
                memo[dest.target] = if hands_over { Walk::Arrives(0) } else { Walk::Drops };
                let mut check = RouteCheck::default();
                for s in 0..n {
                    let walk = walk_from(fabric, topology, dest.lid, s, memo, chain);
                    if dest.to_switch {
                        check.switch_rows_undelivered += usize::from(!matches!(walk, Walk::Arrives(_)));
                        continue;
                    }
                    check.rows += 1;
                    match walk {
                        Walk::Arrives(hops) => {
                            check.delivered += 1;
                            let least = topology.hops(s, dest.target);
                            check.shortest += usize::from(least != NO_HOPS && u32::from(least) == hops);
                        }
                        Walk::Loops => check.loops += 1,
                        Walk::Unknown | Walk::Drops => {}
                    }
                }
                check
            },
        )
        .reduce(RouteCheck::default, |a, b| RouteCheck {
            rows: a.rows + b.rows,
            delivered: a.delivered + b.delivered,
            shortest: a.shortest + b.shortest,
            loops: a.loops + b.loops,
            switch_rows_undelivered: a.switch_rows_undelivered + b.switch_rows_undelivered,
        })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    Unknown,
    /// Reaches the destination's switch after this many switch-to-switch hops.
    Arrives(u32),
    Drops,
    Loops,
}

/// Follows the tables from switch `s` until a switch whose fate is known, then records the
/// fate of every switch on the way.
fn walk_from(
    fabric: &Fabric,
    topology: &Topology,
    lid: crate::model::Lid,
    s: usize,
    memo: &mut [Walk],
    chain: &mut Vec<usize>,
) -> Walk {
    chain.clear();
    let mut at = s;
    let end = loop {
        if memo[at] != Walk::Unknown {
            break memo[at];
        }
        if chain.contains(&at) {
            break Walk::Loops;
        }
        chain.push(at);
        let node = topology.switches[at];
        let next = match fabric.lft(node).map(|lft| lft.get(lid)) {
            Some(LftEntry::Port(port)) if port.0 != 0 => {
                fabric.out_through(node, port).and_then(|(_, far, _)| topology.switch_of[far.index()])
            }
            _ => None,
        };
        match next {
            Some(m) => at = m,
            None => break Walk::Drops,
        }
    };
    let mut fate = end;
    for &x in chain.iter().rev() {
        fate = match fate {
            Walk::Arrives(h) => Walk::Arrives(h + 1),
            other => other,
        };
        memo[x] = fate;
    }
    memo[s]
}

//! What the forwarding-table readers (`.fdbs`, `opensm-lfts.dump`) share: the per-switch table
//! they return, the block bookkeeping with its duplicate rules, and what can be learnt from the
//! tables together with the link list (the LMC, which `.lst` files do not record).
//!
//! Duplicates: a LID listed twice in one switch's block, or a switch with two blocks, keeps the
//! **first** and warns, as [`FabricBuilder`](crate::model::FabricBuilder) does for LIDs. The
//! writers never emit either, so a repeat means a damaged or concatenated file, and the first
//! block is the one a reader of the file would have seen first.

use rayon::prelude::*;
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use crate::model::{Guid, Lft, LftEntry, Lid, NodeKind};

use super::ibdiagnet_lst::{Lmc, LstLink};
use super::line_warnings::LineWarnings;

/// One switch's forwarding table as read from a dump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwitchTable {
    /// Line of the block's header, for warnings about the whole table.
    pub line: usize,
    /// The switch LID the header states (`opensm-lfts.dump`), to cross-check with the link list.
    pub lid: Option<Lid>,
    /// The node description the header states (`opensm-lfts.dump`).
    pub description: Option<String>,
    pub lft: Lft,
    /// The block ended with its `N lids dumped` footer and holds the N rows it states (`ibroute`,
    /// `dump_fts`, `opensm-lfts.dump`): a table cut short by a truncated copy is not complete.
    pub complete: bool,
}

impl SwitchTable {
    /// What makes one table of a switch better than another when two files disagree: a complete
    /// block first, then more rows (issue 16: a truncated copy must not win by its file name).
    pub fn completeness(&self) -> (bool, usize) {
        (self.complete, self.lft.len())
    }

    /// How a warning describes the table's completeness.
    pub fn describe_completeness(&self) -> String {
        let state = if self.complete { "complete" } else { "no closing `lids dumped` line" };
        format!("{} rows, {state}", self.lft.len())
    }
}

/// Tables by switch node GUID.
pub type SwitchTables = BTreeMap<Guid, SwitchTable>;

/// Collects switch blocks and their rows, applying the duplicate rules of the module doc.
#[derive(Debug, Default)]
pub(crate) struct TableCollector {
    tables: SwitchTables,
    current: Option<(Guid, SwitchTable)>,
}

impl TableCollector {
    /// Starts a new switch block (closing the open one).
    pub fn start(&mut self, guid: Guid, table: SwitchTable, warnings: &mut LineWarnings) {
        self.close(warnings);
        self.current = Some((guid, table));
    }

    /// The switch whose block is open, if any.
    pub fn current(&self) -> Option<Guid> {
        self.current.as_ref().map(|(guid, _)| *guid)
    }

    /// Adds a row to the open block. False if no block is open.
    pub fn row(&mut self, line: usize, lid: Lid, entry: LftEntry, warnings: &mut LineWarnings) -> bool {
        let Some(mut open) = self.open() else {
            return false;
        };
        open.row(line, lid, entry, warnings);
        true
    }

    /// The open block, to add many rows to it in a row.
    pub fn open(&mut self) -> Option<OpenTable<'_>> {
        self.current.as_mut().map(|(guid, table)| OpenTable { guid: *guid, lft: &mut table.lft })
    }

    /// Closes the open block at its `N lids dumped` footer: complete when it holds the `stated`
    /// rows (or no count is stated).
    pub fn end_block(&mut self, stated: Option<usize>, warnings: &mut LineWarnings) {
        if let Some((_, table)) = self.current.as_mut() {
            table.complete = stated.is_none_or(|n| n == table.lft.len());
        }
        self.close(warnings);
    }

    /// Closes the open block.
    pub fn close(&mut self, warnings: &mut LineWarnings) {
        let Some((guid, table)) = self.current.take() else {
            return;
        };
        match self.tables.entry(guid) {
            Entry::Vacant(slot) => {
                slot.insert(table);
            }
            Entry::Occupied(first) => warnings.line(
                table.line,
                format!(
                    "switch {guid} has a second table (the first is at line {}); kept the first",
                    first.get().line
                ),
            ),
        }
    }

    pub fn finish(mut self, warnings: &mut LineWarnings) -> SwitchTables {
        self.close(warnings);
        self.tables
    }
}

/// The table of the open block.
pub(crate) struct OpenTable<'t> {
    guid: Guid,
    lft: &'t mut Lft,
}

impl OpenTable<'_> {
    /// Adds a row, keeping the first where the LID is listed again. Inlined into the readers'
    /// row loops, as [`Lft::set`] is, with the rare repeat out of line.
    #[inline(always)]
    pub fn row(&mut self, line: usize, lid: Lid, entry: LftEntry, warnings: &mut LineWarnings) {
        // One lookup in the common case; a repeat (rare) puts the first row back.
        if let Some(first) = self.lft.set(lid, entry) {
            self.repeated(line, lid, first, warnings);
        }
    }

    #[cold]
    #[inline(never)]
    fn repeated(&mut self, line: usize, lid: Lid, first: LftEntry, warnings: &mut LineWarnings) {
        self.lft.set(lid, first);
        let guid = self.guid;
        warnings.line(line, format!("LID {lid} is listed again for switch {guid}; kept the first row"));
    }
}

/// The row count a `44 valid lids dumped` / `44 lids dumped` footer states.
pub fn stated_rows(footer: &str) -> Option<usize> {
    footer.split_whitespace().next()?.parse().ok()
}

/// True when two tables route every LID to the same port. A LID without a row and a LID marked
/// unreachable both mean "no route" (the `.fdbs` writer prints `UNREACHABLE` where the
/// `opensm-lfts.dump` writer prints nothing), so they compare equal.
pub fn same_routes(a: &Lft, b: &Lft) -> bool {
    let routes = |lft: &Lft| -> Vec<(Lid, LftEntry)> {
        lft.entries().filter(|(_, entry)| matches!(entry, LftEntry::Port(_))).collect()
    };
    routes(a) == routes(b)
}

/// Infers the LMC from the tables: with LMC `l`, OpenSM gives each CA port the aligned LIDs
/// `base .. base + 2^l` and routes all of them, while the `.lst` prints only the base. So the
/// LMC is the largest `l` such that, for **every** CA and router port, the `2^l - 1` LIDs after
/// its base are routed by some switch and are nobody's base LID. Switch port 0 gets the same LMC
/// only if every switch shows it too (OpenSM's `lmc_esp0`); otherwise 0. No tables: LMC 0.
pub fn infer_lmc<'t>(links: &[&LstLink<'_>], tables: impl IntoIterator<Item = &'t Lft>) -> Lmc {
    // Every table's rows (37 million on a k = 36 rail), on every core.
    let tables: Vec<&Lft> = tables.into_iter().collect();
    let routed = tables.par_iter().fold(Vec::new, mark_routed).reduce(Vec::new, |a, b| {
        let (mut long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        long.iter_mut().zip(short).for_each(|(l, s)| *l |= s);
        long
    });
    if routed.is_empty() {
        return Lmc::default();
    }
    let mut base = vec![false; routed.len()];
    for end in links.iter().flat_map(|link| &link.ends) {
        if let Some(slot) = base.get_mut(usize::from(end.lid.0)) {
            *slot = true;
        }
    }
    let candidate = |lid: Lid| -> u8 {
        let b = usize::from(lid.0);
        let run = (b + 1..routed.len()).take_while(|&l| routed[l] && !base[l]).take(127).count();
        (0..=7u8).rev().find(|&l| (1usize << l) - 1 <= run && b % (1usize << l) == 0).unwrap_or(0)
    };
    let (mut ca, mut switch) = (None::<u8>, None::<u8>);
    for end in links.iter().flat_map(|link| &link.ends) {
        if end.lid.0 == 0 {
            continue;
        }
        let slot = if end.kind == NodeKind::Switch { &mut switch } else { &mut ca };
        let c = candidate(end.lid);
        *slot = Some(slot.map_or(c, |s| s.min(c)));
    }
    let ca = ca.unwrap_or(0);
    let switch = if ca > 0 && switch.unwrap_or(0) >= ca { ca } else { 0 };
    Lmc { ca, switch }
}

/// Marks in `routed` (grown as needed) the LIDs `lft` routes out of a port.
fn mark_routed(mut routed: Vec<bool>, lft: &&Lft) -> Vec<bool> {
    lft.mark_routed(&mut routed);
    routed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortNum;
    use crate::profile_io::ibdiagnet_lst::parse_lst_line;

    fn lft(rows: &[(u16, LftEntry)]) -> Lft {
        let mut lft = Lft::new();
        for &(lid, entry) in rows {
            lft.set(Lid(lid), entry);
        }
        lft
    }

    const P1: LftEntry = LftEntry::Port(PortNum(1));
    const P2: LftEntry = LftEntry::Port(PortNum(2));

    #[test]
    fn unreachable_and_missing_rows_are_the_same_route() {
        let a = lft(&[(1, P1), (2, LftEntry::Unreachable), (3, P2)]);
        let b = lft(&[(1, P1), (3, P2)]);
        assert!(same_routes(&a, &b));
        assert!(!same_routes(&a, &lft(&[(1, P1), (3, P1)])));
    }

    #[test]
    fn repeated_lid_rows_and_repeated_switch_blocks_keep_the_first() {
        let mut warnings = LineWarnings::new("t.fdbs");
        let mut collector = TableCollector::default();
        collector.start(Guid(7), SwitchTable { line: 1, ..Default::default() }, &mut warnings);
        assert!(collector.row(2, Lid(1), P1, &mut warnings));
        assert!(collector.row(3, Lid(1), P2, &mut warnings));
        collector.start(Guid(7), SwitchTable { line: 4, ..Default::default() }, &mut warnings);
        collector.row(5, Lid(1), P2, &mut warnings);
        let tables = collector.finish(&mut warnings);
        assert_eq!(tables[&Guid(7)].lft.get(Lid(1)), P1);
        let warnings = warnings.finish();
        assert_eq!(warnings.iter().map(|w| w.line).collect::<Vec<_>>(), vec![Some(3), Some(4)]);
    }

    #[test]
    fn rows_before_any_switch_header_are_refused() {
        let mut warnings = LineWarnings::new("t.fdbs");
        assert!(!TableCollector::default().row(1, Lid(1), P1, &mut warnings));
    }

    fn link(sw_lid: u16, ca_lid: u16, ca_guid: u64) -> String {
        format!(
            "{{ SW Ports:24 NodeGUID:0002c90200010000 PortGUID:0002c90200010000 {{sw}} LID:{sw_lid:04X} PN:{ca_lid:02X} }} \
             {{ CA Ports:01 NodeGUID:{ca_guid:016x} PortGUID:{:016x} {{h}} LID:{ca_lid:04X} PN:01 }} PHY=4x LOG=ACT SPD=10",
            ca_guid + 1
        )
    }

    #[test]
    fn lmc_is_inferred_from_routed_lids_between_the_base_lids() {
        // LMC 2: the switch at LID 1 (no lmc_esp0), CAs at bases 4 and 8, each owning 4 LIDs.
        let lines = [link(1, 4, 0x100), link(1, 8, 0x200)];
        let links: Vec<_> = lines.iter().map(|l| parse_lst_line(l, 1).unwrap()).collect();
        let routed = lft(&[(1, LftEntry::Port(PortNum(0))), (4, P1), (5, P1), (6, P1), (7, P1), (8, P2)]);
        let mut full = routed.clone();
        for lid in 9..12 {
            full.set(Lid(lid), P2);
        }
        assert_eq!(infer_lmc(&links.iter().collect::<Vec<_>>(), [&full]), Lmc { ca: 2, switch: 0 });
        // One CA with only its base routed pins the fabric to LMC 0.
        assert_eq!(infer_lmc(&links.iter().collect::<Vec<_>>(), [&routed]), Lmc::default());
        assert_eq!(infer_lmc(&links.iter().collect::<Vec<_>>(), []), Lmc::default());
    }
}

//! What kind of fabric dump a file is: by its name, or by a sample of its lines.

use super::ibdiagnet2_csv::claims_db_csv_line;
use super::ibnetdiscover::claims_ibnetdiscover_line;
use super::ibnetdiscover_ports::claims_ports_line;
use super::ibroute::claims_ibroute_line;
use super::input::Input;
use super::recognise::{Recogniser, recognise, sample};

/// The kinds of fabric dump a rail is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DumpKind {
    /// `.lst` link list (OpenSM, ibdiagnet, ibdiagnet2).
    LinkList,
    /// ibdiagnet2's `ibdiagnet2.db_csv` (NODES, PORTS, LINKS sections).
    Ibdiagnet2Csv,
    /// An `ibnetdiscover` topology file.
    Ibnetdiscover,
    /// `ibnetdiscover -p`, the ports report.
    PortsList,
    /// `.fdbs` forwarding tables.
    Fdbs,
    /// `opensm-lfts.dump` forwarding tables.
    LftsDump,
    /// `ibroute`/`dump_fts` forwarding tables (one switch or several per file).
    Ibroute,
    /// ibdiagnet2's `ibdiagnet2.far`: adaptive-routing groups and AR-enabled LIDs.
    AdaptiveRouting,
    /// An `ibdiagnet2.db_csv` read only for its `AR_INFO` section (another file is the topology).
    ArInfo,
}

impl DumpKind {
    /// Topology kinds, best first: the one used when a directory holds several.
    pub const TOPOLOGY_PREFERENCE: [DumpKind; 4] =
        [DumpKind::LinkList, DumpKind::Ibdiagnet2Csv, DumpKind::Ibnetdiscover, DumpKind::PortsList];
    /// Forwarding-table kinds, best first: `.fdbs` also marks unreachable LIDs.
    pub const TABLE_PREFERENCE: [DumpKind; 3] = [DumpKind::Fdbs, DumpKind::LftsDump, DumpKind::Ibroute];

    /// True for forwarding-table kinds, of which one is read (AR tables are read beside them).
    pub fn is_table(self) -> bool {
        DumpKind::TABLE_PREFERENCE.contains(&self)
    }

    /// True for the kinds that describe nodes and links (as opposed to forwarding tables).
    pub fn is_topology(self) -> bool {
        DumpKind::TOPOLOGY_PREFERENCE.contains(&self)
    }

    /// How warnings name the kind.
    pub fn describe(self) -> &'static str {
        match self {
            DumpKind::LinkList => ".lst link list",
            DumpKind::Ibdiagnet2Csv => "ibdiagnet2.db_csv",
            DumpKind::Ibnetdiscover => "ibnetdiscover topology",
            DumpKind::PortsList => "ibnetdiscover -p ports list",
            DumpKind::Fdbs => ".fdbs",
            DumpKind::LftsDump => "opensm-lfts.dump",
            DumpKind::Ibroute => "ibroute/dump_fts",
            DumpKind::AdaptiveRouting => "ibdiagnet2.far adaptive routing",
            DumpKind::ArInfo => "ibdiagnet2.db_csv AR_INFO",
        }
    }
}

const LFTS_NAMES: [&str; 1] = ["opensm-lfts.dump"];

/// What a file name says about its kind, `None` for names that need a look at the content.
pub fn kind_from_name(name: &str) -> Option<DumpKind> {
    let name = name.strip_suffix(".gz").unwrap_or(name);
    if name.ends_with(".lst") {
        Some(DumpKind::LinkList)
    } else if name.ends_with(".fdbs") {
        Some(DumpKind::Fdbs)
    } else if name.ends_with(".far") {
        Some(DumpKind::AdaptiveRouting)
    } else if name.ends_with(".db_csv") {
        Some(DumpKind::Ibdiagnet2Csv)
    } else if LFTS_NAMES.contains(&name) {
        Some(DumpKind::LftsDump)
    } else {
        None
    }
}

/// One line test per dump kind, for [`kind_from_content`]: the kind claiming most sampled lines
/// wins, so a dump under hundreds of debug lines (`ibnetdiscover -d -p 2>&1`) is still itself.
pub const DUMP_RECOGNISERS: [Recogniser<DumpKind>; 8] = [
    Recogniser { kind: DumpKind::LinkList, claims: |l| l.starts_with('{') && l.contains("NodeGUID:") },
    Recogniser { kind: DumpKind::Fdbs, claims: claims_fdbs_line },
    Recogniser { kind: DumpKind::Ibdiagnet2Csv, claims: claims_db_csv_line },
    Recogniser { kind: DumpKind::Ibroute, claims: claims_ibroute_line },
    Recogniser { kind: DumpKind::LftsDump, claims: claims_lfts_line },
    Recogniser { kind: DumpKind::PortsList, claims: claims_ports_line },
    Recogniser { kind: DumpKind::Ibnetdiscover, claims: claims_ibnetdiscover_line },
    Recogniser { kind: DumpKind::AdaptiveRouting, claims: claims_far_line },
];

/// `ibdiagnet2.far`: its section headers, or a LID row `0x0001   17   Free   0`.
fn claims_far_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let row = words.next().is_some_and(|w| w.starts_with("0x"))
        && words.nth(1).is_some_and(|state| matches!(state, "Free" | "Static" | "HBF"));
    row || ["Groups Definition", "LFT Definition", "PLFT_NUM:"].iter().any(|h| line.starts_with(h))
}

/// `.fdbs`: a switch header (`…dump_ucast_routes: Switch 0x…`) or a row `0x0001 : 001 : 01 : yes`.
fn claims_fdbs_line(line: &str) -> bool {
    line.contains("dump_ucast_routes:")
        || (line.starts_with("0x") && line.split_whitespace().nth(1) == Some(":"))
}

/// `opensm-lfts.dump`: a header naming the switch by LID and `('…')`, or a row `0x0001 001 # …`.
fn claims_lfts_line(line: &str) -> bool {
    (line.starts_with("Unicast lids [") && line.contains("('") && !line.contains("DR path"))
        || (line.starts_with("0x") && line.split_whitespace().nth(2) == Some("#"))
}

/// What the lines of a file say about its kind: sampled through the whole text
/// ([`super::recognise::sample`]), so stray or debug lines on top do not hide it.
pub fn kind_from_content(input: &Input) -> Option<DumpKind> {
    recognise(&sample(input.text()), &DUMP_RECOGNISERS).map(|(kind, _)| kind)
}

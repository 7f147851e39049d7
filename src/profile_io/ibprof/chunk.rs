//! The line grammar of ibprof v1, applied to one chunk of a file: the prelude (everything before
//! the first `rank` line) or a run of lines that starts at a `rank` line. Chunks are parsed in
//! parallel, so line numbers here are relative to the chunk (1-based) and the caller shifts them.
//!
//! This file holds the parser's state, the dispatch and the counter lines (the hot path); the
//! other records are read in `chunk/records.rs`.

use std::collections::HashMap;

use crate::model::bytes::add_bytes;
use crate::model::{Dump, Lid, LidBytes, PeerBytes, PeerMessages, ProfileSource, RankSection, SizeCounts};
use crate::profile_io::line_warnings::MAX_LINE_WARNINGS;

use super::MAX_RANKS;
use ibprof_format::{Canonical, MsgCounts, PeerCounts, Tokens};

mod records;

/// What a `job` line says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Job {
    pub ranks: Option<u32>,
    pub mpi: Option<String>,
    pub source: Option<ProfileSource>,
}

/// What the chunks share: the job line of the prelude, which bounds rank and peer numbers.
#[derive(Clone, Debug, Default)]
pub(super) struct Context {
    pub job: Option<(Job, usize)>,
}

impl Context {
    fn rank_limit(&self) -> u32 {
        self.job.as_ref().and_then(|(job, _)| job.ranks).unwrap_or(MAX_RANKS)
    }
}

/// The result of one chunk. Lines are relative to the chunk's first line (which is line 1).
#[derive(Debug, Default)]
pub(super) struct Chunk {
    pub sections: Vec<(usize, RankSection)>,
    pub warnings: Vec<(usize, String)>,
    /// Line warnings past [`MAX_LINE_WARNINGS`], only counted.
    pub suppressed: usize,
    pub lines: usize,
    /// The prelude's first `job` line.
    pub job: Option<(Job, usize)>,
    pub header_seen: bool,
    /// The highest rank or peer number kept, to size the job when there is no `job` line.
    pub max_rank_seen: Option<u32>,
}

/// Where the parser is: before any rank, skipping a rank's section, or inside one.
enum Place {
    Prelude,
    SkipRank(Skip),
    Rank(Box<RankState>),
}

struct RankState {
    line: usize,
    section: RankSection,
    region: RegionPlace,
}

enum RegionPlace {
    NoneYet,
    Active,
    Skip(Skip),
}

/// Lines skipped after one warning: the warning is amended with their count at the end.
struct Skip {
    warning: Option<usize>,
    lines: usize,
}

/// Finds a counter already present in the current dump. Writers list counters in increasing
/// order, so the common case is one comparison; an out-of-order counter switches to a hash index.
#[derive(Default)]
struct Dedup {
    last: Option<u64>,
    indexed: bool,
    index: HashMap<u64, usize>,
}

impl Dedup {
    /// Where `key` already is among the `len` counters, or `None` (the caller then appends it).
    fn find(&mut self, key: u64, len: usize, key_at: impl Fn(usize) -> u64) -> Option<usize> {
        if !self.indexed {
            if self.last.is_none_or(|last| key > last) {
                self.last = Some(key);
                return None;
            }
            self.index.clear();
            self.index.extend((0..len).map(|i| (key_at(i), i)));
            self.indexed = true;
        }
        match self.index.get(&key) {
            Some(&at) => Some(at),
            None => {
                self.index.insert(key, len);
                None
            }
        }
    }

    fn reset(&mut self) {
        self.last = None;
        if self.indexed {
            self.index.clear();
            self.indexed = false;
        }
    }
}

fn lid_key(port: u32, lid: Lid) -> u64 {
    (u64::from(port) << 16) | u64::from(lid.0)
}

/// A fatal problem of the prelude: (relative line, message).
pub(super) type Fatal = (usize, String);

/// Parses one chunk. `prelude` chunks must open with the `ibprof 1` header (else `Err`); the
/// other chunks start at a `rank` line and never fail.
pub(super) fn parse_chunk(text: &str, prelude: bool, ctx: &Context) -> Result<Chunk, Fatal> {
    let mut parser = Parser::new(prelude, ctx.clone());
    parser.feed(text)?;
    Ok(parser.finish())
}

/// A chunk's parser, fed whole lines a piece at a time ([`Parser::feed`]): a streamed file is
/// parsed as it is read, without being held.
pub(super) struct Parser {
    ctx: Context,
    out: Chunk,
    line: usize,
    place: Place,
    peers: Dedup,
    lids: Dedup,
    /// Capacity for a rank's first dump: the counts of the previous rank's first dump.
    size_hint: (usize, usize),
    /// `ctx.rank_limit()`, looked up once.
    rank_limit: u32,
    /// The highest peer kept (0 if none), folded into `max_rank_seen` at the end.
    max_peer: u32,
}

impl Parser {
    /// A parser for a prelude (which must open with the header) or for a run of rank sections.
    pub(super) fn new(prelude: bool, ctx: Context) -> Self {
        let rank_limit = ctx.rank_limit();
        Parser {
            ctx,
            out: Chunk { header_seen: !prelude, ..Default::default() },
            line: 0,
            place: Place::Prelude,
            peers: Dedup::default(),
            lids: Dedup::default(),
            size_hint: (0, 0),
            rank_limit,
            max_peer: 0,
        }
    }

    /// Parses `text`, whole lines (the last may lack its line end only at the end of the file).
    pub(super) fn feed(&mut self, text: &str) -> Result<(), Fatal> {
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            self.line += 1;
            if self.out.header_seen
                && let Some(next) = self.canonical(text, at)
            {
                at = next;
                continue;
            }
            let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
            self.line(&text[at..end])?;
            at = end + 1;
        }
        Ok(())
    }

    /// Closes the last rank section and hands out what the chunk gave.
    pub(super) fn finish(mut self) -> Chunk {
        self.close_rank();
        if self.max_peer > 0 {
            self.seen_rank(self.max_peer);
        }
        self.out.lines = self.line;
        self.out
    }
}

impl Parser {
    fn warn(&mut self, message: impl Into<String>) -> Option<usize> {
        if self.out.warnings.len() < MAX_LINE_WARNINGS {
            self.out.warnings.push((self.line, message.into()));
            Some(self.out.warnings.len() - 1)
        } else {
            self.out.suppressed += 1;
            None
        }
    }

    fn skip_from_here(&mut self, message: impl Into<String>) -> Skip {
        Skip { warning: self.warn(message), lines: 0 }
    }

    fn end_skip(&mut self, skip: Skip, what: &str) {
        if let Some(at) = skip.warning
            && skip.lines > 0
        {
            let (_, message) = &mut self.out.warnings[at];
            let s = if skip.lines == 1 { "" } else { "s" };
            message.push_str(&format!(" ({} {what}{s} skipped with it)", skip.lines));
        }
    }

    /// The fast path: a canonical `peer` or `lid` line at byte `at`; the next line's start.
    fn canonical(&mut self, text: &str, at: usize) -> Option<usize> {
        match text.as_bytes().get(at) {
            Some(b'p') => {
                let (counts, next) = Canonical::at(text, at).peer()?;
                self.peer(counts);
                Some(next)
            }
            Some(b'l') => {
                let (port, lid, sent, recv, next) = Canonical::at(text, at).lid()?;
                self.lid(port, Lid(lid), sent, recv);
                Some(next)
            }
            _ => None,
        }
    }

    fn line(&mut self, line: &str) -> Result<(), Fatal> {
        let mut tokens = Tokens::new(line);
        let first = match tokens.next_token() {
            Ok(Some(first)) => first,
            Ok(None) => return Ok(()),
            Err(e) if !self.out.header_seen => return Err((self.line, format!("{e}; expected `ibprof 1`"))),
            Err(e) => {
                self.warn(format!("{e}; line skipped"));
                return Ok(());
            }
        };
        if !self.out.header_seen {
            return self.header(&first, tokens);
        }
        let keyword = first.bare().unwrap_or("");
        let result = match keyword {
            "peer" | "lid" => self.counter_line(keyword, tokens),
            "msgsize" => self.size_line(tokens),
            "region" => self.region(tokens),
            "port" => self.port(tokens),
            "rank" => self.rank(tokens),
            "job" => self.job(tokens),
            "ibprof" => self.repeated_header(tokens),
            _ => Err(format!("unknown keyword `{}`; line skipped", first.shown())),
        };
        if let Err(message) = result {
            self.warn(message);
        }
        Ok(())
    }

    fn close_rank(&mut self) {
        match std::mem::replace(&mut self.place, Place::Prelude) {
            Place::Prelude => {}
            Place::SkipRank(skip) => self.end_skip(skip, "line"),
            Place::Rank(mut state) => {
                if let RegionPlace::Skip(skip) = std::mem::replace(&mut state.region, RegionPlace::NoneYet) {
                    self.end_skip(skip, "counter line");
                }
                if let Some(last) = state.section.dumps.last_mut() {
                    settle_messages(last);
                }
                if let Some(first) = state.section.dumps.first() {
                    self.size_hint = (first.peers.len(), first.lids.len());
                }
                // A time-step loop writes thousands of dumps per rank: no doubling slack.
                state.section.dumps.shrink_to_fit();
                self.out.sections.push((state.line, state.section));
            }
        }
    }

    fn seen_rank(&mut self, rank: u32) {
        self.out.max_rank_seen = Some(self.out.max_rank_seen.map_or(rank, |m| m.max(rank)));
    }

    /// The rank section a line belongs in, or why there is none (`None`: silently skipped).
    fn rank_state(&mut self, keyword: &str) -> Result<Option<&mut RankState>, String> {
        match &mut self.place {
            Place::Prelude => Err(format!("{keyword} line before the first rank line; skipped")),
            Place::SkipRank(skip) => {
                skip.lines += 1;
                Ok(None)
            }
            Place::Rank(state) => Ok(Some(state)),
        }
    }

    /// True if a counter line can be kept here; otherwise it is counted in a skip or warned about.
    fn counter_allowed(&mut self, keyword: &str) -> bool {
        let problem = match &mut self.place {
            Place::Prelude => format!("{keyword} line before the first rank line; skipped"),
            Place::SkipRank(skip) => {
                skip.lines += 1;
                return false;
            }
            Place::Rank(state) => match &mut state.region {
                RegionPlace::Active => return true,
                RegionPlace::Skip(skip) => {
                    skip.lines += 1;
                    return false;
                }
                RegionPlace::NoneYet => {
                    format!("{keyword} line before rank {}'s first region line; skipped", state.section.rank)
                }
            },
        };
        self.warn(problem);
        false
    }

    fn peer(&mut self, counts: PeerCounts) {
        let PeerCounts { peer, sent, recv, msgs } = counts;
        let limit = self.rank_limit;
        let dump = match active_dump(&mut self.place) {
            Some(dump) if peer < limit => dump,
            Some(_) => {
                self.warn(format!("peer {peer} is not a rank of this job ({limit} ranks); line skipped"));
                return;
            }
            None => {
                self.counter_allowed("peer");
                return;
            }
        };
        let peers = &mut dump.peers;
        let duplicate = match self.peers.find(u64::from(peer), peers.len(), |i| u64::from(peers[i].peer)) {
            None => {
                peers.push(PeerBytes { peer, sent, recv });
                None
            }
            Some(at) => {
                let entry = &mut peers[at];
                let overflow = add_bytes(&mut entry.sent, sent) | add_bytes(&mut entry.recv, recv);
                Some((dump.region, overflow))
            }
        };
        if let Some(msgs) = msgs {
            add_messages(&mut dump.messages, peer, msgs);
        }
        if let Some((region, overflow)) = duplicate {
            self.warn(format!(
                "peer {peer} appears twice in region {region}; the counts are summed{}",
                overflow_note(overflow)
            ));
        }
        self.max_peer = self.max_peer.max(peer);
    }

    /// A `msgsize K sent_msgs N recv_msgs N` line: one bin of the dump's size histogram.
    fn size_bin(&mut self, bin: u8, sent: u64, recv: u64) {
        let Some(dump) = active_dump(&mut self.place) else {
            self.counter_allowed("msgsize");
            return;
        };
        match dump.sizes.binary_search_by_key(&bin, |b| b.bin) {
            Ok(at) => {
                let (entry, region) = (&mut dump.sizes[at], dump.region);
                add_bytes(&mut entry.sent, sent);
                add_bytes(&mut entry.recv, recv);
                self.warn(format!("msgsize {bin} appears twice in region {region}; the counts are summed"));
            }
            Err(at) => dump.sizes.insert(at, SizeCounts { bin, sent, recv }),
        }
    }

    fn lid(&mut self, port: u32, lid: Lid, sent: u64, recv: u64) {
        if !self.counter_allowed("lid") {
            return;
        }
        if let Place::Rank(state) = &self.place
            && !state.section.ports.iter().any(|p| p.index == port)
        {
            let rank = state.section.rank;
            self.warn(format!("lid line on port {port}, which rank {rank} did not declare; skipped"));
            return;
        }
        let Some(dump) = active_dump(&mut self.place) else { return };
        let lids = &mut dump.lids;
        let key = lid_key(port, lid);
        let duplicate = match self.lids.find(key, lids.len(), |i| lid_key(lids[i].port, lids[i].lid)) {
            None => {
                lids.push(LidBytes { port, lid, sent, recv });
                None
            }
            Some(at) => {
                let entry = &mut lids[at];
                let overflow = add_bytes(&mut entry.sent, sent) | add_bytes(&mut entry.recv, recv);
                Some((dump.region, overflow))
            }
        };
        if let Some((region, overflow)) = duplicate {
            self.warn(format!(
                "lid {port} {lid} appears twice in region {region}; the counts are summed{}",
                overflow_note(overflow)
            ));
        }
    }
}

/// What a summed duplicate's warning adds when the sum passed 2^64 − 1.
fn overflow_note(overflow: bool) -> &'static str {
    if overflow { " (byte sum overflow: capped at 2^64 - 1)" } else { "" }
}

/// Adds a peer line's message counts. They are put in peer order (repeats summed) when the dump
/// closes ([`settle_messages`]), so a file listing peers in any order costs a sort, not an
/// insertion per line.
fn add_messages(messages: &mut Vec<PeerMessages>, peer: u32, msgs: MsgCounts) {
    messages.push(PeerMessages { peer, sent: msgs.sent, recv: msgs.recv });
}

/// Sorts a closed dump's message counts by peer and sums a peer listed twice.
pub(super) fn settle_messages(dump: &mut Dump) {
    let messages = &mut dump.messages;
    if messages.is_sorted_by(|a, b| a.peer < b.peer) {
        return;
    }
    messages.sort_by_key(|m| m.peer);
    messages.dedup_by(|later, kept| {
        let same = later.peer == kept.peer;
        if same {
            add_bytes(&mut kept.sent, later.sent);
            add_bytes(&mut kept.recv, later.recv);
        }
        same
    });
}

/// The dump counter lines currently add to.
fn active_dump(place: &mut Place) -> Option<&mut Dump> {
    match place {
        Place::Rank(state) if matches!(state.region, RegionPlace::Active) => state.section.dumps.last_mut(),
        _ => None,
    }
}

//! A strict reader: every line must be a well-formed record ([`parse_line`]) in the place the
//! format puts it ([`parse`]). The collector's tests read its output with it, so anything the
//! collector writes that the format does not allow fails a test. Shoal's reader is the lenient
//! one: it skips what it cannot use and warns.

mod line;

use std::collections::HashSet;
use std::fmt;

pub use line::parse_line;

use crate::record::Record;

/// Why a text is refused: the 1-based line and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for Error {}

/// The records of a whole text, in order, if it is valid ibprof v1 as the writer writes it:
/// - the first record is the `ibprof 1` header, and there is only one;
/// - at most one `job` line, before the first `rank`; ranks and peers are below its count;
/// - each rank once; its `port`s before its first `region`, each index once;
/// - regions increase within a rank; `peer`, `lid` and `msgsize` lines follow a region; a `lid` line is on
///   a declared port;
/// - every line, the last too, ends with a line end.
pub fn parse(text: &str) -> Result<Vec<Record<'_>>, Error> {
    let mut records = Vec::new();
    let mut place = Place::default();
    let mut lines = text.split('\n').enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let fail = |message: String| Error { line: i + 1, message };
        if lines.peek().is_none() {
            return match line.is_empty() {
                true if records.is_empty() => Err(fail("no `ibprof 1` header".into())),
                true => Ok(records),
                false => Err(fail("the last line has no line end".into())),
            };
        }
        if let Some(record) = parse_line(line).map_err(fail)? {
            place.admit(&record).map_err(fail)?;
            records.push(record);
        }
    }
    Ok(records)
}

/// Where the reader is, for the checks of [`parse`].
#[derive(Default)]
struct Place {
    header: bool,
    job_ranks: Option<u32>,
    ranks_seen: HashSet<u32>,
    /// The current rank's declared ports and last region.
    rank: Option<(HashSet<u32>, Option<u32>)>,
}

impl Place {
    fn admit(&mut self, record: &Record<'_>) -> Result<(), String> {
        if !self.header {
            self.header = matches!(record, Record::Header);
            return match self.header {
                true => Ok(()),
                false => Err("the first line must be `ibprof 1`".into()),
            };
        }
        let limit = self.job_ranks.unwrap_or(u32::MAX);
        match record {
            Record::Header => Err("a second `ibprof 1` header".into()),
            Record::Job(_) if self.job_ranks.is_some() => Err("a second job line".into()),
            Record::Job(_) if !self.ranks_seen.is_empty() => Err("a job line after a rank".into()),
            Record::Job(job) => {
                self.job_ranks = Some(job.ranks);
                Ok(())
            }
            Record::Rank(rank) if rank.rank >= limit => {
                Err(format!("rank {} of a {limit}-rank job", rank.rank))
            }
            Record::Rank(rank) if !self.ranks_seen.insert(rank.rank) => {
                Err(format!("rank {} appears twice", rank.rank))
            }
            Record::Rank(_) => {
                self.rank = Some((HashSet::new(), None));
                Ok(())
            }
            Record::Port(port) => match &mut self.rank {
                None => Err("port before any rank".into()),
                Some((_, Some(_))) => Err("port after a region".into()),
                Some((ports, None)) => match ports.insert(port.index) {
                    true => Ok(()),
                    false => Err(format!("port {} declared twice", port.index)),
                },
            },
            Record::Region(region) => match &mut self.rank {
                None => Err("region before any rank".into()),
                Some((_, Some(last))) if region.number <= *last => {
                    Err(format!("region {} after region {last}", region.number))
                }
                Some((_, last)) => {
                    *last = Some(region.number);
                    Ok(())
                }
            },
            Record::Peer(_) | Record::Lid(_) | Record::Size(_)
                if !matches!(self.rank, Some((_, Some(_)))) =>
            {
                Err("a counter line outside a region".into())
            }
            Record::Peer(peer) if peer.peer >= limit => {
                Err(format!("peer {} of a {limit}-rank job", peer.peer))
            }
            Record::Lid(lid) if !self.rank.as_ref().is_some_and(|(ports, _)| ports.contains(&lid.port)) => {
                Err(format!("lid line on undeclared port {}", lid.port))
            }
            Record::Peer(_) | Record::Lid(_) | Record::Size(_) => Ok(()),
        }
    }
}

//! Reading ibprof v1 (see `docs/formats/ibprof.md`).
//!
//! A profile can be 100+ MB of `peer` lines, so the text is cut at `rank` lines into sections
//! that are parsed in parallel; warnings keep their file line numbers and their order.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;

use crate::model::{
    Dump, EpochMicros, Guid, Lid, LidBytes, LocalPort, PeerBytes, Profile, ProfileSource, RankSection,
    Warning,
};
use crate::profile_io::{Input, ParseError};

use super::tokens::tokenize;

/// More ranks than any machine has had; a larger claim is a corrupt file, not a job.
pub const MAX_RANKS: u32 = 1 << 24;

/// Reads a profile file (plain or gzip), or merges every `*.ibprof[.gz]` file of a directory.
pub fn read_profile(path: &Path) -> Result<(Profile, Vec<Warning>), ParseError> {
    if path.is_dir() {
        return read_directory(path);
    }
    let (input, mut warnings) = Input::open(path)?;
    let (profile, more) = parse_profile(input.text(), input.display())?;
    warnings.extend(more);
    Ok((profile, warnings))
}

fn read_directory(dir: &Path) -> Result<(Profile, Vec<Warning>), ParseError> {
    let display = dir.display().to_string();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| ParseError::io(&display, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            p.is_file() && (name.ends_with(".ibprof") || name.ends_with(".ibprof.gz"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(ParseError::invalid(display, "no *.ibprof files in this directory"));
    }
    let parsed: Vec<(Profile, Vec<Warning>)> =
        files.par_iter().map(|f| read_profile(f)).collect::<Result<_, _>>()?;
    let mut merged = Profile::default();
    let mut warnings = Vec::new();
    let mut seen: HashMap<u32, String> = HashMap::new();
    for ((profile, more), file) in parsed.into_iter().zip(&files) {
        warnings.extend(more);
        let file = file.display().to_string();
        if merged.ranks.is_empty() && merged.job_ranks == 0 {
            (merged.job_ranks, merged.mpi, merged.source) =
                (profile.job_ranks, profile.mpi.clone(), profile.source);
        } else if (profile.job_ranks, &profile.mpi, profile.source)
            != (merged.job_ranks, &merged.mpi, merged.source)
        {
            warnings.push(Warning::in_file(
                &file,
                "its job line differs from the first file's; the first is kept",
            ));
        }
        for rank in profile.ranks {
            match seen.get(&rank.rank) {
                Some(first) => warnings.push(Warning::in_file(
                    &file,
                    format!("rank {} is also in {first}; this copy is skipped", rank.rank),
                )),
                None => {
                    seen.insert(rank.rank, file.clone());
                    merged.ranks.push(rank);
                }
            }
        }
    }
    merged.ranks.sort_by_key(|r| r.rank);
    Ok((merged, warnings))
}

/// The job line's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Job {
    ranks: u32,
    mpi: Option<String>,
    source: Option<ProfileSource>,
}

/// Parses profile text; `display` names the file in warnings.
pub fn parse_profile(text: &str, display: &str) -> Result<(Profile, Vec<Warning>), ParseError> {
    let mut warnings = Vec::new();
    let body_start = text.find("\nrank").map_or(text.len(), |i| i + 1);
    let (job, header_lines) = parse_header(&text[..body_start], display, &mut warnings)?;
    let chunks = chunk_starts(text, body_start);
    let first_lines: Vec<usize> = {
        let counts: Vec<usize> = chunks
            .par_windows(2)
            .map(|w| text.as_bytes()[w[0]..w[1]].iter().filter(|&&b| b == b'\n').count())
            .collect();
        let mut line = header_lines + 1;
        let mut out = Vec::with_capacity(counts.len());
        for c in counts {
            out.push(line);
            line += c;
        }
        out
    };
    let parsed: Vec<(Vec<RankSection>, Vec<Warning>)> = chunks
        .par_windows(2)
        .zip(first_lines.par_iter())
        .map(|(w, &first_line)| SectionParser::new(display, &job).parse(&text[w[0]..w[1]], first_line))
        .collect();
    let mut profile = Profile { job_ranks: job.ranks, mpi: job.mpi, source: job.source, ranks: Vec::new() };
    for (sections, more) in parsed {
        profile.ranks.extend(sections);
        warnings.extend(more);
    }
    let mut seen = std::collections::HashSet::new();
    profile.ranks.retain(|r| {
        let first = seen.insert(r.rank);
        if !first {
            warnings.push(Warning::in_file(
                display,
                format!("rank {} has a second section; it is skipped", r.rank),
            ));
        }
        first
    });
    if profile.job_ranks > 0 {
        for r in profile.ranks.iter().filter(|r| r.rank >= profile.job_ranks) {
            warnings.push(Warning::in_file(
                display,
                format!("rank {} is outside `job ranks {}`", r.rank, profile.job_ranks),
            ));
        }
    }
    Ok((profile, warnings))
}

/// Byte offsets where rank sections start (plus the end), at most a few hundred chunks.
fn chunk_starts(text: &str, body_start: usize) -> Vec<usize> {
    let mut starts = vec![body_start];
    let target = (text.len() - body_start) / 256 + 1;
    let mut from = body_start;
    while from < text.len() {
        let probe = (from + target).min(text.len());
        match text[probe..].find("\nrank") {
            Some(i) if probe + i + 1 < text.len() => {
                from = probe + i + 1;
                starts.push(from);
            }
            _ => break,
        }
    }
    starts.push(text.len());
    starts.dedup();
    if starts.len() == 1 {
        starts.push(text.len());
    }
    starts
}

fn parse_header(
    header: &str,
    display: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(Job, usize), ParseError> {
    let mut tokens = Vec::new();
    let mut job = None;
    let mut version_seen = false;
    let mut lines = 0;
    for (i, line) in header.lines().enumerate() {
        lines = i + 1;
        let n = i + 1;
        if let Err(e) = tokenize(line, &mut tokens) {
            warnings.push(Warning::at(display, n, format!("{e}; line skipped")));
            continue;
        }
        let Some(first) = tokens.first() else { continue };
        if !version_seen {
            return match (first.as_ref(), tokens.get(1).map(Cow::as_ref)) {
                ("ibprof", Some("1")) => {
                    version_seen = true;
                    continue;
                }
                ("ibprof", Some(v)) => Err(ParseError::syntax(
                    display,
                    n,
                    format!("ibprof version {v} is not supported (only 1)"),
                )),
                _ => Err(ParseError::syntax(
                    display,
                    n,
                    "not an ibprof profile: the first line must be `ibprof 1`",
                )),
            };
        }
        match first.as_ref() {
            "job" => match parse_job(&tokens) {
                Ok(j) if job.is_none() => job = Some(j),
                Ok(_) => warnings.push(Warning::at(display, n, "a second job line; skipped")),
                Err(e) => warnings.push(Warning::at(display, n, format!("{e}; line skipped"))),
            },
            other => warnings.push(Warning::at(
                display,
                n,
                format!("`{other}` before the first rank line; skipped"),
            )),
        }
    }
    if !version_seen {
        return Err(ParseError::syntax(
            display,
            1,
            "not an ibprof profile: the first line must be `ibprof 1`",
        ));
    }
    if job.is_none() {
        warnings.push(Warning::in_file(display, "no job line; the rank count is unknown"));
    }
    Ok((job.unwrap_or_default(), lines))
}

fn parse_job(tokens: &[Cow<'_, str>]) -> Result<Job, String> {
    let mut job = Job::default();
    let mut saw_ranks = false;
    for pair in tokens[1..].chunks(2) {
        let [key, value] = pair else { return Err(format!("`{}` has no value", pair[0])) };
        match key.as_ref() {
            "ranks" => {
                job.ranks = number(value)?;
                if job.ranks > MAX_RANKS {
                    return Err(format!(
                        "{} ranks is more than the {MAX_RANKS} a profile may claim",
                        job.ranks
                    ));
                }
                saw_ranks = true;
            }
            "mpi" => job.mpi = Some(value.to_string()),
            "source" => {
                job.source = Some(ProfileSource::parse(value).ok_or(format!("unknown source `{value}`"))?)
            }
            other => return Err(format!("unknown job field `{other}`")),
        }
    }
    if !saw_ranks {
        return Err("the job line has no `ranks N`".into());
    }
    Ok(job)
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("`{text}` is not a valid number here"))
}

/// Parses the lines of one or more rank sections.
struct SectionParser<'a> {
    display: &'a str,
    job: &'a Job,
    sections: Vec<RankSection>,
    warnings: Vec<Warning>,
    /// For duplicate peers in the current dump: `peer_stamp[p] == dump_serial` if seen, at `peer_slot[p]`.
    peer_stamp: Vec<u32>,
    peer_slot: Vec<u32>,
    dump_serial: u32,
    lid_slots: HashMap<(u32, Lid), usize>,
    /// After an unusable `rank` line, its section's lines are skipped (one warning says so).
    skip_section: bool,
    /// After an out-of-order `region` line, its counters are skipped likewise.
    skip_region: bool,
}

impl<'a> SectionParser<'a> {
    fn new(display: &'a str, job: &'a Job) -> Self {
        SectionParser {
            display,
            job,
            sections: Vec::new(),
            warnings: Vec::new(),
            peer_stamp: Vec::new(),
            peer_slot: Vec::new(),
            dump_serial: 0,
            lid_slots: HashMap::new(),
            skip_section: false,
            skip_region: false,
        }
    }

    fn parse(mut self, text: &str, first_line: usize) -> (Vec<RankSection>, Vec<Warning>) {
        let mut tokens = Vec::with_capacity(8);
        for (i, line) in text.lines().enumerate() {
            let n = first_line + i;
            // Nearly every line of a big profile is a plain `peer` line: skip the tokenizer.
            if let Some((peer, sent, recv)) = plain_peer_line(line) {
                if !self.skip_section
                    && !self.skip_region
                    && let Err(message) = self.add_peer(peer, sent, recv)
                {
                    self.warn(n, format!("{message}; line skipped"));
                }
                continue;
            }
            if let Err(e) = tokenize(line, &mut tokens) {
                self.warn(n, format!("{e}; line skipped"));
                continue;
            }
            if tokens.is_empty() {
                continue;
            }
            if let Err(message) = self.line(&tokens) {
                self.warn(n, format!("{message}; line skipped"));
            }
        }
        (self.sections, self.warnings)
    }

    fn warn(&mut self, line: usize, message: String) {
        self.warnings.push(Warning::at(self.display, line, message));
    }

    fn line(&mut self, t: &[Cow<'_, str>]) -> Result<(), String> {
        let keyword = t[0].as_ref();
        if keyword == "rank" {
            self.skip_section = false;
            self.skip_region = false;
        } else if self.skip_section || (self.skip_region && keyword != "region") {
            return Ok(());
        }
        match keyword {
            "peer" => self.peer(t),
            "lid" => self.lid(t),
            "region" => self.region(t),
            "port" => self.port(t),
            "rank" => self.rank(t).map_err(|e| {
                self.skip_section = true;
                format!("{e}; the whole rank section is skipped")
            }),
            "ibprof" if t.get(1).map(Cow::as_ref) == Some("1") => Ok(()),
            "job" => match parse_job(t) {
                Ok(j) if j == *self.job => Ok(()),
                Ok(_) => Err("a job line that differs from the header's".into()),
                Err(e) => Err(e),
            },
            other => Err(format!("unknown keyword `{other}`")),
        }
    }

    fn section(&mut self) -> Result<&mut RankSection, String> {
        self.sections.last_mut().ok_or_else(|| "outside a rank section".to_string())
    }

    fn dump(&mut self, what: &str) -> Result<&mut Dump, String> {
        let section = self.section()?;
        section.dumps.last_mut().ok_or_else(|| format!("`{what}` before the rank's first region line"))
    }

    fn rank(&mut self, t: &[Cow<'_, str>]) -> Result<(), String> {
        let rank = number(t.get(1).ok_or("`rank` needs a number")?)?;
        let mut section = RankSection { rank, ..Default::default() };
        let (mut host, mut start) = (false, false);
        for pair in t[2..].chunks(2) {
            let [key, value] = pair else { return Err(format!("`{}` has no value", pair[0])) };
            match key.as_ref() {
                "host" => (section.host, host) = (value.to_string(), true),
                "pid" => section.pid = Some(number(value)?),
                "starttime" => {
                    section.starttime =
                        EpochMicros::parse(value).ok_or(format!("`{value}` is not a time"))?;
                    start = true;
                }
                other => return Err(format!("unknown rank field `{other}`")),
            }
        }
        if !host || !start {
            return Err(format!("rank {rank} needs `host H` and `starttime T`"));
        }
        self.sections.push(section);
        Ok(())
    }

    fn port(&mut self, t: &[Cow<'_, str>]) -> Result<(), String> {
        let mut port =
            LocalPort { index: number(t.get(1).ok_or("`port` needs an index")?)?, ..Default::default() };
        let (mut guid, mut lid) = (false, false);
        for pair in t[2..].chunks(2) {
            let [key, value] = pair else { return Err(format!("`{}` has no value", pair[0])) };
            match key.as_ref() {
                "device" => port.device = Some(value.to_string()),
                "portnum" => port.portnum = Some(number(value)?),
                "guid" => {
                    (port.guid, guid) =
                        (Guid::parse_hex(value).ok_or(format!("`{value}` is not a GUID"))?, true)
                }
                "lid" => {
                    (port.lid, lid) = (Lid::parse_hex(value).ok_or(format!("`{value}` is not a LID"))?, true)
                }
                "lmc" => {
                    port.lmc = number(value)?;
                    if port.lmc > 7 {
                        return Err(format!("LMC {} is over 7", port.lmc));
                    }
                }
                other => return Err(format!("unknown port field `{other}`")),
            }
        }
        if !guid || !lid {
            return Err("a port line needs `guid` and `lid`".into());
        }
        let section = self.section()?;
        if section.ports.iter().any(|p| p.index == port.index) {
            return Err(format!("port {} is declared twice", port.index));
        }
        section.ports.push(port);
        Ok(())
    }

    fn region(&mut self, t: &[Cow<'_, str>]) -> Result<(), String> {
        let mut dump =
            Dump { region: number(t.get(1).ok_or("`region` needs a number")?)?, ..Default::default() };
        let mut time = false;
        for pair in t[2..].chunks(2) {
            let [key, value] = pair else { return Err(format!("`{}` has no value", pair[0])) };
            match key.as_ref() {
                "name" => dump.name = Some(value.to_string()),
                "dumptime" => {
                    (dump.dumptime, time) =
                        (EpochMicros::parse(value).ok_or(format!("`{value}` is not a time"))?, true)
                }
                other => return Err(format!("unknown region field `{other}`")),
            }
        }
        if !time {
            return Err("a region line needs `dumptime T`".into());
        }
        self.skip_region = false;
        let section = self.section()?;
        if let Some(last) = section.dumps.last()
            && last.region >= dump.region
        {
            let last = last.region;
            self.skip_region = true;
            return Err(format!(
                "region {} does not follow region {last}; its counters are skipped",
                dump.region
            ));
        }
        section.dumps.push(dump);
        self.dump_serial += 1;
        self.lid_slots.clear();
        Ok(())
    }

    fn counters(t: &[Cow<'_, str>], at: usize) -> Result<(u64, u64), String> {
        match t.get(at..) {
            Some([s, sent, r, recv]) if s == "sent" && r == "recv" => Ok((number(sent)?, number(recv)?)),
            _ => Err("expected `sent B recv B`".into()),
        }
    }

    fn peer(&mut self, t: &[Cow<'_, str>]) -> Result<(), String> {
        let peer: u32 = number(t.get(1).ok_or("`peer` needs a rank")?)?;
        let (sent, recv) = Self::counters(t, 2)?;
        self.add_peer(peer, sent, recv)
    }

    fn add_peer(&mut self, peer: u32, sent: u64, recv: u64) -> Result<(), String> {
        let limit = if self.job.ranks > 0 { self.job.ranks } else { MAX_RANKS };
        if peer >= limit {
            return Err(format!("peer {peer} is outside the job's {limit} ranks"));
        }
        let serial = self.dump_serial;
        let p = peer as usize;
        if self.peer_stamp.len() <= p {
            self.peer_stamp.resize(p + 1, 0);
            self.peer_slot.resize(p + 1, 0);
        }
        let duplicate = self.peer_stamp[p] == serial;
        let slot = self.peer_slot[p] as usize;
        let dump = self.dump("peer")?;
        if duplicate {
            let entry = &mut dump.peers[slot];
            entry.sent = entry.sent.saturating_add(sent);
            entry.recv = entry.recv.saturating_add(recv);
            return Err(format!("peer {peer} appears twice in this region; the counts were added"));
        }
        let index = dump.peers.len() as u32;
        dump.peers.push(PeerBytes { peer, sent, recv });
        self.peer_stamp[p] = serial;
        self.peer_slot[p] = index;
        Ok(())
    }

    fn lid(&mut self, t: &[Cow<'_, str>]) -> Result<(), String> {
        let port: u32 = number(t.get(1).ok_or("`lid` needs a port index")?)?;
        let lid_text = t.get(2).ok_or("`lid` needs a LID")?;
        let lid = Lid::parse_hex(lid_text).ok_or(format!("`{lid_text}` is not a LID"))?;
        let (sent, recv) = Self::counters(t, 3)?;
        let existing = self.lid_slots.get(&(port, lid)).copied();
        let dump = self.dump("lid")?;
        if let Some(slot) = existing {
            let entry = &mut dump.lids[slot];
            entry.sent = entry.sent.saturating_add(sent);
            entry.recv = entry.recv.saturating_add(recv);
            return Err(format!("port {port} LID {lid} appears twice in this region; the counts were added"));
        }
        let index = dump.lids.len();
        dump.lids.push(LidBytes { port, lid, sent, recv });
        self.lid_slots.insert((port, lid), index);
        Ok(())
    }
}

/// `peer R sent B recv B` with single spaces and nothing else, as writers emit it; `None` sends
/// the line through the general tokenizer (which also reports what is wrong with it).
fn plain_peer_line(line: &str) -> Option<(u32, u64, u64)> {
    let rest = line.strip_prefix("peer ")?;
    let (peer, rest) = leading_number(rest)?;
    let (sent, rest) = leading_number(rest.strip_prefix(" sent ")?)?;
    let (recv, rest) = leading_number(rest.strip_prefix(" recv ")?)?;
    rest.trim_end().is_empty().then_some((u32::try_from(peer).ok()?, sent, recv))
}

fn leading_number(text: &str) -> Option<(u64, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let mut value: u64 = 0;
    for b in &text.as_bytes()[..digits] {
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some((value, &text[digits..]))
}

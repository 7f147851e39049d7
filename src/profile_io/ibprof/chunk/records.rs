//! The records of ibprof v1 that the fast path does not take: the header, `job`, `rank`, `port`,
//! `region`, and `peer`/`lid` lines spelled other than the writer spells them. Each reads its
//! tokens, checks every value, and says what it skipped.

use crate::model::{Dump, EpochMicros, Guid, Lid, LocalPort, ProfileSource, RankSection};

use super::super::{MAX_LMC, MAX_PORTS, MAX_RANKS};
use super::{Fatal, Job, Parser, Place, RankState, RegionPlace};
use ibprof_format::{MsgCounts, PeerCounts, SIZE_BINS, Token, Tokens, parse_hex, parse_u32, parse_u64};

impl Parser {
    pub(super) fn header(&mut self, first: &Token<'_>, mut tokens: Tokens<'_>) -> Result<(), Fatal> {
        if first.bare() != Some("ibprof") {
            let found = first.shown();
            return Err((
                self.line,
                format!("not an ibprof profile: the first line must be `ibprof 1`, found `{found}`"),
            ));
        }
        match tokens.next_token() {
            Ok(Some(Token::Bare("1"))) => {}
            Ok(Some(version)) => {
                let v = version.shown();
                return Err((
                    self.line,
                    format!("ibprof format version {v} is not supported (this reader knows version 1)"),
                ));
            }
            _ => return Err((self.line, "`ibprof` header without a version; expected `ibprof 1`".into())),
        }
        self.out.header_seen = true;
        if !tokens.at_end() {
            self.warn("text after `ibprof 1` ignored");
        }
        Ok(())
    }

    /// A second `ibprof 1` line, as in files joined with `cat`: harmless.
    pub(super) fn repeated_header(&mut self, mut tokens: Tokens<'_>) -> Result<(), String> {
        match tokens.next_token() {
            Ok(Some(Token::Bare("1"))) => Ok(()),
            Ok(Some(v)) => {
                Err(format!("`ibprof {}` header in the middle of the file; line skipped", v.shown()))
            }
            _ => Err("`ibprof` line without a version in the middle of the file; skipped".into()),
        }
    }

    pub(super) fn job(&mut self, mut tokens: Tokens<'_>) -> Result<(), String> {
        let (mut ranks, mut mpi, mut source) = (None, None, None);
        let notes = read_fields(&mut tokens, "job", &["ranks", "mpi", "source"], |key, value| match key {
            0 => ranks = Some(value),
            1 => mpi = Some(value),
            _ => source = Some(value),
        })
        .map_err(line_skipped)?;
        for note in notes {
            self.warn(note);
        }
        let mut job = Job { mpi: mpi.map(|t| t.text().to_string()), ..Job::default() };
        match ranks.as_ref().map(|t| (t, t.bare().and_then(parse_u32))) {
            Some((_, Some(n))) if n <= MAX_RANKS => job.ranks = Some(n),
            Some((t, _)) => {
                let shown = t.shown();
                self.warn(format!(
                    "job ranks `{shown}` is not a rank count in 0..={MAX_RANKS}; ignored (ranks are counted from the sections)"
                ));
            }
            None => {
                self.warn("job line without `ranks`; ranks are counted from the sections");
            }
        }
        if let Some(t) = source {
            match t.bare().and_then(ProfileSource::parse) {
                Some(s) => job.source = Some(s),
                None => {
                    let shown = t.shown();
                    self.warn(format!(
                        "unknown source `{shown}` ignored (expected pmpi, ompi-monitoring or peruse)"
                    ));
                }
            }
        }
        let first = self.ctx.job.as_ref().or(self.out.job.as_ref());
        match first {
            None if matches!(self.place, Place::Prelude) => {
                // Sections indented into the prelude are read by this parser too: they obey
                // this job's rank count (found by fuzzing, issue 6).
                self.rank_limit = job.ranks.unwrap_or(super::MAX_RANKS);
                self.out.job = Some((job, self.line));
            }
            None => return Err("job line after the first rank section; ignored (it must come before)".into()),
            Some((first, _)) if *first == job => {}
            Some((_, line)) => {
                return Err(format!(
                    "job line differs from the one on line {line}; ignored (keeping the first)"
                ));
            }
        }
        Ok(())
    }

    pub(super) fn rank(&mut self, mut tokens: Tokens<'_>) -> Result<(), String> {
        self.close_rank();
        let rank = match tokens.next_token() {
            Ok(rank) => rank,
            Err(e) => {
                self.place =
                    Place::SkipRank(self.skip_from_here(format!("{e}; this rank's section is skipped")));
                return Ok(());
            }
        };
        let (mut host, mut pid, mut start) = (None, None, None);
        let fields =
            read_fields(&mut tokens, "rank", &["host", "pid", "starttime"], |key, value| match key {
                0 => host = Some(value),
                1 => pid = Some(value),
                _ => start = Some(value),
            });
        let problem = match (&rank, &fields, &host, &start) {
            (_, Err(e), _, _) => Some(e.clone()),
            (None, ..) => Some("rank line without a rank number".to_string()),
            (_, _, None, _) => Some("rank line without `host`".to_string()),
            (_, _, _, None) => Some("rank line without `starttime`".to_string()),
            _ => None,
        };
        let limit = self.rank_limit;
        let number = rank.as_ref().and_then(|t| t.bare()).and_then(parse_u32);
        let problem = problem.or_else(|| match number {
            Some(r) if r < limit => None,
            Some(r) => Some(format!("rank {r} is not a rank of this job ({limit} ranks)")),
            None => Some(format!("bad rank number `{}`", rank.as_ref().map_or(String::new(), Token::shown))),
        });
        let starttime = start.as_ref().and_then(|t| t.bare()).and_then(EpochMicros::parse);
        let problem = problem.or_else(|| {
            starttime.is_none().then(|| {
                let shown = start.as_ref().map_or(String::new(), Token::shown);
                format!("bad starttime `{shown}` (expected Unix seconds with up to 6 decimals)")
            })
        });
        if let Some(problem) = problem {
            let skip = self.skip_from_here(format!("{problem}; this rank's section is skipped"));
            self.place = Place::SkipRank(skip);
            return Ok(());
        }
        for note in fields.unwrap_or_default() {
            self.warn(note);
        }
        let pid = pid.and_then(|t| match t.bare().and_then(parse_u32) {
            Some(p) => Some(p),
            None => {
                self.warn(format!("bad pid `{}` ignored", t.shown()));
                None
            }
        });
        let rank = number.unwrap_or_default();
        self.seen_rank(rank);
        let section = RankSection {
            rank,
            host: host.map(|t| t.text().to_string()).unwrap_or_default(),
            pid,
            starttime: starttime.unwrap_or_default(),
            ports: Vec::new(),
            dumps: Vec::new(),
        };
        self.place =
            Place::Rank(Box::new(RankState { line: self.line, section, region: RegionPlace::NoneYet }));
        Ok(())
    }

    pub(super) fn port(&mut self, mut tokens: Tokens<'_>) -> Result<(), String> {
        let Some(state) = self.rank_state("port")? else { return Ok(()) };
        if let Some(dump) = state.section.dumps.last() {
            return Err(format!(
                "port line after region {}; ports come before the regions; skipped",
                dump.region
            ));
        }
        let index = tokens.next_token().map_err(|e| format!("{e}; line skipped"))?;
        let (mut device, mut portnum, mut guid, mut lid, mut lmc) = (None, None, None, None, None);
        let notes =
            read_fields(&mut tokens, "port", &["device", "portnum", "guid", "lid", "lmc"], |key, value| {
                match key {
                    0 => device = Some(value),
                    1 => portnum = Some(value),
                    2 => guid = Some(value),
                    3 => lid = Some(value),
                    _ => lmc = Some(value),
                }
            })
            .map_err(line_skipped)?;
        let shown = |t: &Option<Token<'_>>| t.as_ref().map_or("(missing)".to_string(), Token::shown);
        let index = match index.as_ref().and_then(Token::bare).and_then(parse_u32) {
            Some(i) if i < MAX_PORTS => i,
            _ => return Err(format!("bad port index `{}` (0..{MAX_PORTS}); line skipped", shown(&index))),
        };
        if state.section.ports.iter().any(|p| p.index == index) {
            return Err(format!(
                "port {index} is listed twice for rank {}; keeping the first",
                state.section.rank
            ));
        }
        let Some(guid_value) = guid.as_ref().and_then(Token::bare).and_then(parse_hex) else {
            return Err(format!("port {index}: bad or missing guid `{}`; line skipped", shown(&guid)));
        };
        let Some(lid_value) =
            lid.as_ref().and_then(Token::bare).and_then(parse_hex).and_then(|v| u16::try_from(v).ok())
        else {
            return Err(format!("port {index}: bad or missing lid `{}`; line skipped", shown(&lid)));
        };
        let mut port = LocalPort {
            index,
            device: device.map(|t| t.text().to_string()),
            portnum: None,
            guid: Guid(guid_value),
            lid: Lid(lid_value),
            lmc: 0,
        };
        let mut notes = notes;
        if let Some(t) = &portnum {
            match t.bare().and_then(parse_u32).and_then(|n| u8::try_from(n).ok()) {
                Some(n) => port.portnum = Some(n),
                None => notes.push(format!("port {index}: bad portnum `{}` ignored", t.shown())),
            }
        }
        if let Some(t) = &lmc {
            match t.bare().and_then(parse_u32) {
                Some(m) if m <= MAX_LMC => port.lmc = m as u8,
                _ => notes.push(format!(
                    "port {index}: bad lmc `{}` (0..={MAX_LMC}) ignored; taken as 0",
                    t.shown()
                )),
            }
        }
        state.section.ports.push(port);
        for note in notes {
            self.warn(note);
        }
        Ok(())
    }

    pub(super) fn region(&mut self, mut tokens: Tokens<'_>) -> Result<(), String> {
        let Some(state) = self.rank_state("region")? else { return Ok(()) };
        let rank = state.section.rank;
        let previous = state.section.dumps.last().map(|d| d.region);
        let ended = std::mem::replace(&mut state.region, RegionPlace::NoneYet);
        if let RegionPlace::Skip(skip) = ended {
            self.end_skip(skip, "counter line");
        }
        let number_token = tokens.next_token();
        let (mut name, mut dumptime) = (None, None);
        let fields = match &number_token {
            Err(e) => Err(e.to_string()),
            Ok(_) => read_fields(&mut tokens, "region", &["name", "dumptime"], |key, value| match key {
                0 => name = Some(value),
                _ => dumptime = Some(value),
            }),
        };
        let number_token = number_token.ok().flatten();
        let number = number_token.as_ref().and_then(Token::bare).and_then(parse_u32);
        let time = dumptime.as_ref().and_then(Token::bare).and_then(EpochMicros::parse);
        let problem = match (&fields, number, time) {
            (Err(e), ..) => Some(e.clone()),
            (_, None, _) => Some(format!(
                "bad region number `{}`",
                number_token.as_ref().map_or(String::new(), Token::shown)
            )),
            (_, Some(n), _) if previous.is_some_and(|p| n <= p) => Some(format!(
                "region {n} of rank {rank} does not follow region {} (regions must increase)",
                previous.unwrap_or_default()
            )),
            (_, Some(n), None) => Some(format!(
                "region {n}: bad or missing dumptime `{}`",
                dumptime.as_ref().map_or(String::new(), Token::shown)
            )),
            _ => None,
        };
        if let Some(problem) = problem {
            let skip = self.skip_from_here(format!("{problem}; region skipped"));
            if let Place::Rank(state) = &mut self.place {
                state.region = RegionPlace::Skip(skip);
            }
            return Ok(());
        }
        for note in fields.unwrap_or_default() {
            self.warn(note);
        }
        self.peers.reset();
        self.lids.reset();
        if let Place::Rank(state) = &mut self.place {
            if let Some(closed) = state.section.dumps.last_mut() {
                super::settle_messages(closed);
            }
            // Sized like this rank's previous dump, or the previous rank's first: counter lists
            // of one job are much alike, and growing 1,000 peers by doubling costs copies.
            let sizes = state.section.dumps.last().map_or(self.size_hint, |d| (d.peers.len(), d.lids.len()));
            state.section.dumps.push(Dump {
                region: number.unwrap_or_default(),
                name: name.map(|t| t.text().to_string()),
                dumptime: time.unwrap_or_default(),
                peers: Vec::with_capacity(sizes.0),
                lids: Vec::with_capacity(sizes.1),
                ..Default::default()
            });
            state.region = RegionPlace::Active;
        }
        Ok(())
    }

    /// A `peer` or `lid` line the fast path did not take: read it token by token.
    pub(super) fn counter_line(&mut self, keyword: &str, mut tokens: Tokens<'_>) -> Result<(), String> {
        let first = tokens.next_token().map_err(|e| format!("{e}; line skipped"))?;
        let lid = if keyword == "lid" {
            let t = tokens.next_token().map_err(|e| format!("{e}; line skipped"))?;
            Some(t)
        } else {
            None
        };
        let (mut sent, mut recv, mut sent_msgs, mut recv_msgs) = (None, None, None, None);
        let keys: &[&str] =
            if keyword == "peer" { &["sent", "recv", "sent_msgs", "recv_msgs"] } else { &["sent", "recv"] };
        let mut notes = read_fields(&mut tokens, keyword, keys, |key, value| match key {
            0 => sent = Some(value),
            1 => recv = Some(value),
            2 => sent_msgs = Some(value),
            _ => recv_msgs = Some(value),
        })
        .map_err(line_skipped)?;
        let count = |t: &Option<Token<'_>>, what: &str| {
            t.as_ref().and_then(Token::bare).and_then(parse_u64).ok_or_else(|| {
                let shown = t.as_ref().map_or("(missing)".to_string(), Token::shown);
                format!("{keyword} line: bad or missing `{what}` count `{shown}`; line skipped")
            })
        };
        let (sent, recv) = (count(&sent, "sent")?, count(&recv, "recv")?);
        let first_shown = first.as_ref().map_or("(missing)".to_string(), Token::shown);
        let number = first.as_ref().and_then(Token::bare).and_then(parse_u32);
        match (lid, number) {
            (None, Some(peer)) => {
                let msgs = message_counts(sent_msgs.as_ref(), recv_msgs.as_ref(), &mut notes);
                self.peer(PeerCounts { peer, sent, recv, msgs });
            }
            (None, None) => return Err(format!("bad peer rank `{first_shown}`; line skipped")),
            (Some(lid), Some(port)) => {
                let value = lid.as_ref().and_then(Token::bare).and_then(parse_hex);
                match value.and_then(|v| u16::try_from(v).ok()) {
                    Some(v) => self.lid(port, Lid(v), sent, recv),
                    None => {
                        let shown = lid.as_ref().map_or("(missing)".to_string(), Token::shown);
                        return Err(format!("bad lid `{shown}`; line skipped"));
                    }
                }
            }
            (Some(_), None) => return Err(format!("bad port index `{first_shown}`; line skipped")),
        }
        for note in notes {
            self.warn(note);
        }
        Ok(())
    }
}

impl Parser {
    /// `msgsize K sent_msgs N recv_msgs N`: one bin of a dump's message-size histogram.
    pub(super) fn size_line(&mut self, mut tokens: Tokens<'_>) -> Result<(), String> {
        let bin = tokens.next_token().map_err(|e| format!("{e}; line skipped"))?;
        let (mut sent, mut recv) = (None, None);
        let notes =
            read_fields(&mut tokens, "msgsize", &["sent_msgs", "recv_msgs"], |key, value| match key {
                0 => sent = Some(value),
                _ => recv = Some(value),
            })
            .map_err(line_skipped)?;
        let shown = |t: &Option<Token<'_>>| t.as_ref().map_or("(missing)".to_string(), Token::shown);
        let Some(bin_value) =
            bin.as_ref().and_then(Token::bare).and_then(parse_u32).filter(|&b| b < SIZE_BINS)
        else {
            return Err(format!("bad msgsize bin `{}` (0..{SIZE_BINS}); line skipped", shown(&bin)));
        };
        let count = |t: &Option<Token<'_>>| t.as_ref().and_then(Token::bare).and_then(parse_u64);
        let (Some(s), Some(r)) = (count(&sent), count(&recv)) else {
            let (s, r) = (shown(&sent), shown(&recv));
            return Err(format!(
                "msgsize line: bad or missing counts `sent_msgs {s} recv_msgs {r}`; line skipped"
            ));
        };
        self.size_bin(bin_value as u8, s, r);
        for note in notes {
            self.warn(note);
        }
        Ok(())
    }
}

/// A peer line's message counts: both or none; one alone, or a bad one, is ignored with a note
/// (the bytes stand; the peer reads as "not counted", never as zero messages).
fn message_counts(
    sent: Option<&Token<'_>>,
    recv: Option<&Token<'_>>,
    notes: &mut Vec<String>,
) -> Option<MsgCounts> {
    let count = |t: &Token<'_>| t.bare().and_then(parse_u64);
    match (sent, recv) {
        (None, None) => None,
        (Some(s), Some(r)) => match (count(s), count(r)) {
            (Some(sent), Some(recv)) => Some(MsgCounts { sent, recv }),
            _ => {
                let (s, r) = (s.shown(), r.shown());
                notes.push(format!("peer line: bad message counts `sent_msgs {s} recv_msgs {r}` ignored"));
                None
            }
        },
        _ => {
            notes.push(
                "peer line: `sent_msgs` and `recv_msgs` come together; the one given is ignored".into(),
            );
            None
        }
    }
}

fn line_skipped(problem: String) -> String {
    format!("{problem}; line skipped")
}

/// Reads `key value` pairs to the end of the line, handing each known key (by its index in
/// `keys`) to `field`. Returns notes for what was ignored (unknown or repeated keys, a key
/// without a value), or `Err` if the line cannot be tokenised (the caller says what it skips).
fn read_fields<'a>(
    tokens: &mut Tokens<'a>,
    keyword: &str,
    keys: &[&str],
    mut field: impl FnMut(usize, Token<'a>),
) -> Result<Vec<String>, String> {
    let mut notes = Vec::new();
    let mut seen = 0u32;
    loop {
        let key = match tokens.next_token() {
            Ok(Some(key)) => key,
            Ok(None) => return Ok(notes),
            Err(e) => return Err(e.to_string()),
        };
        let value = match tokens.next_token() {
            Ok(value) => value,
            Err(e) => return Err(e.to_string()),
        };
        let shown = key.shown();
        match (keys.iter().position(|k| key.bare() == Some(*k)), value) {
            (_, None) => notes.push(format!("{keyword} line: `{shown}` without a value ignored")),
            (None, Some(_)) => notes.push(format!("{keyword} line: unknown field `{shown}` ignored")),
            (Some(i), Some(_)) if seen & (1 << i) != 0 => {
                notes.push(format!("{keyword} line: `{shown}` given twice; keeping the first"));
            }
            (Some(i), Some(value)) => {
                seen |= 1 << i;
                field(i, value);
            }
        }
    }
}

//! The grammar of one line: a keyword, its positional values, then `key value` pairs in any
//! order. Strict: every value must parse, required keys must be there, and an unknown key, a
//! repeated key or anything left over is an error.

use crate::numbers::{parse_hex, parse_time, parse_u32, parse_u64};
use crate::record::{
    Job, LidCounts, MAX_LMC, MAX_PORTS, MAX_RANKS, MsgCounts, PeerCounts, Port, Rank, Record, Region,
    SIZE_BINS, SizeBin,
};
use crate::tokens::{Token, Tokens};

/// The record on one line (without its line end); `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str) -> Result<Option<Record<'_>>, String> {
    let mut line = Line(Tokens::new(line));
    let Some(keyword) = line.0.next_token()? else { return Ok(None) };
    let record = match keyword.bare() {
        Some("ibprof") => header(&mut line)?,
        Some("job") => job(&mut line)?,
        Some("rank") => rank(&mut line)?,
        Some("port") => port(&mut line)?,
        Some("region") => region(&mut line)?,
        Some("peer") => peer(&mut line)?,
        Some("lid") => {
            let port = line.number("port index", parse_u32)?;
            let lid = line.number("lid", parse_lid)?;
            let [sent, recv] = line.counts()?;
            Record::Lid(LidCounts { port, lid, sent, recv })
        }
        Some("msgsize") => size_bin(&mut line)?,
        _ => return Err(format!("unknown keyword `{}`", keyword.shown())),
    };
    Ok(Some(record))
}

fn header<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    match line.0.next_token()? {
        Some(Token::Bare("1")) => line.end().map(|()| Record::Header),
        Some(v) => Err(format!("ibprof version {}; this reader knows version 1", v.shown())),
        None => Err("`ibprof` without a version".into()),
    }
}

fn job<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    let [ranks, mpi, source] = line.fields(["ranks", "mpi", "source"])?;
    let ranks = value("ranks", ranks, parse_u32)?.filter(|&n| n <= MAX_RANKS);
    let Some(ranks) = ranks else { return Err(format!("job without `ranks` in 0..={MAX_RANKS}")) };
    let source = match source.as_ref().map(|t| t.bare()) {
        None => None,
        Some(Some(s @ ("pmpi" | "ompi-monitoring" | "peruse"))) => Some(s),
        Some(_) => return Err("source is not pmpi, ompi-monitoring or peruse".into()),
    };
    Ok(Record::Job(Job { ranks, mpi: mpi.map(Token::into_text), source }))
}

fn rank<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    let rank = line.number("rank", parse_u32)?;
    let [host, pid, starttime] = line.fields(["host", "pid", "starttime"])?;
    let Some(host) = host else { return Err("rank without `host`".into()) };
    let Some(starttime) = value("starttime", starttime, parse_time)? else {
        return Err("rank without `starttime`".into());
    };
    let pid = value("pid", pid, parse_u32)?;
    Ok(Record::Rank(Rank { rank, host: host.into_text(), pid, starttime }))
}

fn port<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    let index = line.number("port index", parse_u32)?;
    if index >= MAX_PORTS {
        return Err(format!("port index {index} is not in 0..{MAX_PORTS}"));
    }
    let [device, portnum, guid, lid, lmc] = line.fields(["device", "portnum", "guid", "lid", "lmc"])?;
    let Some(guid) = value("guid", guid, parse_hex)? else { return Err("port without `guid`".into()) };
    let Some(lid) = value("lid", lid, parse_lid)? else { return Err("port without `lid`".into()) };
    let portnum = value("portnum", portnum, |s| parse_u32(s).and_then(|n| u8::try_from(n).ok()))?;
    let lmc = value("lmc", lmc, |s| parse_u32(s).filter(|&m| m <= MAX_LMC))?.unwrap_or(0) as u8;
    Ok(Record::Port(Port { index, device: device.map(Token::into_text), portnum, guid, lid, lmc }))
}

fn region<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    let number = line.number("region number", parse_u32)?;
    let [name, dumptime] = line.fields(["name", "dumptime"])?;
    let Some(dumptime) = value("dumptime", dumptime, parse_time)? else {
        return Err("region without `dumptime`".into());
    };
    Ok(Record::Region(Region { number, name: name.map(Token::into_text), dumptime }))
}

fn peer<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    let peer = line.number("peer rank", parse_u32)?;
    let [sent, recv, sent_msgs, recv_msgs] = line.fields(["sent", "recv", "sent_msgs", "recv_msgs"])?;
    let (Some(sent), Some(recv)) = (value("sent", sent, parse_u64)?, value("recv", recv, parse_u64)?) else {
        return Err("a counter line needs both `sent` and `recv`".into());
    };
    let msgs = match (value("sent_msgs", sent_msgs, parse_u64)?, value("recv_msgs", recv_msgs, parse_u64)?) {
        (Some(sent), Some(recv)) => Some(MsgCounts { sent, recv }),
        (None, None) => None,
        _ => return Err("message counts need both `sent_msgs` and `recv_msgs`".into()),
    };
    Ok(Record::Peer(PeerCounts { peer, sent, recv, msgs }))
}

fn size_bin<'a>(line: &mut Line<'a>) -> Result<Record<'a>, String> {
    let bin = line.number("size bin", parse_u32)?;
    if bin >= SIZE_BINS {
        return Err(format!("size bin {bin} is not in 0..{SIZE_BINS}"));
    }
    let [sent, recv] = line.fields(["sent_msgs", "recv_msgs"])?;
    match (value("sent_msgs", sent, parse_u64)?, value("recv_msgs", recv, parse_u64)?) {
        (Some(sent), Some(recv)) => Ok(Record::Size(SizeBin { bin, msgs: MsgCounts { sent, recv } })),
        _ => Err("a msgsize line needs both `sent_msgs` and `recv_msgs`".into()),
    }
}

fn parse_lid(s: &str) -> Option<u16> {
    parse_hex(s).and_then(|v| u16::try_from(v).ok())
}

/// The value of an optional field: it must be a bare word that `parse` accepts.
fn value<T>(
    key: &str,
    token: Option<Token<'_>>,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, String> {
    match token {
        None => Ok(None),
        Some(t) => t.bare().and_then(parse).map(Some).ok_or_else(|| format!("bad {key} `{}`", t.shown())),
    }
}

/// The rest of a line.
struct Line<'a>(Tokens<'a>);

impl<'a> Line<'a> {
    /// The next token, which must be there and be a bare word that `parse` accepts.
    fn number<T>(&mut self, what: &str, parse: impl Fn(&str) -> Option<T>) -> Result<T, String> {
        match self.0.next_token()? {
            None => Err(format!("missing {what}")),
            Some(t) => t.bare().and_then(parse).ok_or_else(|| format!("bad {what} `{}`", t.shown())),
        }
    }

    /// `sent B recv B`, in either order.
    fn counts(&mut self) -> Result<[u64; 2], String> {
        let [sent, recv] = self.fields(["sent", "recv"])?;
        match (value("sent", sent, parse_u64)?, value("recv", recv, parse_u64)?) {
            (Some(sent), Some(recv)) => Ok([sent, recv]),
            _ => Err("a counter line needs both `sent` and `recv`".into()),
        }
    }

    /// The `key value` pairs to the end of the line, each of `keys` at most once.
    fn fields<const N: usize>(&mut self, keys: [&str; N]) -> Result<[Option<Token<'a>>; N], String> {
        let mut values = [const { None }; N];
        while let Some(key) = self.0.next_token()? {
            let Some(i) = keys.iter().position(|k| key.bare() == Some(*k)) else {
                return Err(format!("unknown field `{}`", key.shown()));
            };
            let Some(value) = self.0.next_token()? else {
                return Err(format!("`{}` without a value", keys[i]));
            };
            if values[i].replace(value).is_some() {
                return Err(format!("`{}` given twice", keys[i]));
            }
        }
        Ok(values)
    }

    fn end(&mut self) -> Result<(), String> {
        match self.0.at_end() {
            true => Ok(()),
            false => Err("text after the record".into()),
        }
    }
}

//! Writing a profile in ibprof v1, as the reader reads it back: parse → write → parse is the
//! identity. Every line is spelled by the `ibprof-format` crate, the writer the collector uses
//! too; this file only walks the profile and hands the text out in blocks.

use std::io::{self, Write};

use ibprof_format as format;

use crate::model::{Dump, LocalPort, Profile, RankSection};

/// How much text is built up before it is handed to the writer.
const FLUSH_AT: usize = 1 << 16;

/// Writes `profile` as ibprof v1 text. Buffers internally, so `out` need not be buffered.
pub fn write_profile(profile: &Profile, out: &mut impl Write) -> io::Result<()> {
    let job = format::Job {
        ranks: profile.job_ranks,
        mpi: profile.mpi.as_deref().map(Into::into),
        source: profile.source.map(|s| s.as_str()),
    };
    let mut writer = ProfileWriter::new(out, &job);
    for section in &profile.ranks {
        writer.section(section)?;
    }
    writer.finish()
}

/// Writes a profile as it is made, rank section by rank section, peer line by peer line: the
/// generators (`shoal gen --ranks`, `shoal pattern`) hold one buffer of [`FLUSH_AT`] bytes, never
/// the whole profile (issue 24).
pub struct ProfileWriter<'o, W: Write> {
    out: &'o mut W,
    buf: Vec<u8>,
}

impl<'o, W: Write> ProfileWriter<'o, W> {
    /// Starts the file: the header and the `job` line.
    pub fn new(out: &'o mut W, job: &format::Job<'_>) -> Self {
        let mut buf = Vec::with_capacity(FLUSH_AT + 256);
        format::push_prelude(&mut buf, job);
        ProfileWriter { out, buf }
    }

    /// A whole rank section.
    pub fn section(&mut self, section: &RankSection) -> io::Result<()> {
        self.rank(section)?;
        for dump in &section.dumps {
            self.region(dump)?;
            for p in &dump.peers {
                let msgs = dump.messages_of(p.peer).map(|m| format::MsgCounts { sent: m.sent, recv: m.recv });
                format::push_peer(
                    &mut self.buf,
                    &format::PeerCounts { peer: p.peer, sent: p.sent, recv: p.recv, msgs },
                );
                flush_when_full(&mut self.buf, self.out)?;
            }
            for l in &dump.lids {
                let counts = format::LidCounts { port: l.port, lid: l.lid.0, sent: l.sent, recv: l.recv };
                format::push_lid(&mut self.buf, &counts);
                flush_when_full(&mut self.buf, self.out)?;
            }
            for b in &dump.sizes {
                let msgs = format::MsgCounts { sent: b.sent, recv: b.recv };
                format::push_size_bin(&mut self.buf, &format::SizeBin { bin: u32::from(b.bin), msgs });
            }
        }
        Ok(())
    }

    /// A `rank` line and its `port` lines (its dumps are not written: see [`Self::region`]).
    pub fn rank(&mut self, section: &RankSection) -> io::Result<()> {
        format::push_rank(&mut self.buf, &rank(section));
        for p in &section.ports {
            format::push_port(&mut self.buf, &port(p));
        }
        flush_when_full(&mut self.buf, self.out)
    }

    /// A `region` line (its peers and LIDs are not written: see [`Self::peer`]).
    pub fn region(&mut self, dump: &Dump) -> io::Result<()> {
        format::push_region(&mut self.buf, &region(dump));
        flush_when_full(&mut self.buf, self.out)
    }

    pub fn peer(&mut self, peer: u32, sent: u64, recv: u64) -> io::Result<()> {
        format::push_peer(&mut self.buf, &format::PeerCounts { peer, sent, recv, msgs: None });
        flush_when_full(&mut self.buf, self.out)
    }

    /// Writes what is buffered and flushes `out`.
    pub fn finish(self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.out.flush()
    }
}

fn flush_when_full(buf: &mut Vec<u8>, out: &mut impl Write) -> io::Result<()> {
    if buf.len() >= FLUSH_AT {
        out.write_all(buf)?;
        buf.clear();
    }
    Ok(())
}

fn rank(section: &RankSection) -> format::Rank<'_> {
    format::Rank {
        rank: section.rank,
        host: section.host.as_str().into(),
        pid: section.pid,
        starttime: section.starttime.0,
    }
}

fn port(port: &LocalPort) -> format::Port<'_> {
    format::Port {
        index: port.index,
        device: port.device.as_deref().map(Into::into),
        portnum: port.portnum,
        guid: port.guid.0,
        lid: port.lid.0,
        lmc: port.lmc,
    }
}

fn region(dump: &Dump) -> format::Region<'_> {
    format::Region {
        number: dump.region,
        name: dump.name.as_deref().map(Into::into),
        dumptime: dump.dumptime.0,
    }
}

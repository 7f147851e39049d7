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
    let mut buf: Vec<u8> = Vec::with_capacity(FLUSH_AT + 256);
    let job = format::Job {
        ranks: profile.job_ranks,
        mpi: profile.mpi.as_deref().map(Into::into),
        source: profile.source.map(|s| s.as_str()),
    };
    format::push_prelude(&mut buf, &job);
    for section in &profile.ranks {
        format::push_rank(&mut buf, &rank(section));
        for p in &section.ports {
            format::push_port(&mut buf, &port(p));
        }
        for dump in &section.dumps {
            format::push_region(&mut buf, &region(dump));
            for p in &dump.peers {
                format::push_peer(&mut buf, &format::PeerCounts { peer: p.peer, sent: p.sent, recv: p.recv });
                flush_when_full(&mut buf, out)?;
            }
            for l in &dump.lids {
                let counts = format::LidCounts { port: l.port, lid: l.lid.0, sent: l.sent, recv: l.recv };
                format::push_lid(&mut buf, &counts);
                flush_when_full(&mut buf, out)?;
            }
        }
    }
    out.write_all(&buf)?;
    out.flush()
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

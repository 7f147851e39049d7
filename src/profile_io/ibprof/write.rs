//! Writing ibprof v1. The writer emits exactly what the reader accepts, so a parse → write →
//! parse round trip is the identity.

use std::io::{self, Write};

use crate::model::Profile;

use super::tokens::quote;

pub fn write_profile(profile: &Profile, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "ibprof 1")?;
    write!(out, "job ranks {}", profile.job_ranks)?;
    if let Some(mpi) = &profile.mpi {
        write!(out, " mpi {}", quote(mpi))?;
    }
    if let Some(source) = profile.source {
        write!(out, " source {}", source.as_str())?;
    }
    writeln!(out)?;
    for rank in &profile.ranks {
        write!(out, "rank {} host {}", rank.rank, quote(&rank.host))?;
        if let Some(pid) = rank.pid {
            write!(out, " pid {pid}")?;
        }
        writeln!(out, " starttime {}", rank.starttime)?;
        for port in &rank.ports {
            write!(out, "port {}", port.index)?;
            if let Some(device) = &port.device {
                write!(out, " device {}", quote(device))?;
            }
            if let Some(portnum) = port.portnum {
                write!(out, " portnum {portnum}")?;
            }
            write!(out, " guid {} lid {}", port.guid, port.lid)?;
            if port.lmc != 0 {
                write!(out, " lmc {}", port.lmc)?;
            }
            writeln!(out)?;
        }
        for dump in &rank.dumps {
            write!(out, "region {}", dump.region)?;
            if let Some(name) = &dump.name {
                write!(out, " name {}", quote(name))?;
            }
            writeln!(out, " dumptime {}", dump.dumptime)?;
            for p in &dump.peers {
                writeln!(out, "peer {} sent {} recv {}", p.peer, p.sent, p.recv)?;
            }
            for l in &dump.lids {
                writeln!(out, "lid {} {} sent {} recv {}", l.port, l.lid, l.sent, l.recv)?;
            }
        }
    }
    Ok(())
}

//! Writing a profile in ibprof v1, as the reader reads it back: parse → write → parse is the
//! identity. Optional fields are written only when present (`lmc` only when not 0).

use std::io::{self, Write};

use crate::model::{Dump, EpochMicros, LocalPort, Profile, RankSection};

use super::tokens::{push_hex, push_string, push_u64};

/// How much text is built up before it is handed to the writer.
const FLUSH_AT: usize = 1 << 16;

/// Writes `profile` as ibprof v1 text. Buffers internally, so `out` need not be buffered.
pub fn write_profile(profile: &Profile, out: &mut impl Write) -> io::Result<()> {
    let mut buf: Vec<u8> = Vec::with_capacity(FLUSH_AT + 256);
    buf.extend_from_slice(b"ibprof 1\njob ranks ");
    push_u64(&mut buf, u64::from(profile.job_ranks));
    if let Some(mpi) = &profile.mpi {
        buf.extend_from_slice(b" mpi ");
        push_string(&mut buf, mpi);
    }
    if let Some(source) = profile.source {
        buf.extend_from_slice(b" source ");
        buf.extend_from_slice(source.as_str().as_bytes());
    }
    buf.push(b'\n');
    for section in &profile.ranks {
        rank_line(&mut buf, section);
        for port in &section.ports {
            port_line(&mut buf, port);
        }
        for dump in &section.dumps {
            region_line(&mut buf, dump);
            for peer in &dump.peers {
                buf.extend_from_slice(b"peer ");
                push_u64(&mut buf, u64::from(peer.peer));
                sent_recv(&mut buf, peer.sent, peer.recv);
                if buf.len() >= FLUSH_AT {
                    out.write_all(&buf)?;
                    buf.clear();
                }
            }
            for lid in &dump.lids {
                buf.extend_from_slice(b"lid ");
                push_u64(&mut buf, u64::from(lid.port));
                buf.push(b' ');
                push_hex(&mut buf, u64::from(lid.lid.0), 4);
                sent_recv(&mut buf, lid.sent, lid.recv);
                if buf.len() >= FLUSH_AT {
                    out.write_all(&buf)?;
                    buf.clear();
                }
            }
        }
    }
    out.write_all(&buf)?;
    out.flush()
}

fn rank_line(buf: &mut Vec<u8>, section: &RankSection) {
    buf.extend_from_slice(b"rank ");
    push_u64(buf, u64::from(section.rank));
    buf.extend_from_slice(b" host ");
    push_string(buf, &section.host);
    if let Some(pid) = section.pid {
        buf.extend_from_slice(b" pid ");
        push_u64(buf, u64::from(pid));
    }
    buf.extend_from_slice(b" starttime ");
    push_time(buf, section.starttime);
    buf.push(b'\n');
}

fn port_line(buf: &mut Vec<u8>, port: &LocalPort) {
    buf.extend_from_slice(b"port ");
    push_u64(buf, u64::from(port.index));
    if let Some(device) = &port.device {
        buf.extend_from_slice(b" device ");
        push_string(buf, device);
    }
    if let Some(portnum) = port.portnum {
        buf.extend_from_slice(b" portnum ");
        push_u64(buf, u64::from(portnum));
    }
    buf.extend_from_slice(b" guid ");
    push_hex(buf, port.guid.0, 16);
    buf.extend_from_slice(b" lid ");
    push_hex(buf, u64::from(port.lid.0), 4);
    if port.lmc != 0 {
        buf.extend_from_slice(b" lmc ");
        push_u64(buf, u64::from(port.lmc));
    }
    buf.push(b'\n');
}

fn region_line(buf: &mut Vec<u8>, dump: &Dump) {
    buf.extend_from_slice(b"region ");
    push_u64(buf, u64::from(dump.region));
    if let Some(name) = &dump.name {
        buf.extend_from_slice(b" name ");
        push_string(buf, name);
    }
    buf.extend_from_slice(b" dumptime ");
    push_time(buf, dump.dumptime);
    buf.push(b'\n');
}

fn sent_recv(buf: &mut Vec<u8>, sent: u64, recv: u64) {
    buf.extend_from_slice(b" sent ");
    push_u64(buf, sent);
    buf.extend_from_slice(b" recv ");
    push_u64(buf, recv);
    buf.push(b'\n');
}

fn push_time(buf: &mut Vec<u8>, t: EpochMicros) {
    buf.extend_from_slice(t.to_string().as_bytes());
}

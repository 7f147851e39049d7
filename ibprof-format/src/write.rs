//! The one writer of ibprof v1: a function per record, each appending one line to a byte
//! buffer. The collector and shoal both write through these, so their files agree byte for
//! byte. Optional fields are written only when present, `lmc` only when not 0; strings follow
//! [`crate::quote`]; LIDs are `0x` and 4 hex digits, GUIDs `0x` and 16; times have six decimals.
//!
//! Nothing here panics, so the collector can call it on its way out of `MPI_Finalize`.

use crate::numbers::{push_hex, push_time, push_u64};
use crate::quote::push_string;
use crate::record::{Job, LidCounts, MsgCounts, PeerCounts, Port, Rank, Record, Region, SizeBin};

/// The first line of every file.
pub const HEADER: &str = "ibprof 1\n";

/// The prelude of a file: the header and the `job` line.
pub fn push_prelude(out: &mut Vec<u8>, job: &Job<'_>) {
    out.extend_from_slice(HEADER.as_bytes());
    push_job(out, job);
}

pub fn push_job(out: &mut Vec<u8>, job: &Job<'_>) {
    out.extend_from_slice(b"job ranks ");
    push_u64(out, u64::from(job.ranks));
    if let Some(mpi) = &job.mpi {
        out.extend_from_slice(b" mpi ");
        push_string(out, mpi);
    }
    if let Some(source) = job.source {
        out.extend_from_slice(b" source ");
        push_string(out, source);
    }
    out.push(b'\n');
}

pub fn push_rank(out: &mut Vec<u8>, rank: &Rank<'_>) {
    out.extend_from_slice(b"rank ");
    push_u64(out, u64::from(rank.rank));
    out.extend_from_slice(b" host ");
    push_string(out, &rank.host);
    if let Some(pid) = rank.pid {
        out.extend_from_slice(b" pid ");
        push_u64(out, u64::from(pid));
    }
    out.extend_from_slice(b" starttime ");
    push_time(out, rank.starttime);
    out.push(b'\n');
}

pub fn push_port(out: &mut Vec<u8>, port: &Port<'_>) {
    out.extend_from_slice(b"port ");
    push_u64(out, u64::from(port.index));
    if let Some(device) = &port.device {
        out.extend_from_slice(b" device ");
        push_string(out, device);
    }
    if let Some(portnum) = port.portnum {
        out.extend_from_slice(b" portnum ");
        push_u64(out, u64::from(portnum));
    }
    out.extend_from_slice(b" guid ");
    push_hex(out, port.guid, 16);
    out.extend_from_slice(b" lid ");
    push_hex(out, u64::from(port.lid), 4);
    if port.lmc != 0 {
        out.extend_from_slice(b" lmc ");
        push_u64(out, u64::from(port.lmc));
    }
    out.push(b'\n');
}

pub fn push_region(out: &mut Vec<u8>, region: &Region<'_>) {
    out.extend_from_slice(b"region ");
    push_u64(out, u64::from(region.number));
    if let Some(name) = &region.name {
        out.extend_from_slice(b" name ");
        push_string(out, name);
    }
    out.extend_from_slice(b" dumptime ");
    push_time(out, region.dumptime);
    out.push(b'\n');
}

/// `peer R sent B recv B [sent_msgs M recv_msgs M]`, the spelling [`crate::Canonical::peer`]
/// reads fast.
#[inline]
pub fn push_peer(out: &mut Vec<u8>, counts: &PeerCounts) {
    out.extend_from_slice(b"peer ");
    push_u64(out, u64::from(counts.peer));
    out.extend_from_slice(b" sent ");
    push_u64(out, counts.sent);
    out.extend_from_slice(b" recv ");
    push_u64(out, counts.recv);
    if let Some(msgs) = &counts.msgs {
        push_msgs(out, msgs);
    }
    out.push(b'\n');
}

/// `msgsize K sent_msgs N recv_msgs N`.
pub fn push_size_bin(out: &mut Vec<u8>, bin: &SizeBin) {
    out.extend_from_slice(b"msgsize ");
    push_u64(out, u64::from(bin.bin));
    push_msgs(out, &bin.msgs);
    out.push(b'\n');
}

#[inline]
fn push_msgs(out: &mut Vec<u8>, msgs: &MsgCounts) {
    out.extend_from_slice(b" sent_msgs ");
    push_u64(out, msgs.sent);
    out.extend_from_slice(b" recv_msgs ");
    push_u64(out, msgs.recv);
}

/// `lid I 0xL sent B recv B`, the spelling [`crate::Canonical::lid`] reads fast.
#[inline]
pub fn push_lid(out: &mut Vec<u8>, counts: &LidCounts) {
    out.extend_from_slice(b"lid ");
    push_u64(out, u64::from(counts.port));
    out.push(b' ');
    push_hex(out, u64::from(counts.lid), 4);
    push_sent_recv(out, counts.sent, counts.recv);
}

#[inline]
fn push_sent_recv(out: &mut Vec<u8>, sent: u64, recv: u64) {
    out.extend_from_slice(b" sent ");
    push_u64(out, sent);
    out.extend_from_slice(b" recv ");
    push_u64(out, recv);
    out.push(b'\n');
}

/// Any record, as its own function writes it.
pub fn push_record(out: &mut Vec<u8>, record: &Record<'_>) {
    match record {
        Record::Header => out.extend_from_slice(HEADER.as_bytes()),
        Record::Job(job) => push_job(out, job),
        Record::Rank(rank) => push_rank(out, rank),
        Record::Port(port) => push_port(out, port),
        Record::Region(region) => push_region(out, region),
        Record::Peer(counts) => push_peer(out, counts),
        Record::Lid(counts) => push_lid(out, counts),
        Record::Size(bin) => push_size_bin(out, bin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(write: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        write(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn a_section_reads_as_the_format_specifies() {
        let job = Job { ranks: 4, mpi: Some("Open MPI v4.1.4".into()), source: Some("pmpi") };
        let rank = Rank { rank: 0, host: "n0001".into(), pid: Some(42), starttime: 1_700_000_000_250_000 };
        let port = Port {
            index: 0,
            device: Some("mlx5_0".into()),
            portnum: Some(1),
            guid: 0x0002_c903_00a1_b2c3,
            lid: 0x12,
            lmc: 0,
        };
        let region =
            Region { number: 0, name: Some("exchange phase".into()), dumptime: 1_700_000_001_000_000 };
        let written = text(|out| {
            push_prelude(out, &job);
            push_rank(out, &rank);
            push_port(out, &port);
            push_port(out, &Port { index: 1, lid: 0x20, lmc: 2, ..Port::default() });
            push_region(out, &region);
            push_peer(out, &PeerCounts { peer: 1, sent: 4096, recv: 2048, msgs: None });
            push_peer(
                out,
                &PeerCounts { peer: 2, sent: 10, recv: 0, msgs: Some(MsgCounts { sent: 2, recv: 0 }) },
            );
            push_lid(out, &LidCounts { port: 0, lid: 0x13, sent: 4096, recv: 0 });
            push_size_bin(out, &SizeBin { bin: 12, msgs: MsgCounts { sent: 3, recv: 1 } });
        });
        assert_eq!(
            written,
            "ibprof 1\n\
             job ranks 4 mpi \"Open MPI v4.1.4\" source pmpi\n\
             rank 0 host n0001 pid 42 starttime 1700000000.250000\n\
             port 0 device mlx5_0 portnum 1 guid 0x0002c90300a1b2c3 lid 0x0012\n\
             port 1 guid 0x0000000000000000 lid 0x0020 lmc 2\n\
             region 0 name \"exchange phase\" dumptime 1700000001.000000\n\
             peer 1 sent 4096 recv 2048\n\
             peer 2 sent 10 recv 0 sent_msgs 2 recv_msgs 0\n\
             lid 0 0x0013 sent 4096 recv 0\n\
             msgsize 12 sent_msgs 3 recv_msgs 1\n"
        );
    }

    #[test]
    fn absent_optional_fields_are_left_out() {
        assert_eq!(text(|out| push_job(out, &Job::default())), "job ranks 0\n");
        let rank = Rank { host: "".into(), ..Rank::default() };
        assert_eq!(text(|out| push_rank(out, &rank)), "rank 0 host \"\" starttime 0.000000\n");
        assert_eq!(text(|out| push_region(out, &Region::default())), "region 0 dumptime 0.000000\n");
    }

    #[test]
    fn names_are_bare_when_they_can_be() {
        let region = Region { number: 2, name: Some("finalize".into()), dumptime: 9_000_000 };
        assert_eq!(text(|out| push_region(out, &region)), "region 2 name finalize dumptime 9.000000\n");
    }
}

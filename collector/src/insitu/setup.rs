//! `MPI_Init` with `IBPROF_RAILS`: the fabric from rank 0's read of the dumps, broadcast; every
//! rank's host by an allgather; one [`RankTracer`] per rank.
//!
//! Protocol on the collector's private communicator, the same on every rank whatever fails:
//! 1. rank 0 packs the rails' files ([`pack_rails`]) and reads `IBPROF_HOSTMAP`, then broadcasts
//!    `[ok, rails bytes, host-map bytes, message bytes]`;
//! 2. the rails, the host map (or the failure message) are broadcast in chunks;
//! 3. every rank builds the cluster from the bytes (so every rank gets the same result);
//! 4. host-name lengths are allgathered, then the names (allgatherv).

use std::ffi::{c_int, c_void};

use shoal::model::{Cluster, HostMap};
use shoal::profile_io::host_map::parse_host_map;
use shoal::profile_io::rail_bundle::{pack_rails, unpack_cluster};
use shoal::routing::RailPolicy;
use shoal::routing::in_situ::RankTracer;

use super::{InSitu, own_section};
use crate::config::Config;
use crate::ffi::{Handle, Mpi};

const CHUNK: usize = 1 << 30;

/// Sets up in-situ tracing, or `None` without `IBPROF_RAILS`. Collective.
pub fn setup(
    m: &Mpi,
    config: &Config,
    rank: u32,
    host: &str,
    ports: Vec<shoal::model::LocalPort>,
    comm: Handle,
) -> Option<InSitu> {
    if config.rails.is_empty() {
        return None;
    }
    let root = rank == 0;
    // Shoal's parsers run in parallel; in an MPI job one helper thread per rank is plenty.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().ok();
    let (mut rails, mut map, mut message) = (Vec::new(), Vec::new(), Vec::new());
    if root {
        let read = || read_inputs(config);
        match pool.as_ref().map_or_else(read, |p| p.install(read)) {
            Ok((r, h)) => (rails, map) = (r, h),
            Err(e) => message = e.into_bytes(),
        }
    }
    let mut head =
        [u64::from(message.is_empty()), rails.len() as u64, map.len() as u64, message.len() as u64];
    bcast(m, comm, as_bytes_mut(&mut head));
    rails.resize(head[1] as usize, 0);
    map.resize(head[2] as usize, 0);
    message.resize(head[3] as usize, 0);
    bcast(m, comm, &mut rails);
    bcast(m, comm, &mut map);
    bcast(m, comm, &mut message);
    let names = allgather_names(m, comm, host);
    let section = own_section(rank, host, ports);
    let empty: &'static Cluster = Box::leak(Box::default());
    if head[0] == 0 {
        let why = String::from_utf8_lossy(&message).into_owned();
        return Some(InSitu::new(None, empty, Some(why), config.top_k, section));
    }
    let build = || unpack_cluster(&rails);
    let built = pool.as_ref().map_or_else(build, |p| p.install(build));
    let cluster: &'static Cluster = match built {
        Ok((cluster, warnings)) => {
            if root && !warnings.is_empty() {
                eprintln!(
                    "ibprof: IBPROF_RAILS: {} warnings while loading the rails (first: {})",
                    warnings.len(),
                    warnings[0]
                );
            }
            Box::leak(Box::new(cluster))
        }
        Err(e) => {
            let why = format!("cannot load the fabric IBPROF_RAILS: {e}");
            return Some(InSitu::new(None, empty, Some(why), config.top_k, section));
        }
    };
    let display = config.host_map.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let (host_map, warnings) = parse_host_map(&String::from_utf8_lossy(&map), &display);
    if root && !warnings.is_empty() {
        eprintln!("ibprof: IBPROF_HOSTMAP: {} lines skipped (first: {})", warnings.len(), warnings[0]);
    }
    let host_map: &'static HostMap = Box::leak(Box::new(host_map));
    let policy = parse_policy(&config.rail_policy);
    // The same K on every rank: it depends only on the setting and the broadcast fabric.
    let ends = cluster.rails.iter().map(|f| f.link_end_count()).sum();
    let (top_k, why) = super::budget::top_k_within(config.top_k, ends);
    if let Some(why) = why.filter(|_| root) {
        eprintln!("ibprof: {why}");
    }
    let tracer = RankTracer::new(
        cluster,
        policy,
        host_map,
        names.iter().enumerate().map(|(r, n)| (r as u32, n.as_str())),
        top_k,
    );
    Some(InSitu::new(Some(tracer), cluster, None, top_k, section))
}

fn parse_policy(text: &str) -> RailPolicy {
    match text.trim().strip_prefix("rail:").and_then(|n| n.parse::<u8>().ok()) {
        Some(n) => RailPolicy::Rail(n),
        None => RailPolicy::Split,
    }
}

/// Rank 0's read of the rails and the host map; an error says which failed.
fn read_inputs(config: &Config) -> Result<(Vec<u8>, Vec<u8>), String> {
    let (rails, _) =
        pack_rails(&config.rails).map_err(|e| format!("cannot load the fabric IBPROF_RAILS: {e}"))?;
    let map = match &config.host_map {
        Some(path) => {
            std::fs::read(path).map_err(|e| format!("cannot read IBPROF_HOSTMAP {}: {e}", path.display()))?
        }
        None => Vec::new(),
    };
    Ok((rails, map))
}

fn as_bytes_mut(v: &mut [u64; 4]) -> &mut [u8] {
    // SAFETY: four u64 are 32 initialised bytes, and any byte pattern is a valid u64.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, 32) }
}

/// Broadcasts `buf` from rank 0 in chunks that fit an `int` count.
pub(super) fn bcast(m: &Mpi, comm: Handle, buf: &mut [u8]) {
    // An empty buffer is skipped (every rank knows its length): its dangling address may be
    // 0x1, Open MPI's MPI_IN_PLACE.
    for chunk in buf.chunks_mut(CHUNK) {
        // SAFETY: the chunk is valid for its length in bytes.
        unsafe {
            (m.f.bcast)(chunk.as_mut_ptr() as *mut c_void, chunk.len() as c_int, m.c.byte, 0, comm);
        }
    }
}

/// Every rank's host name, by rank.
fn allgather_names(m: &Mpi, comm: Handle, host: &str) -> Vec<String> {
    let mut size: c_int = 0;
    // SAFETY: a valid out-pointer.
    unsafe { (m.f.comm_size)(comm, &mut size) };
    let n = usize::try_from(size).unwrap_or(0);
    let with_nul = format!("{host}\0");
    let mine = &with_nul.as_bytes()[..host.len()];
    let len = mine.len() as c_int;
    let mut lens = vec![0 as c_int; n];
    // SAFETY: one int in, `n` ints out, as bytes.
    unsafe {
        (m.f.allgather)(
            &len as *const c_int as *const c_void,
            4,
            m.c.byte,
            lens.as_mut_ptr() as *mut c_void,
            4,
            m.c.byte,
            comm,
        );
    }
    let (displs, at) = super::displacements(&lens);
    let mut all = vec![0u8; usize::try_from(at).unwrap_or(0) + 1];
    // SAFETY: `all` holds the sum of the lengths; counts and displacements describe it.
    unsafe {
        (m.f.allgatherv)(
            mine.as_ptr() as *const c_void,
            len,
            m.c.byte,
            all.as_mut_ptr() as *mut c_void,
            lens.as_ptr(),
            displs.as_ptr(),
            m.c.byte,
            comm,
        );
    }
    displs
        .iter()
        .zip(&lens)
        .map(|(&d, &l)| {
            let (d, l) = (d as usize, l as usize);
            String::from_utf8_lossy(all.get(d..d + l).unwrap_or(&[])).into_owned()
        })
        .collect()
}

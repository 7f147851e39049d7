//! `MPI_Finalize` with in-situ tracing: the ranks' region vectors summed to rank 0 (a
//! saturating sum, [`Reduction::sum_u64`]), the top-K summaries merged ([`Reduction::top_k`]),
//! the placement problems gathered and counted, and rank 0 writes the loads file with shoal's
//! writer ([`write_loads_file`]). Collective, in the same order on every rank.

use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::io::BufWriter;
use std::path::PathBuf;

use shoal::export::loads_file::{LoadsNotes, write_loads_file};
use shoal::model::EpochMicros;
use shoal::routing::loads_input::TopKTable;
use shoal::routing::topk::{Contributor, EMPTY, merge_slots};
use shoal::routing::{Loads, RailLoad, RegionKey, RegionLoads};

use crate::ffi::{Handle, Mpi};
use crate::insitu::{InSitu, RegionRecord, displacements};
use crate::ops::{Reduction, reduce_to_root};
use crate::state::State;

/// Reduces every region to rank 0 and writes the loads file there.
pub fn finish(st: &State, insitu: &InSitu) {
    let (m, comm, root) = (st.mpi, st.private, st.rank == 0);
    let path = loads_path(st);
    if let Some(why) = &insitu.failure {
        // Every rank saw the same bytes, so every rank is here: nothing collective follows.
        if root {
            write_failure(st, insitu, &path, why);
        }
        return;
    }
    let Some(tracer) = insitu.tracer.as_ref() else { return };
    let layout = tracer.layout().clone();
    let count = allreduce_max(m, comm, insitu.regions.len() as i64).max(0) as usize;
    let (sum, top_op) = match (Reduction::sum_u64(m), reductions_top(m, insitu.top_k)) {
        (Ok(s), Ok(t)) => (s, t),
        (Err(e), _) | (_, Err(e)) => {
            if root {
                eprintln!("ibprof: no loads file: {e}");
            }
            return;
        }
    };
    let k = insitu.top_k;
    let ends = layout.link_ends();
    let mut loads = Loads::default();
    let mut table = TopKTable { k, ends: BTreeMap::new() };
    let mut total_slots = vec![EMPTY; if root && top_op.is_some() { ends * k } else { 0 }];
    for r in 0..count {
        let record = insitu.regions.get(r);
        let mut dense = vec![0u64; layout.len()];
        for &(p, b) in record.map_or(&[][..], |x| &x.sparse) {
            dense[p as usize] = b;
        }
        let mut summed = vec![0u64; if root { layout.len() } else { 1 }];
        reduce_to_root(m, &sum, &dense, &mut summed, comm);
        drop(dense);
        let time = reduce_max(m, comm, record.map_or(i64::MIN, |x| x.time));
        if root {
            let mut region = layout.region_loads(&summed, Some(r as u32));
            region.name = record.and_then(|x| x.name.clone());
            region.dumptime = (time != i64::MIN).then_some(EpochMicros(time));
            loads.regions.push(region);
        }
        if let Some(op) = &top_op {
            let merged = reduce_top(m, comm, root, op, k, ends, record);
            if root {
                for (total, region) in total_slots.chunks_mut(k).zip(merged.chunks(k)) {
                    merge_slots(total, region);
                }
                table.ends.insert(RegionKey::Region(r as u32), layout.top_pairs(&merged, k));
            }
        }
    }
    sum.free();
    if let Some(op) = top_op {
        op.free();
    }
    let problems = gather_problems(m, comm, root, &tracer.problems().counted());
    if !root {
        return;
    }
    loads.total = RegionLoads::sum(&loads.regions);
    loads.total.rails.resize_with(layout.offsets.len() - 1, || RailLoad::with_link_ends(0));
    if k > 0 {
        table.ends.insert(RegionKey::Total, layout.top_pairs(&total_slots, k));
    }
    report(&problems, &loads, &path);
    let notes = LoadsNotes { title: title(st, count, k), problems, job: String::new() };
    let top = (k > 0).then_some(&table);
    if write(&path, |out| write_loads_file(insitu.cluster, &loads, &notes, top, out)) {
        eprintln!("ibprof: wrote {} ({} ranks, {count} regions)", path.display(), st.size);
    }
}

/// Rank 0's loads file when the fabric did not load: the reason, counted, and no rows.
fn write_failure(st: &State, insitu: &InSitu, path: &std::path::Path, why: &str) {
    eprintln!("ibprof: {why}; the loads file says so and holds no loads");
    let notes = LoadsNotes {
        title: title(st, 0, insitu.top_k),
        problems: vec![(1, why.to_string())],
        job: String::new(),
    };
    write(path, |out| {
        write_loads_file(insitu.cluster, &Loads::default(), &notes, None, &mut *out)?;
        // No links, so no rows: the header still says what the table would hold.
        std::io::Write::write_all(out, b"rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n")
    });
}

/// One region's top-K slots of every rank merged on rank 0 (`ends × k` slots there).
fn reduce_top(
    m: &Mpi,
    comm: Handle,
    root: bool,
    op: &Reduction,
    k: usize,
    ends: usize,
    record: Option<&RegionRecord>,
) -> Vec<Contributor> {
    let mut slots = vec![EMPTY; ends * k];
    for (p, kept) in record.map_or(&[][..], |x| &x.top) {
        let at = *p as usize * k;
        for (slot, c) in slots[at..at + k].iter_mut().zip(kept) {
            *slot = *c;
        }
    }
    let mut merged = vec![EMPTY; if root { ends * k } else { 1 }];
    reduce_to_root(m, op, &slots, &mut merged, comm);
    merged
}

fn reductions_top(m: &Mpi, k: usize) -> Result<Option<Reduction>, String> {
    if k == 0 { Ok(None) } else { Reduction::top_k(m, k).map(Some) }
}

fn loads_path(st: &State) -> PathBuf {
    st.config.loads.clone().unwrap_or_else(|| {
        let out = st.config.out.to_string_lossy().into_owned();
        PathBuf::from(format!("{}.loads.csv", out.strip_suffix(".ibprof").unwrap_or(&out)))
    })
}

fn title(st: &State, regions: usize, top_k: usize) -> String {
    let rails: Vec<String> = st
        .config
        .rails
        .iter()
        .map(|r| r.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(","))
        .collect();
    format!(
        "libibprof in-situ loads: {} ranks, {regions} regions, rails {}, rail policy {}, top-K {}{}",
        st.size,
        rails.join(";"),
        st.config.rail_policy,
        top_k,
        // The setting, when the collector could not honour it (see `insitu::budget`).
        if top_k == st.config.top_k {
            String::new()
        } else {
            format!(" (IBPROF_TOPK={} capped)", st.config.top_k)
        }
    )
}

/// One line per distinct problem, and one for undelivered bytes, on rank 0's stderr.
fn report(problems: &[(u64, String)], loads: &Loads, path: &std::path::Path) {
    for (ranks, message) in problems {
        eprintln!("ibprof: in-situ trace: {message} (on {ranks} ranks)");
    }
    let undelivered: u64 = loads.total.rails.iter().map(|r| r.undelivered).sum();
    if undelivered > 0 {
        eprintln!(
            "ibprof: in-situ trace: {undelivered} bytes were not delivered by the forwarding tables (see the `# undelivered` lines of {})",
            path.display()
        );
    }
}

fn write(
    path: &std::path::Path,
    body: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> bool {
    let result = crate::safe_file::create_regular(path).and_then(|f| {
        let mut out = BufWriter::new(f);
        body(&mut out)?;
        std::io::Write::flush(&mut out)
    });
    if let Err(e) = &result {
        eprintln!("ibprof: cannot write loads file {}: {e}", path.display());
    }
    result.is_ok()
}

fn allreduce_max(m: &Mpi, comm: Handle, value: i64) -> i64 {
    let mut out = value;
    // SAFETY: one long long in, one out.
    unsafe {
        (m.f.allreduce)(
            &value as *const i64 as *const c_void,
            &mut out as *mut i64 as *mut c_void,
            1,
            m.c.long_long,
            m.c.op_max,
            comm,
        );
    }
    out
}

fn reduce_max(m: &Mpi, comm: Handle, value: i64) -> i64 {
    let mut out = value;
    // SAFETY: one long long in, one out (significant on rank 0).
    unsafe {
        (m.f.reduce)(
            &value as *const i64 as *const c_void,
            &mut out as *mut i64 as *mut c_void,
            1,
            m.c.long_long,
            m.c.op_max,
            0,
            comm,
        );
    }
    out
}

/// Every rank's problems (`message → bytes`) on rank 0: (ranks that met it, message with bytes).
fn gather_problems(m: &Mpi, comm: Handle, root: bool, mine: &[(String, u64)]) -> Vec<(u64, String)> {
    let text: String = mine.iter().map(|(msg, b)| format!("{b}\t{}\n", msg.replace('\n', " "))).collect();
    let len = text.len() as c_int;
    // Never an empty buffer: its dangling address may be 0x1, Open MPI's MPI_IN_PLACE.
    let text = format!("{text}\0");
    let mut size: c_int = 0;
    // SAFETY: a valid out-pointer.
    unsafe { (m.f.comm_size)(comm, &mut size) };
    let n = if root { usize::try_from(size).unwrap_or(0) } else { 1 };
    let mut lens = vec![0 as c_int; n];
    // SAFETY: one int per rank, gathered as bytes.
    unsafe {
        (m.f.gather)(
            &len as *const c_int as *const c_void,
            4,
            m.c.byte,
            lens.as_mut_ptr() as *mut c_void,
            4,
            m.c.byte,
            0,
            comm,
        );
    }
    let (displs, at) = displacements(&lens);
    let mut all = vec![0u8; usize::try_from(at).unwrap_or(0) + 1];
    // SAFETY: `all` holds every rank's text at its displacement (significant on rank 0).
    unsafe {
        (m.f.gatherv)(
            text.as_ptr() as *const c_void,
            len,
            m.c.byte,
            all.as_mut_ptr() as *mut c_void,
            lens.as_ptr(),
            displs.as_ptr(),
            m.c.byte,
            0,
            comm,
        );
    }
    let mut counted: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    all.pop();
    for line in String::from_utf8_lossy(&all).lines() {
        let Some((bytes, message)) = line.split_once('\t') else { continue };
        let entry = counted.entry(message.to_string()).or_default();
        entry.0 += 1;
        entry.1 = entry.1.saturating_add(bytes.parse().unwrap_or(0));
    }
    counted
        .into_iter()
        .map(|(message, (ranks, bytes))| {
            (ranks, if bytes > 0 { format!("{message} ({bytes} bytes)") } else { message })
        })
        .collect()
}

// The top-K datatype is `k` slots of 16 bytes each.
const _: () = assert!(std::mem::size_of::<Contributor>() == 16);

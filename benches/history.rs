//! `history`: a day of every port from Prometheus (issue 26's speed target: a 24-hour range at
//! 60 s steps for the k = 36 rails, ≤ 10 s). Every sending port of both k = 36 rails (139,968
//! series: every link end) with 1,441 points (00:00 to 24:00 at one minute: 1,440 intervals),
//! as `query_range` hands them over, folded into the link-end columns and turned into the
//! intervals the time strip reads (`HistoryFold`, what `--prometheus` does after each series
//! is parsed).
//!
//! `day_of_every_port_folded`: the series handed over one by one (each made, folded, dropped),
//! the fold's part alone; `hour_of_every_port_folded`: the same at 60 steps, the size of
//! `footprints`' `counter_history_one_hour_of_every_port` (the path through snapshots).
//! `day_of_every_port_parsed_and_folded`: the same answer as the server's JSON text (4 GB,
//! made as it is read, never held), parsed as it streams and folded: the whole path after the
//! socket.
//!
//! `range_from_a_server_folded`: with `SHOAL_BENCH_PROMETHEUS="URL FROM TO"` (Unix seconds; a
//! server holding series of this cluster's ports, as scripts/measure-prometheus-remote-read.py
//! backfills them), that range at 60 s read as `--prometheus` reads it (remote read first) and
//! folded: the whole path from the socket, the server's time included. Skipped without it.
//!
//! Each case prints the columns' bytes and the process's peak resident memory (`VmHWM`).
//! `cargo bench --bench history`

use std::collections::HashMap;
use std::io::Read;

use divan::Bencher;
use shoal::model::{Cluster, LinkEnd};
use shoal::profile_io::prometheus_api::matrix::read_matrix;
use shoal::profile_io::prometheus_api::snapshots::{Point, Series, millis};
use shoal::profile_io::prometheus_api::{PromRange, stream_range};
use shoal::routing::history::{HistoryFold, StepGrid, prepare};

#[path = "support/k36_cluster.rs"]
mod k36_cluster;

/// 00:00 to 24:00 at 60 s.
const POINTS: usize = 1441;
const STEP: f64 = 60.0;
const T0: f64 = 1.7e9;

fn main() {
    divan::main();
}

fn cluster() -> &'static Cluster {
    k36_cluster::two_rails()
}

/// Every link end's sending port, as (GUID, port) labels.
fn ports(cluster: &Cluster) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for fabric in &cluster.rails {
        for i in 0..fabric.link_end_count() {
            let Some(((node, port), _)) = fabric.link_end_nodes(LinkEnd::from_index(i)) else { continue };
            out.push((fabric.node(node).guid.to_string(), port.0.to_string()));
        }
    }
    out
}

/// Port `i`'s counter at step `k`: a few MB a minute, different per port.
fn count(i: usize, k: usize) -> u64 {
    1_000_000 + (4096 * k * (i % 7)) as u64
}

fn series(i: usize, (guid, port): &(String, String), points: usize) -> Series {
    let metric: HashMap<String, String> = [
        ("__name__", "infiniband_switch_port_transmit_data_bytes_total"),
        ("guid", guid.as_str()),
        ("port", port.as_str()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    // Each value as the answer's parse leaves it: a count read in place.
    let values = (0..points)
        .map(|k| Point { ms: millis(T0 + STEP * k as f64), value: Ok((count(i, k), true)) })
        .collect();
    Series { metric, values }
}

fn grid(points: usize) -> StepGrid {
    StepGrid::new(T0, T0 + STEP * (points - 1) as f64, STEP).expect("a range at 60 s")
}

/// The process's peak resident memory, in MB.
fn peak_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap_or("VmHWM: 0 kB");
    line.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()).unwrap_or(0) / 1000
}

fn report(observed: &shoal::routing::Observed, points: usize) -> usize {
    let intervals = observed.series.len();
    assert_eq!(intervals, points - 1);
    let first = &observed.series[0].rails;
    assert_eq!(first.value_at(0, 1), Some(4096 * (1 % 7)), "an interval's bytes");
    eprintln!("history: {intervals} intervals; peak resident {} MB", peak_mb());
    intervals
}

/// Every port's series of `points` steps, made one by one and folded.
fn fold_every_port(bencher: Bencher, points: usize) {
    let cluster = cluster();
    let ports = ports(cluster);
    eprintln!("history: {} series × {points} points", ports.len());
    bencher.bench(|| {
        let mut fold = HistoryFold::new(cluster, grid(points), "bench");
        for (i, port) in ports.iter().enumerate() {
            fold.add(&series(i, port, points));
        }
        report(&fold.finish().0, points)
    });
}

/// The size of `footprints`' `counter_history_one_hour_of_every_port` (the path through
/// snapshots): 60 steps.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn hour_of_every_port_folded(bencher: Bencher) {
    fold_every_port(bencher, 60);
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn day_of_every_port_folded(bencher: Bencher) {
    fold_every_port(bencher, POINTS);
}

/// The `data` of the answer as JSON text, made series by series as it is read.
struct AnswerText<'p> {
    ports: &'p [(String, String)],
    next: usize,
    buffer: Vec<u8>,
    at: usize,
}

impl AnswerText<'_> {
    fn refill(&mut self) {
        use std::fmt::Write;
        let mut text = String::new();
        if self.next == 0 {
            text.push_str("{\"resultType\":\"matrix\",\"result\":[");
        }
        if let Some((guid, port)) = self.ports.get(self.next) {
            let comma = if self.next > 0 { "," } else { "" };
            let _ = write!(
                text,
                "{comma}{{\"metric\":{{\"__name__\":\"infiniband_switch_port_transmit_data_bytes_total\",\"guid\":\"{guid}\",\"port\":\"{port}\"}},\"values\":["
            );
            for k in 0..POINTS {
                let sep = if k > 0 { "," } else { "" };
                let _ = write!(text, "{sep}[{},\"{}\"]", T0 + STEP * k as f64, count(self.next, k));
            }
            text.push_str("]}");
        } else if self.next == self.ports.len() {
            text.push_str("]}");
        }
        self.next += 1;
        (self.buffer, self.at) = (text.into_bytes(), 0);
    }
}

impl Read for AnswerText<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.buffer.len() && self.next <= self.ports.len() {
            self.refill();
        }
        let n = out.len().min(self.buffer.len() - self.at);
        out[..n].copy_from_slice(&self.buffer[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn day_of_every_port_parsed_and_folded(bencher: Bencher) {
    let cluster = cluster();
    let ports = ports(cluster);
    bencher.bench(|| {
        let mut fold = HistoryFold::new(cluster, grid(POINTS), "bench");
        let text = AnswerText { ports: &ports, next: 0, buffer: Vec::new(), at: 0 };
        let reader = std::io::BufReader::with_capacity(1 << 16, text);
        let summary = read_matrix(reader, &mut |series| fold.add(&series)).expect("the answer parses");
        eprintln!("history: parsed {} series, {} points", summary.series, summary.points);
        report(&fold.finish().0, POINTS)
    });
}

/// The process's CPU seconds so far (user + system, all threads).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given; a zeroed rusage is a valid one.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The range `SHOAL_BENCH_PROMETHEUS` names, from its server (see the module doc).
fn server_range() -> Option<PromRange> {
    let spec = std::env::var("SHOAL_BENCH_PROMETHEUS").ok()?;
    let words: Vec<&str> = spec.split_whitespace().collect();
    let [url, from, to] = words[..] else { panic!("SHOAL_BENCH_PROMETHEUS is \"URL FROM TO\": {spec}") };
    let seconds = |w: &str| w.parse::<f64>().expect("Unix seconds");
    Some(PromRange { url: url.to_string(), from: seconds(from), to: seconds(to), step: STEP })
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn range_from_a_server_folded(bencher: Bencher) {
    let Some(range) = server_range() else {
        eprintln!("history: SHOAL_BENCH_PROMETHEUS is not set; no server to read");
        return;
    };
    let cluster = cluster();
    let grid = StepGrid::new(range.from, range.to, range.step).expect("a range at 60 s");
    bencher.bench(|| {
        let cpu = cpu_seconds();
        let mut fold = HistoryFold::new(cluster, grid, "bench");
        let ready = |series: Series| prepare(&series, grid);
        let answer = stream_range(&range, &ready, &mut |p| fold.add_prepared(p)).expect("the server answers");
        let series = fold.series();
        let read = cpu_seconds() - cpu;
        let (observed, warnings) = fold.finish();
        eprintln!(
            "history: {series} series from {} folded into {} intervals, {} link ends covered; {read:.2} s of CPU to read and fold, {:.2} s to finish; {} warnings {:?}",
            answer.source,
            observed.series.len(),
            observed.covered(),
            cpu_seconds() - cpu - read,
            warnings.len() + answer.warnings.len(),
            answer.warnings.iter().chain(&warnings).take(2).map(|w| w.to_string()).collect::<Vec<_>>()
        );
        eprintln!("history: peak resident {} MB", peak_mb());
        observed.series.len()
    });
}

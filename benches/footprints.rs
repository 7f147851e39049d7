//! `footprints`: the footprints of 1,000 scheduler jobs on the two k = 36 rails (11,664 hosts
//! and 34,992 links per rail, D-mod-k tables), as `--jobs-from` computes them: each job's hosts
//! placed, then the link ends on the routes among them, per rail (issue 26; target ≤ 2 s).
//!
//! The jobs are drawn with a fixed seed the way a scheduler hands out nodes: sizes from 1 to
//! 256 hosts (most small: the size is 2^u for u uniform in [0, 8]), each a run of consecutive
//! hosts from a random first one (Slurm's default contiguous allocation), every eighth scattered
//! over the whole machine instead.
//!
//! `counter_history_one_hour_of_every_port`: a `query_range` answer for every sending port of
//! both rails (139,968 series: every link end) at 60 steps, turned into snapshots and joined to the link ends as
//! a series (the time strip's input): the part of `--prometheus` after the HTTP answer.
//!
//! `query_range_answer_parsed`: the same answer as the server's JSON text (about 20 bytes a
//! point), parsed into series with each value read as a count in place: the part before.
//!
//! `cargo bench --bench footprints`

use std::collections::HashMap;

use divan::Bencher;
use shoal::model::{Cluster, LinkEnd};
use shoal::profile_io::prometheus_api::snapshots::{Point, Series, snapshots_of};
use shoal::profile_io::slurm::SlurmJob;
use shoal::routing::{CounterInput, observe};
use shoal::view_model::dataset::scheduled::schedule;

#[path = "support/k36_cluster.rs"]
mod k36_cluster;

const JOBS: usize = 1000;

fn main() {
    divan::main();
}

fn cluster() -> &'static Cluster {
    k36_cluster::two_rails()
}

/// A small fixed-seed generator (SplitMix64), so every run times the same jobs.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn jobs(cluster: &Cluster) -> Vec<SlurmJob> {
    let names: Vec<&str> = cluster.hosts.iter().map(|h| h.name.as_str()).collect();
    let mut draw = Draw(26);
    (0..JOBS)
        .map(|j| {
            let size = 1usize << draw.below(9);
            let hosts: Vec<String> = if j % 8 == 7 {
                (0..size).map(|_| names[draw.below(names.len())].to_string()).collect()
            } else {
                let first = draw.below(names.len() - size);
                names[first..first + size].iter().map(|h| h.to_string()).collect()
            };
            SlurmJob {
                id: (1000 + j).to_string(),
                name: format!("job{j}"),
                user: "bench".into(),
                node_list: String::new(),
                hosts,
                start: Some(0.0),
                end: Some(3600.0),
                state: "COMPLETED".into(),
                line: j + 2,
            }
        })
        .collect()
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn footprints_of_1000_jobs(bencher: Bencher) {
    let cluster = cluster();
    let list = jobs(cluster);
    let ends: usize = schedule(cluster, list.clone(), "bench").0.iter().map(|j| j.footprint.len()).sum();
    eprintln!("footprints: {JOBS} jobs, {} hosts per rail, {ends} link ends in all", cluster.hosts.len());
    bencher.with_inputs(|| list.clone()).bench_values(|jobs| schedule(cluster, jobs, "bench"));
}

/// Steps in the counter-history bench: one hour at 60 s (the target is a day, 1,440).
const STEPS: usize = 60;

/// Every sending port of both k = 36 rails as a treydock series with `STEPS` points, as
/// `query_range` answers them: what [`snapshots_of`] and `observe` turn into a time strip.
fn server_answer(cluster: &Cluster) -> Vec<Series> {
    let mut series = Vec::new();
    for fabric in &cluster.rails {
        for i in 0..fabric.link_end_count() {
            let Some(((node, port), _)) = fabric.link_end_nodes(LinkEnd::from_index(i)) else { continue };
            let metric: HashMap<String, String> = [
                ("__name__", "infiniband_switch_port_transmit_data_bytes_total".to_string()),
                ("guid", fabric.node(node).guid.to_string()),
                ("port", port.0.to_string()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
            let values = (0..STEPS)
                .map(|k| Point::new(1.7e9 + 60.0 * k as f64, &(1_000_000 + 4096 * k * (i % 7)).to_string()))
                .collect();
            series.push(Series { metric, values });
        }
    }
    series
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn counter_history_one_hour_of_every_port(bencher: Bencher) {
    let cluster = cluster();
    let answer = server_answer(cluster);
    eprintln!("counter history: {} series × {STEPS} steps", answer.len());
    bencher.bench(|| {
        let (snapshots, _) = snapshots_of("bench", &answer);
        let inputs: Vec<CounterInput> =
            snapshots.into_iter().map(|snapshot| CounterInput { rail: None, snapshot }).collect();
        observe(cluster, &inputs).expect("observed").0.series.len()
    });
}

/// The server's JSON text of [`server_answer`]'s series (the `result` array of `query_range`).
fn answer_text(series: &[Series]) -> String {
    let mut out = String::from("[");
    for (n, one) in series.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let labels: Vec<String> = one.metric.iter().map(|(k, v)| format!("\"{k}\":\"{v}\"")).collect();
        out.push_str(&format!("{{\"metric\":{{{}}},\"values\":[", labels.join(",")));
        for (k, point) in one.values.iter().enumerate() {
            let value = point.value.as_ref().map_or(0, |v| v.0);
            out.push_str(&format!(
                "{}[{},\"{value}\"]",
                if k > 0 { "," } else { "" },
                point.ms as f64 / 1000.0
            ));
        }
        out.push_str("]}");
    }
    out.push(']');
    out
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn query_range_answer_parsed(bencher: Bencher) {
    let text = answer_text(&server_answer(cluster()));
    eprintln!("query_range answer: {} MB of JSON", text.len() / 1_000_000);
    bencher
        .bench(|| serde_json::from_slice::<Vec<Series>>(text.as_bytes()).expect("the answer parses").len());
}

//! `view_model`: what the one view model costs on a large fabric, a two-rail two-level fat tree
//! with 100,000 links (200 leaves × 125 hosts and 125 spines per rail, two regions of traffic;
//! 200,000 link ends, 3 rows each in the traffic table).
//!
//! - `fabric_run_adapter`: the fabric entering the view model (nodes, link ends, traffic and
//!   port tables, the projections and their joins), done once per load.
//! - `prepare_total` / `prepare_region_with_clause`: one view's values, masks and ranges through
//!   the query engine, done when a view's region, filter or colouring changes.
//! - `highlight_host`: a host picked, projected onto every domain.
//!
//! Run: `cargo bench --bench view_model`.

use std::sync::OnceLock;

use shoal::modules::registry::prepare_view;
use shoal::view_model::dataset::{RankJobs, fabric_run};
use shoal::view_model::filter::{Clause, Filter};
use shoal::view_model::highlight::{Highlight, Seed, project};
use shoal::view_model::{Dataset, RegionSelection, ViewSpec};

fn main() {
    divan::main();
}

fn fabric() -> &'static Dataset {
    static D: OnceLock<Dataset> = OnceLock::new();
    D.get_or_init(|| Dataset::synthetic(200, 125, 125, 2))
}

#[divan::bench(sample_count = 10)]
fn fabric_run_adapter(b: divan::Bencher) {
    let d = fabric();
    let f = d.fabric.as_ref().expect("a fabric");
    b.bench_local(|| {
        let traffic = f.traffic_sets();
        let (rank_jobs, flows) = (RankJobs::new(), &f.flows);
        fabric_run(&d.name, &f.cluster, &f.layout, &traffic, &f.rank_hosts, (&rank_jobs, flows))
            .1
            .link_count()
    });
}

#[divan::bench(sample_count = 10)]
fn prepare_total(b: divan::Bencher) {
    let d = fabric();
    let spec = ViewSpec::for_dataset(d);
    b.bench_local(|| prepare_view(d, &spec, &Filter::default()).map(|p| p.link_values.len()));
}

#[divan::bench(sample_count = 10)]
fn prepare_region_with_clause(b: divan::Bencher) {
    let d = fabric();
    let mut spec = ViewSpec { selection: RegionSelection::Region(2), ..ViewSpec::for_dataset(d) };
    spec.filter.clauses.push(Clause::parse("level = 2").expect("a clause"));
    b.bench_local(|| prepare_view(d, &spec, &Filter::default()).map(|p| p.link_pass.len()));
}

#[divan::bench(sample_count = 10)]
fn highlight_host(b: divan::Bencher) {
    let d = fabric();
    let mut k = 0;
    b.bench_local(|| {
        k = (k + 37) % 25_000;
        project(d, &Highlight { seeds: [Seed::node(k)].into() }).links.len()
    });
}

//! The traffic matrix's first build folds a region's flows straight into cells, without its pair
//! table: specifications that this gives what folding the full table gives, on the two-rail
//! sample (bytes) and the collector's real profile (bytes and message counts).

use std::collections::HashSet;

use super::*;
use crate::view_model::matrix::{MatrixGrid, build_with};
use crate::view_model::{Dataset, OpenRequest, open};

fn sample(profile: &str, host_map: Option<&str>) -> Dataset {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let request = OpenRequest {
        profile: Some(dir.join(profile)),
        host_map: host_map.map(|m| dir.join(m)),
        ..OpenRequest::of_rails(vec![vec![dir.join("rail0")], vec![dir.join("rail1")]])
    };
    open(&request, &|_| {}).expect("the sample loads")
}

/// The bytes-only sample, and the collector's profile with message counts.
fn samples() -> [(Dataset, &'static [CellValues]); 2] {
    [
        (sample("samplesort.ibprof.gz", None), &[CellValues::Bytes]),
        (
            sample("collector-samplesort-8.ibprof", Some("collector-samplesort-8.hostmap")),
            &[CellValues::Bytes, CellValues::Messages],
        ),
    ]
}

fn fabric(d: &Dataset) -> &FabricData {
    d.fabric.as_ref().expect("a fabric")
}

/// What the matrix folded before: region `key`'s whole pair table, with its message counts.
fn table_fold(fabric: &FabricData, key: RegionKey, options: &MatrixOptions) -> Folded {
    let flows = flows_of(fabric, key).unwrap();
    let mut table = pair_table(&fabric.cluster, flows, options.by);
    if options.values == CellValues::Messages {
        add_region_messages(&mut table, fabric, key, flows);
    }
    fold(&table, options).unwrap()
}

/// Every granularity with each rail alone and the worse of the two.
fn every_choice(values: CellValues) -> impl Iterator<Item = MatrixOptions> {
    let rails = [RailChoice::Worse, RailChoice::Rail(0), RailChoice::Rail(1)];
    [Granularity::Rank, Granularity::Host, Granularity::Leaf]
        .into_iter()
        .flat_map(move |by| rails.map(|rail| MatrixOptions { by, rail, values, ..MatrixOptions::default() }))
}

#[test]
fn a_regions_fold_is_the_fold_of_its_pair_table_at_every_granularity_rail_and_value() {
    for (d, values) in samples() {
        let fabric = fabric(&d);
        for &key in fabric.flows.all().keys() {
            for options in values.iter().flat_map(|&v| every_choice(v)) {
                let built = MatrixCache::default().folded(fabric, key, &options).unwrap();
                assert_eq!(*built, table_fold(fabric, key, &options), "{key:?} {options:?}");
                let direct = fold_flows(&fabric.cluster, flows_of(fabric, key).unwrap(), &options);
                if options.by == Granularity::Rank && options.values == CellValues::Bytes {
                    assert!(direct.is_some(), "rank bytes fold without a table: {key:?} {options:?}");
                }
                if options.values == CellValues::Messages {
                    assert!(direct.is_none(), "message counts are split over the table's rows");
                }
            }
        }
    }
}

#[test]
fn the_folds_hold_cells_of_both_rails_and_of_intra_node_pairs() {
    let d = sample("samplesort.ibprof.gz", None);
    let fabric = fabric(&d);
    let options = MatrixOptions { by: Granularity::Rank, ..MatrixOptions::default() };
    let flows = flows_of(fabric, RegionKey::Total).unwrap();
    let folded = fold_flows(&fabric.cluster, flows, &options).unwrap();
    let classes: HashSet<Option<u32>> = folded.cells.iter().map(|c| c.3).collect();
    assert!(classes.len() >= 2, "{classes:?}");
    let sent: f64 = folded.cells.iter().map(|c| c.2).sum();
    let rails: u64 = flows.flows.iter().flatten().map(|f| f.bytes).sum();
    assert_eq!(sent, (rails + flows.intra_node_bytes) as f64);
}

/// A cache that holds region `keys`' folds of their tables, as the matrix built them before.
fn of_tables(fabric: &FabricData, keys: &[RegionKey], options: &MatrixOptions) -> MatrixCache {
    let mut cache = MatrixCache::default();
    for &key in keys {
        let fold_key = (key, options.by, options.rail, options.values);
        cache.folds.push((fold_key, Arc::new(table_fold(fabric, key, options))));
    }
    cache
}

#[test]
fn a_region_diff_of_folds_of_the_flows_is_the_diff_of_folds_of_the_tables() {
    for (d, values) in samples() {
        let fabric = fabric(&d);
        let keys: Vec<RegionKey> = fabric.flows.all().keys().copied().collect();
        assert!(keys.len() >= 3, "{keys:?}");
        for options in values.iter().flat_map(|&v| every_choice(v)) {
            for (a, b) in [(keys[1], keys[2]), (RegionKey::Total, keys[1])] {
                for side in [5, 512] {
                    let build = |cache: &mut MatrixCache| -> MatrixGrid {
                        build_with(cache, fabric, (a, Some(b)), &options, (side, [None, None])).unwrap()
                    };
                    let grid = build(&mut MatrixCache::default());
                    assert_eq!(grid, build(&mut of_tables(fabric, &[a, b], &options)), "{options:?}");
                    assert!(grid.signed);
                    // (The collector's last regions send as many messages per rail.)
                    if options.values == CellValues::Bytes {
                        assert!(!grid.cells.is_empty(), "{a:?} − {b:?} {options:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_filtered_fold_is_the_fold_of_the_kept_pairs_table() {
    let d = sample("samplesort.ibprof.gz", None);
    let fabric = fabric(&d);
    let flows = flows_of(fabric, RegionKey::Total).unwrap();
    // The pairs of every other source host, on both rails and within hosts.
    let pairs = flows.origins.iter().enumerate().flat_map(|(r, origins)| {
        origins.iter().filter_map(move |o| Some((o.src_host?, o.dst_host?, Some(r as u8))))
    });
    let keep = KeptPairs {
        pairs: pairs.filter(|p| p.0 % 2 == 0).collect(),
        clauses: "every other source host".into(),
    };
    for options in every_choice(CellValues::Bytes) {
        let built =
            MatrixCache::default().folded_kept(fabric, RegionKey::Total, &options, Some(&keep)).unwrap();
        let table = pair_table(&fabric.cluster, &keep.flows(flows), options.by);
        assert_eq!(*built, fold(&table, &options).unwrap(), "{options:?}");
        let sent = |f: &Folded| f.cells.iter().map(|c| c.2).sum::<f64>();
        let all = MatrixCache::default().folded(fabric, RegionKey::Total, &options).unwrap();
        assert!(sent(&built) > 0.0 && sent(&built) < sent(&all), "{options:?}");
    }
}

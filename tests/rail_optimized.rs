//! The rail-optimized sample (`sample-data/railopt`, made with ibsim and OpenSM by
//! `scripts/make-sample-data.sh railopt`): 32 hosts with 8 HCAs each, one plane per HCA index,
//! and its NCCL-style profile. The plane layout, the highlight of a host, and traffic on every
//! plane.

use std::path::PathBuf;

use shoal::layout::crossings::layout_crossings;
use shoal::layout::{FatTreeOptions, HcaPlanes, layout_fat_tree};
use shoal::model::NodeKind;
use shoal::modules::registry::prepare_view;
use shoal::scene::{Emphasis, MarkOf};
use shoal::view_model::highlight::{Highlight, Seed, project};
use shoal::view_model::{Dataset, Filter, ViewSpec};
use shoal::view_model::{JobRequest, OpenRequest, open};

fn sample() -> Dataset {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/railopt");
    let request = OpenRequest {
        profile: Some(dir.join("nccl.ibprof.gz")),
        ..OpenRequest::of_rails(vec![vec![dir.clone()]])
    };
    open(&request, &|_| {}).expect("the sample loads")
}

#[test]
fn the_sample_is_eight_planes_of_32_hosts_with_eight_hcas() {
    let d = sample();
    let f = d.fabric.as_ref().unwrap();
    assert_eq!(f.cluster.hosts.len(), 32);
    assert!(f.cluster.hosts.iter().all(|h| h.on_rail(0).len() == 8));
    let planes = &f.cluster.planes[0].planes;
    let labels: Vec<String> = planes.iter().enumerate().map(|(i, p)| p.label(i)).collect();
    assert_eq!(labels, (0..8).map(|k| format!("mlx5_{k}")).collect::<Vec<_>>());
    assert!(planes.iter().all(|p| p.leaves.len() == 2 && p.cas == 32));
}

#[test]
fn leaves_and_cas_cross_nowhere_and_every_ca_is_placed_once() {
    let d = sample();
    let f = d.fabric.as_ref().unwrap();
    let by_level = layout_crossings(&f.cluster, &f.layout);
    assert_eq!(by_level[0][1], 0, "leaf-to-CA crossings");
    let total: u64 = by_level.iter().flatten().sum();
    let off = FatTreeOptions { hca_planes: HcaPlanes::Off, ..FatTreeOptions::default() };
    let one_dot: u64 =
        layout_crossings(&f.cluster, &layout_fat_tree(&f.cluster, &off)).iter().flatten().sum();
    assert!(total * 8 <= one_dot, "plane layout {total} crossings, one dot per host {one_dot}");
    let fabric = &f.cluster.rails[0];
    let mut xs: Vec<f32> = fabric
        .cas()
        .map(|ca| {
            let p = f.layout.rails[0].positions[ca.index()].expect("placed");
            assert_eq!(p.y, 0.0);
            p.x
        })
        .collect();
    assert_eq!(xs.len(), 256);
    xs.sort_by(f32::total_cmp);
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "no CA placed twice, no two on one spot");
}

#[test]
fn highlighting_a_host_lights_its_eight_cas_together() {
    let d = sample();
    let f = d.fabric.as_ref().unwrap();
    let h = f.cluster.host_index("gpu07").unwrap();
    let spec = ViewSpec::for_dataset(&d);
    let prepared = prepare_view(&d, &spec, &Filter::default()).unwrap();
    let lit = project(&d, &Highlight { seeds: [Seed::node(h)].into() });
    let scene = prepared.scene(&d, &spec, (None, None), &lit, &Default::default(), 1.0);
    let lit_marks: Vec<_> = scene.marks.iter().filter(|m| m.emphasis == Emphasis::Lit).collect();
    let of_host = lit_marks.iter().filter(|m| m.of == MarkOf::Host(h)).count();
    assert_eq!(of_host, 8);
    assert!(lit_marks.iter().all(|m| m.of == MarkOf::Host(h) || matches!(m.of, MarkOf::Switch { .. })));
    assert!(scene.brackets.iter().any(|b| b.text == "gpu07" && b.ticks.len() == 8));
}

#[test]
fn the_profile_loads_every_plane_and_places_every_byte() {
    let d = sample();
    assert!(d.warnings.iter().all(|w| !w.to_string().contains("unplaced")), "{:?}", d.warnings);
    let f = d.fabric.as_ref().unwrap();
    let fabric = &f.cluster.rails[0];
    for region in f.loads.regions.iter().chain([&f.loads.total]) {
        let load = &region.rails[0];
        assert!(load.is_conserved());
        assert_eq!(load.undelivered, 0);
        // Every plane's CAs send: each plane carries the rings (and, in region 2, the all-to-all).
        let mut sent = [0u64; 8];
        for ca in fabric.cas() {
            let edge = fabric.graph.edges(ca).next().map(|e| petgraph::visit::EdgeRef::id(&e)).unwrap();
            let plane = f.cluster.plane_of(0, ca).unwrap();
            let (a, _) = fabric.graph.edge_endpoints(edge).unwrap();
            let side = if a == ca { shoal::model::Side::A } else { shoal::model::Side::B };
            sent[usize::from(plane)] += load.at(shoal::model::LinkEnd { edge, side });
        }
        assert!(sent.iter().all(|&b| b > 0), "{:?}: {sent:?}", region.name);
    }
    // Two of each plane's ring steps join the SUs (gpu16 → gpu17, gpu32 → gpu01): through the spines.
    let rings = &f.loads.regions[0].rails[0];
    let spine_bytes: u64 = fabric
        .graph
        .edge_indices()
        .filter(|&e| {
            let (a, b) = fabric.graph.edge_endpoints(e).unwrap();
            [a, b].iter().all(|&n| fabric.node(n).kind == NodeKind::Switch)
        })
        .map(|e| rings.at(shoal::model::LinkEnd { edge: e, side: shoal::model::Side::A }))
        .sum();
    assert!(spine_bytes > 0, "rings between SUs cross the spines");
}

/// The sample with the synthetic AR configuration of `scripts/make-far.py` beside its dumps.
fn sample_with_ar() -> Dataset {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("sample-data/railopt");
    let request = OpenRequest {
        profile: Some(dir.join("nccl.ibprof.gz")),
        ..OpenRequest::of_rails(vec![vec![
            dir.clone(),
            root.join("tests/fixtures/ar/railopt/ibdiagnet2.far"),
        ]])
    };
    open(&request, &|_| {}).expect("the sample loads with its AR tables")
}

#[test]
fn with_ar_tables_both_traces_are_kept_and_the_spread_evens_out_each_leafs_uplinks() {
    let plain = sample();
    assert!(plain.fabric.as_ref().unwrap().ar_loads.is_none(), "no AR information: nothing changes");
    let d = sample_with_ar();
    assert!(d.warnings.iter().all(|w| !w.to_string().contains("far")), "{:?}", d.warnings);
    let f = d.fabric.as_ref().unwrap();
    let ar = f.ar_loads.as_ref().expect("AR loads computed beside the static ones");
    let fabric = &f.cluster.rails[0];
    let leaf = fabric.switches().find(|&s| fabric.node(s).description.contains("leaf-su00-p3")).unwrap();
    let uplinks = |load: &shoal::routing::RailLoad| -> Vec<u64> {
        (17..=32)
            .filter_map(|p| fabric.out_through(leaf, shoal::model::PortNum(p)))
            .map(|(end, _, _)| load.at(end))
            .collect()
    };
    // Region 1, the rings: one ring step per plane leaves SU 0 (gpu16 → gpu17). Statically it
    // takes one uplink; spread, all sixteen.
    let (stat, spread) = (uplinks(&f.loads.regions[0].rails[0]), uplinks(&ar.regions[0].rails[0]));
    assert_eq!(spread.len(), 16);
    assert_eq!(stat.iter().sum::<u64>(), spread.iter().sum::<u64>(), "the same bytes leave the leaf");
    let range = |v: &[u64]| v.iter().max().unwrap() - v.iter().min().unwrap();
    assert!(range(&spread) <= 16, "AR spreads evenly: {spread:?}");
    assert_eq!(stat.iter().filter(|&&b| b > 0).count(), 1, "static {stat:?}");
    for region in ar.regions.iter().chain([&ar.total]) {
        assert!(region.rails[0].is_conserved() && region.rails[0].undelivered == 0);
    }
    let traffic = d.run.tables().iter().find(|t| t.name == "traffic").unwrap();
    assert!(traffic.column("bytes_ar").is_some() && traffic.column("ar_minus_static").is_some());
}

/// Jobs on a fabric with AR tables: each job's rows and job `all`'s carry `bytes_ar`, and job
/// `all`'s AR bytes are the sum of the jobs' (here one job: the same bytes).
#[test]
fn with_jobs_and_ar_tables_each_job_and_all_have_ar_bytes() {
    use shoal::model::Column;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("sample-data/railopt");
    let request = OpenRequest {
        jobs: vec![JobRequest::from_profile(&dir.join("nccl.ibprof.gz"))],
        ..OpenRequest::of_rails(vec![vec![
            dir.clone(),
            root.join("tests/fixtures/ar/railopt/ibdiagnet2.far"),
        ]])
    };
    let d = open(&request, &|_| {}).expect("the sample loads as a job with its AR tables");
    assert!(d.fabric.as_ref().unwrap().ar_loads.is_some(), "job all's AR loads");
    let traffic = d.run.tables().iter().find(|t| t.name == "traffic").unwrap();
    let (Some(Column::Text(job)), Some(Column::Int(region)), Some(Column::Float(ar))) =
        (traffic.column("job"), traffic.column("region"), traffic.column("bytes_ar"))
    else {
        panic!("traffic has job, region and bytes_ar columns");
    };
    let sum = |name: &str| -> f64 {
        (0..job.len()).filter(|&i| job.get(i) == Some(name) && region[i] == -1).map(|i| ar[i]).sum()
    };
    assert!(sum("nccl") > 0.0);
    assert_eq!(sum("nccl"), sum("all"));
}

/// Rank-level (`peer`) traffic on the 8-HCA hosts: gpu01's local rank i sends to gpu02's local
/// rank i, so each pair uses HCA mlx5_i at both ends and stays in plane i (one leaf, no spine).
#[test]
fn local_rank_i_sends_from_and_to_the_hosts_ith_hca_and_stays_in_its_plane() {
    use shoal::model::{PeerBytes, RankSection};
    use shoal::routing::{FlowBuilder, HostMap, RailPolicy, RankTraffic, trace};
    let d = sample();
    let f = d.fabric.as_ref().unwrap();
    let fabric = &f.cluster.rails[0];
    // Ranks 0..8 on gpu01, 8..16 on gpu02, listed out of order: the local rank is by number.
    let sections: Vec<RankSection> = (0..16u32)
        .rev()
        .map(|rank| RankSection {
            rank,
            host: if rank < 8 { "gpu01" } else { "gpu02" }.into(),
            ..Default::default()
        })
        .collect();
    let peers: Vec<[PeerBytes; 1]> = sections
        .iter()
        .map(|s| {
            [PeerBytes {
                peer: (s.rank + 8) % 16,
                sent: if s.rank < 8 { 1000 + u64::from(s.rank) } else { 0 },
                recv: 0,
            }]
        })
        .collect();
    let ranks: Vec<RankTraffic> = sections
        .iter()
        .zip(&peers)
        .map(|(section, p)| RankTraffic { section, peers: p, lids: &[] })
        .collect();
    let map = HostMap::default();
    let set = FlowBuilder::new(&f.cluster, RailPolicy::Split, &map).flows(&ranks);
    assert_eq!(set.flows[0].len(), 8);
    for flow in &set.flows[0] {
        let adapter = |lid| fabric.node(fabric.owner_of_lid(lid).unwrap().node).description.clone();
        let i = flow.bytes - 1000;
        assert_eq!(adapter(flow.src), format!("gpu01 mlx5_{i}"));
        assert_eq!(adapter(flow.dst), format!("gpu02 mlx5_{i}"));
        let path = trace(fabric, flow.src, flow.dst);
        assert!(path.delivered());
        assert_eq!(path.link_ends.len(), 2, "CA → leaf of plane {i} → CA: no spine");
    }
}

/// The window's "pairs crossing this end" under the AR switch: the pairs whose spread touches a
/// leaf uplink, each with its share, add up to the end's AR-modelled load (and not its static one).
#[test]
fn under_ar_the_pairs_crossing_an_uplink_add_up_to_its_modelled_load() {
    use shoal::model::LinkEnd;
    use shoal::routing::{RegionKey, RoutingModel};
    use shoal::view_model::crossing::crossings_by;
    let d = sample_with_ar();
    let f = d.fabric.as_ref().unwrap();
    let ar = &f.ar_loads.as_ref().expect("AR loads").total.rails[0];
    let fabric = &f.cluster.rails[0];
    let uplink = |i: usize| {
        fabric.link_end_nodes(LinkEnd::from_index(i)).is_some_and(|((a, _), (b, _))| {
            fabric.node(a).description.contains("leaf") && fabric.node(b).description.contains("spine")
        })
    };
    let (index, bytes) =
        ar.bytes.nonzero().filter(|&(i, _)| uplink(i)).max_by_key(|&(_, b)| b).expect("an uplink");
    let end = LinkEnd::from_index(index);
    let flows = [&*f.flows.all()[&RegionKey::Total]];
    let rows = crossings_by(&f.cluster, &flows, (0, end), usize::MAX, RoutingModel::AdaptiveModelled);
    assert_eq!(rows.iter().map(|r| r.bytes).sum::<u64>(), bytes);
    let static_rows = crossings_by(&f.cluster, &flows, (0, end), usize::MAX, RoutingModel::Static);
    assert_eq!(static_rows.iter().map(|r| r.bytes).sum::<u64>(), f.loads.total.rails[0].at(end));
    assert_ne!(rows, static_rows);
}

/// The request's routing mode decides what a new view colours by: the AR spread where the dumps
/// hold adaptive-routing tables; without them, the static trace and a warning that says why.
#[test]
fn a_request_for_ar_opens_views_on_the_ar_spread_and_warns_where_there_are_no_tables() {
    use shoal::view_model::RoutingMode;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("sample-data/railopt");
    let with_tables = OpenRequest {
        profile: Some(dir.join("nccl.ibprof.gz")),
        routing: RoutingMode::Ar,
        ..OpenRequest::of_rails(vec![vec![
            dir.clone(),
            root.join("tests/fixtures/ar/railopt/ibdiagnet2.far"),
        ]])
    };
    let d = open(&with_tables, &|_| {}).expect("the sample opens with its AR tables");
    assert_eq!(d.routing, RoutingMode::Ar);
    assert_eq!(ViewSpec::for_dataset(&d).link_attribute.as_deref(), Some("bytes_ar"));

    let without = OpenRequest { rails: OpenRequest::of_rails(vec![vec![dir.clone()]]).rails, ..with_tables };
    let d = open(&without, &|_| {}).expect("the sample opens without AR tables");
    assert_eq!(d.routing, RoutingMode::Static);
    assert_eq!(ViewSpec::for_dataset(&d).link_attribute, ViewSpec::default().link_attribute);
    assert!(
        d.warnings
            .iter()
            .any(|w| w.file == "--routing ar" && w.message.contains("no adaptive-routing tables")),
        "{:?}",
        d.warnings
    );
}

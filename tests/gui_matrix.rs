//! The traffic-matrix view in the window (issue 23), driven headless with egui_kittest (wgpu on
//! lavapipe; `WGPU_BACKEND=vulkan`), on the bundled two-rail sample beside its fat tree: a click
//! on a cell highlights its pairs' routes, a double click drills into an aggregated cell, and a
//! highlighted host outlines the cells of the pairs whose routes cross its link ends.
#![cfg(feature = "gui")]

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use egui_kittest::Harness;

use shoal::gui::ShoalApp;
use shoal::modules::matrix::MatrixState;
use shoal::routing::RegionKey;
use shoal::routing::pair_table::{Granularity, pair_table};
use shoal::scene::Emphasis;
use shoal::view_model::highlight::{Highlight, Seed, search};
use shoal::view_model::matrix::{MatrixGrid, MatrixOptions};
use shoal::view_model::view::ModuleSpec;
use shoal::view_model::{Dataset, OpenRequest, open};

fn sample() -> Dataset {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let request = OpenRequest {
        profile: Some(dir.join("samplesort.ibprof.gz")),
        ..OpenRequest::of_rails(vec![vec![dir.join("rail0")], vec![dir.join("rail1")]])
    };
    open(&request, &|_| {}).expect("the sample loads")
}

/// The sample's fat tree with a host-by-host matrix beside it, in one link group.
fn app() -> Harness<'static, ShoalApp> {
    let dataset = sample();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 800.0))
        // Frames a 60th of a second apart, as a screen draws them: two clicks a frame apart
        // are a double click (the default quarter second is close to egui's limit).
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |_| ShoalApp::with_dataset(dataset));
    h.run();
    let options = MatrixOptions { by: Granularity::Host, ..MatrixOptions::default() };
    h.state_mut().ws.add_view(ModuleSpec::with("matrix", &options));
    h.run();
    h.run();
    h
}

fn matrix<'h>(h: &'h Harness<'static, ShoalApp>) -> &'h MatrixState {
    h.state().ws.views[1].class_state::<MatrixState>().expect("view 2 is a matrix")
}

fn grid<'h>(h: &'h Harness<'static, ShoalApp>) -> &'h MatrixGrid {
    matrix(h).grid.as_ref().expect("the matrix was built")
}

/// The centre of cell (row, col) on screen.
fn cell_centre(h: &Harness<'static, ShoalApp>, row: u32, col: u32) -> egui::Pos2 {
    let map = matrix(h).map.expect("the matrix was painted");
    let w = map.width() / grid(h).side() as f32;
    map.min + egui::vec2((col as f32 + 0.5) * w, (row as f32 + 0.5) * w)
}

fn click(h: &mut Harness<'static, ShoalApp>, pos: egui::Pos2, times: usize) {
    h.hover_at(pos);
    h.run();
    for _ in 0..times {
        for pressed in [true, false] {
            let button = egui::PointerButton::Primary;
            h.event(egui::Event::PointerButton { pos, button, pressed, modifiers: egui::Modifiers::NONE });
        }
        // One frame per click, well within egui's double-click time.
        h.step();
    }
    h.run();
    h.run();
}

/// The cluster hosts in a bin of the grid's order.
fn hosts_in(grid: &MatrixGrid, bin: u32) -> Vec<usize> {
    let (a, b) = grid.bin_range(bin as usize);
    let start = grid.options.focus.map_or(0, |f| f.0);
    grid.entities[a - start..b - start].iter().map(|e| e.1 as usize).collect()
}

#[test]
fn a_click_on_a_cell_highlights_the_routes_of_its_host_pairs_in_the_fat_tree() {
    let mut h = app();
    let g = grid(&h).clone();
    assert!(g.per_bin >= 1 && !g.cells.is_empty());
    let cell = g.cells.iter().find(|c| c.row != c.col).expect("an off-diagonal cell");
    let pos = cell_centre(&h, cell.row, cell.col);
    click(&mut h, pos, 1);
    let mut expected = BTreeSet::new();
    for src in hosts_in(&g, cell.row) {
        for dst in hosts_in(&g, cell.col) {
            if src != dst {
                expected.insert(Seed::Route { src: src as i64, dst: dst as i64 });
            }
        }
    }
    let ws = &h.state().ws;
    let group = ws.group(ws.views[1].group).unwrap();
    assert_eq!(group.highlight.seeds, expected, "the cell's host pairs, each a route");
    let tree = ws.views[0].network().unwrap().scene.as_ref().unwrap();
    let lit = tree.halves.iter().filter(|x| x.emphasis == Emphasis::Lit).count();
    assert!(lit >= 4, "the routes light link ends in the fat tree ({lit})");
}

#[test]
fn a_double_click_on_an_aggregated_cell_shows_its_hosts_one_per_row() {
    let mut h = app();
    let g = grid(&h).clone();
    assert!(g.per_bin > 1, "224 hosts in half a 1400-point window share bins ({} per bin)", g.per_bin);
    let cell = g.cells[g.cells.len() / 2];
    let pos = cell_centre(&h, cell.row, cell.col);
    click(&mut h, pos, 2);
    let (r, c) = (g.bin_range(cell.row as usize), g.bin_range(cell.col as usize));
    let options: MatrixOptions = h.state().ws.views[1].spec.module.params().expect("still a matrix");
    assert_eq!(options.focus, Some((r.0.min(c.0), r.1.max(c.1))), "focused on the two bins' hosts");
    let zoomed = grid(&h);
    assert_eq!(zoomed.per_bin, 1, "the focus fits one host per row");
    assert_eq!(zoomed.side(), r.1.max(c.1) - r.0.min(c.0));
}

#[test]
fn a_highlighted_host_outlines_the_cells_of_the_pairs_it_sent_to_or_received_from() {
    let mut h = app();
    let dataset = h.state().ws.dataset.clone().unwrap();
    let fabric = dataset.fabric.as_ref().unwrap();
    let host = fabric.cluster.hosts.iter().position(|x| x.name == "n0005").expect("n0005") as u32;
    let seeds = search(&dataset, "n0005");
    assert_eq!(seeds.len(), 1, "{seeds:?}");
    let group = h.state().ws.views[0].group;
    h.state_mut().ws.group_mut(group).unwrap().highlight = Highlight { seeds: seeds.into_iter().collect() };
    h.run();
    h.run();
    let g = grid(&h).clone();
    let bin_of = |host: u32| g.entities.iter().position(|e| e.1 == host).map(|p| (p / g.per_bin) as u32);
    let table = pair_table(&fabric.cluster, &fabric.flows.all()[&RegionKey::Total], Granularity::Host);
    let expected: HashSet<(u32, u32)> = table
        .rows
        .iter()
        .filter(|r| r.rail.is_some() && r.bytes > 0 && (r.src == host || r.dst == host))
        .filter_map(|r| bin_of(r.src).zip(bin_of(r.dst)))
        .collect();
    let outlined: HashSet<(u32, u32)> = matrix(&h).lit.iter().copied().collect();
    assert!(expected.len() > 100, "n0005 talks to most hosts ({})", expected.len());
    assert_eq!(outlined, expected, "exactly the cells of n0005's pairs over the fabric");
}

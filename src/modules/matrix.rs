//! The traffic-matrix class (issue 23): one region's (or a diff's) entity × entity matrix, hue
//! the hop class on the real tables, intensity the value over the maximum
//! ([`crate::scene::matrix_draw`]). Linked both ways: a click on a cell highlights its pairs'
//! routes in the group's fabric views, and link ends lit there outline the cells of the pairs
//! that cross them. A double click on an aggregated cell drills down into its entities.

use std::collections::HashSet;

use egui::{ComboBox, Sense, Ui};

use crate::routing::pair_table::Granularity;
use crate::routing::{RegionKey, pairs_through};
use crate::scene::draw::DrawList;
use crate::scene::matrix_draw::{map_side, picture, rail_name};
use crate::view_model::dataset::{Dataset, FabricData};
use crate::view_model::filter::Filter;
use crate::view_model::highlight::{Lit, Seed};
use crate::view_model::matrix::{
    CellValues, MatrixGrid, MatrixOptions, MatrixOrder, MatrixShow, RailChoice, build_with,
    cells_of_host_pairs, entity_host,
};
use crate::view_model::matrix_filter::kept_pairs;
use crate::view_model::matrix_fold::MatrixCache;
use crate::view_model::values::RegionSelection;
use crate::view_model::view::{ModuleSpec, ViewSpec};

use super::class::{Drawing, Eye, PrepareContext, ViewClass, ViewContext, if_available};
use super::command::Command;
use super::paint;

/// Bins per side when the view has not been drawn yet (`render` sizes it from its canvas).
const DEFAULT_SIDE: usize = 512;
/// Lit link ends looked up for their pairs, at most (a rank's highlight can light hundreds).
const LIT_ENDS: usize = 64;
/// Routes a click highlights, at most (an aggregated cell holds many pairs).
const CLICK_ROUTES: usize = 64;

/// The traffic-matrix class (stateless).
pub struct MatrixClass;

/// What a matrix view keeps: the grid and what it was built from, and where it was drawn.
#[derive(Default)]
pub struct MatrixState {
    pub grid: Option<MatrixGrid>,
    built: Option<(u64, MatrixOptions, RegionSelection, usize, Filter)>,
    pub size: [f32; 2],
    /// Where the map was painted in the window, for clicks.
    pub map: Option<egui::Rect>,
    /// The cells outlined last frame: those whose pairs cross a lit link end.
    pub lit: Vec<(u32, u32)>,
    /// Pair tables and folds of the data set of generation `cache_generation`, reused while
    /// only the order, focus, colours or size change.
    cache: MatrixCache,
    cache_generation: u64,
}

/// The region (and the diff's side B) a selection shows; windows are not matrices yet.
fn keys(selection: RegionSelection) -> Result<(RegionKey, Option<RegionKey>), String> {
    match selection {
        RegionSelection::Total => Ok((RegionKey::Total, None)),
        RegionSelection::Region(n) => Ok((RegionKey::Region(n), None)),
        RegionSelection::Diff(a, b) => Ok((a, Some(b))),
        _ => Err("the traffic matrix shows one region, the whole run or a diff of two regions".into()),
    }
}

/// Bins per side for a canvas: two points a cell of the map [`map_side`] lays out, since the
/// window's painter feathers thinner rectangles into gaps.
fn side_for(size: [f32; 2], spec: &ViewSpec) -> usize {
    let signed = matches!(spec.selection, RegionSelection::Diff(..));
    let (side, _) = map_side(size[0], size[1], signed);
    if side < 8.0 { DEFAULT_SIDE } else { (side / 2.0) as usize }
}

impl MatrixState {
    /// Builds the grid unless it was built from the same data, options, selection and size.
    pub fn build(
        &mut self,
        d: &Dataset,
        generation: u64,
        spec: &ViewSpec,
        side: usize,
    ) -> Result<(), String> {
        if !spec.module.is("matrix") {
            return Err("not a matrix view".into());
        }
        let options: MatrixOptions = spec.module.params()?;
        let options = &options;
        let wanted = (generation, options.clone(), spec.selection, side, spec.filter.clone());
        if self.built.as_ref() == Some(&wanted) && self.grid.is_some() {
            return Ok(());
        }
        let fabric = d.fabric.as_ref().ok_or("the traffic matrix needs fabric dumps and a profile")?;
        let (key, minus) = keys(spec.selection)?;
        // The filter's clauses on pairs keep their pairs' cells only (each side's own rows).
        let keep_a = kept_pairs(&d.run, &spec.filter, key)?;
        let keep_b = match minus {
            Some(b) => kept_pairs(&d.run, &spec.filter, b)?,
            None => None,
        };
        if self.cache_generation != generation {
            self.cache = MatrixCache::default();
            self.cache_generation = generation;
        }
        let keep = [keep_a.as_ref(), keep_b.as_ref()];
        self.grid = Some(build_with(&mut self.cache, fabric, (key, minus), options, (side, keep))?);
        self.built = Some(wanted);
        Ok(())
    }
}

/// The matrix a spec describes drawn on a canvas of `size` points, with nothing lit: what
/// `render --module matrix` and `render --session` write, sized as the window sizes it.
pub fn export_list(d: &Dataset, spec: &ViewSpec, size: [f32; 2]) -> Result<(MatrixGrid, DrawList), String> {
    let mut state = MatrixState::default();
    state.build(d, 0, spec, side_for(size, spec))?;
    let grid = state.grid.ok_or("no matrix")?;
    let list = picture(&grid, spec, Vec::new()).draw_list(size[0], size[1]);
    Ok((grid, list))
}

impl ViewClass for MatrixClass {
    type State = MatrixState;

    fn id(&self) -> &'static str {
        "matrix"
    }

    fn display_name(&self) -> &'static str {
        "traffic matrix"
    }

    fn new_state(&self) -> MatrixState {
        MatrixState::default()
    }

    fn unavailable(&self, d: &Dataset, _: &ModuleSpec) -> Option<&'static str> {
        d.fabric
            .as_ref()
            .is_none_or(|f| f.flows.is_empty())
            .then_some("the traffic matrix needs fabric dumps and a profile")
    }

    fn check_params(&self, module: &ModuleSpec) -> Result<(), String> {
        module.params::<MatrixOptions>().map(|_| ())
    }

    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        if_available(self, ModuleSpec::with("matrix", &MatrixOptions::default()), d)
    }

    fn is_network(&self) -> bool {
        false
    }

    fn options_ui(&self, ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
        let Ok(mut options) = spec.module.params::<MatrixOptions>() else { return };
        options_row(ui, &mut options, d);
        if spec.module.params::<MatrixOptions>().as_ref() != Ok(&options) {
            spec.module = ModuleSpec::with("matrix", &options);
        }
    }

    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut MatrixState) -> Result<(), String> {
        let side = side_for(state.size, ctx.spec);
        state.build(ctx.dataset, ctx.generation, ctx.spec, side)
    }

    fn last_size(&self, state: &MatrixState) -> Option<[f32; 2]> {
        Some(state.size)
    }

    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut MatrixState,
        _eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String> {
        state.build(ctx.dataset, ctx.generation, ctx.spec, side_for(size, ctx.spec))?;
        let (Some(grid), Some(fabric)) = (state.grid.as_ref(), ctx.dataset.fabric.as_ref()) else {
            return Err("no matrix".into());
        };
        let lit = lit_cells(fabric, grid, ctx.lit, ctx.spec.selection);
        let picture = picture(grid, ctx.spec, lit.clone());
        let list = picture.draw_list(size[0], size[1]);
        state.lit = lit;
        Ok(Drawing { list, scene: None })
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut MatrixState,
        _eye: &mut Eye,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, Sense::click());
        state.size = [rect.width(), rect.height()];
        let drawing = match self.draw_list(ctx, state, &Eye::default(), state.size) {
            Ok(drawing) => drawing,
            Err(why) => {
                ui.label(why);
                return;
            }
        };
        let map = paint::rect_of(drawing.list.plot, rect.min);
        paint::paint(&ui.painter_at(rect), &drawing.list, rect.min);
        state.map = Some(map);
        let (Some(grid), Some(fabric)) = (state.grid.as_ref(), ctx.dataset.fabric.as_ref()) else { return };
        let Some(pos) = response.interact_pointer_pos().or(response.hover_pos()).filter(|p| map.contains(*p))
        else {
            return;
        };
        let n = grid.side() as f32;
        let cell = |v: f32, from: f32, len: f32| {
            (((v - from) / len * n) as usize).min(grid.side().saturating_sub(1))
        };
        let (row, col) = (cell(pos.y, map.min.y, map.height()), cell(pos.x, map.min.x, map.width()));
        if grid.options.show == MatrixShow::Bars {
            bars_pointer(ctx, (grid, fabric), row, &response, commands);
            return;
        }
        if response.double_clicked() && grid.per_bin > 1 {
            commands.push(drill_down(ctx, grid, row, col));
        } else if response.clicked() {
            let seeds = cell_routes(fabric, grid, row, col);
            commands.push(Command::Highlight { group: ctx.group.id, seeds, add: false });
        }
        let value = grid.cells.iter().find(|c| (c.row as usize, c.col as usize) == (row, col));
        let text = match value {
            Some(c) => format!(
                "{} -> {}\n{:.0}, {} switches",
                grid.labels[row],
                grid.labels[col],
                c.value,
                c.hops.map_or("undelivered".into(), |h| h.to_string())
            ),
            None => format!("{} -> {}\nnothing", grid.labels[row], grid.labels[col]),
        };
        response.on_hover_text(text);
    }
}

/// The cells whose pairs cross a lit link end (at most [`LIT_ENDS`] ends looked up).
fn lit_cells(
    fabric: &FabricData,
    grid: &MatrixGrid,
    lit: &Lit,
    selection: RegionSelection,
) -> Vec<(u32, u32)> {
    if lit.none {
        return Vec::new();
    }
    let ends: Vec<(usize, crate::model::LinkEnd)> = lit
        .links
        .iter()
        .enumerate()
        .filter(|(_, on)| **on)
        .filter_map(|(p, _)| fabric.index.link(p))
        .take(LIT_ENDS)
        .collect();
    let Ok((key, _)) = keys(selection) else { return Vec::new() };
    let Some(flows) = fabric.flows.all().get(&key) else { return Vec::new() };
    let pairs: HashSet<(usize, usize)> = pairs_through(&fabric.cluster, flows, &ends, usize::MAX)
        .into_values()
        .flatten()
        .filter_map(|(s, d, _)| s.zip(d))
        .collect();
    let mut cells: Vec<(u32, u32)> = cells_of_host_pairs(fabric, grid, &pairs).into_iter().collect();
    cells.sort_unstable();
    cells
}

/// The routes of a cell's host pairs (leaves: the two switches themselves).
fn cell_routes(fabric: &FabricData, grid: &MatrixGrid, row: usize, col: usize) -> Vec<Seed> {
    let in_bin = |bin: usize| grid.entities.iter().skip(bin * grid.per_bin).take(grid.per_bin).copied();
    let by = grid.options.by;
    if by == Granularity::Leaf {
        let node = |e: (u8, u32)| {
            fabric
                .index
                .node_position(usize::from(e.0), petgraph::graph::NodeIndex::new(e.1 as usize))
                .map(Seed::node)
        };
        return in_bin(row).chain(in_bin(col)).filter_map(node).take(CLICK_ROUTES).collect();
    }
    let mut seeds = Vec::new();
    for src in in_bin(row).filter_map(|e| entity_host(fabric, by, e)) {
        for dst in in_bin(col).filter_map(|e| entity_host(fabric, by, e)) {
            if src != dst && seeds.len() < CLICK_ROUTES {
                seeds.push(Seed::Route { src: src as i64, dst: dst as i64 });
            }
        }
    }
    seeds.sort_by_key(|s| format!("{s:?}"));
    seeds.dedup();
    seeds
}

/// A row of the hop-class bars under the pointer: a click highlights its senders (hosts; leaf
/// switches by leaf), a double click drills into its bin, the hover names its split.
fn bars_pointer(
    ctx: &ViewContext<'_>,
    (grid, fabric): (&MatrixGrid, &FabricData),
    row: usize,
    response: &egui::Response,
    commands: &mut Vec<Command>,
) {
    if response.double_clicked() && grid.per_bin > 1 {
        commands.push(drill_down(ctx, grid, row, row));
    } else if response.clicked() {
        let seeds = match grid.options.by {
            Granularity::Leaf => cell_routes(fabric, grid, row, row),
            by => {
                let bin = grid.entities.iter().skip(row * grid.per_bin).take(grid.per_bin);
                let mut hosts: Vec<usize> = bin.filter_map(|e| entity_host(fabric, by, *e)).collect();
                hosts.sort_unstable();
                hosts.dedup();
                hosts.into_iter().map(Seed::node).collect()
            }
        };
        commands.push(Command::Highlight { group: ctx.group.id, seeds, add: false });
    }
    let split: Vec<String> = grid
        .bars
        .get(row)
        .into_iter()
        .flatten()
        .map(|(hops, value)| {
            let class = hops.map_or("undelivered".into(), |h| format!("{h} switches"));
            format!("{class}: {value:.0}")
        })
        .collect();
    response.clone().on_hover_text(format!("{}\n{}", grid.labels[row], split.join("\n")));
}

/// The view focused on the entities of a cell's row and column bins.
fn drill_down(ctx: &ViewContext<'_>, grid: &MatrixGrid, row: usize, col: usize) -> Command {
    let (r, c) = (grid.bin_range(row), grid.bin_range(col));
    let mut options = grid.options.clone();
    options.focus = Some((r.0.min(c.0), r.1.max(c.1)));
    let spec = ViewSpec { module: ModuleSpec::with("matrix", &options), ..ctx.spec.clone() };
    Command::SetSpec { view: ctx.view, spec: Box::new(spec) }
}

/// The matrix's own options: granularity, rail, cells or bars, values, order, zoom.
fn options_row(ui: &mut Ui, o: &mut MatrixOptions, d: &Dataset) {
    let rails = d.fabric.as_ref().map_or(1, |f| f.cluster.rails.len());
    ui.horizontal(|ui| {
        ui.label("by");
        for by in [Granularity::Rank, Granularity::Host, Granularity::Leaf] {
            if ui.selectable_value(&mut o.by, by, by.name()).changed() {
                o.focus = None;
            }
        }
        ComboBox::from_label("rail").selected_text(rail_name(o.rail)).show_ui(ui, |ui| {
            ui.selectable_value(&mut o.rail, RailChoice::Worse, rail_name(RailChoice::Worse));
            for r in 0..rails.min(usize::from(u8::MAX)) as u8 {
                ui.selectable_value(&mut o.rail, RailChoice::Rail(r), rail_name(RailChoice::Rail(r)));
            }
        });
        ui.selectable_value(&mut o.show, MatrixShow::Cells, "cells");
        ui.selectable_value(&mut o.show, MatrixShow::Bars, "hop bars");
        ui.selectable_value(&mut o.values, CellValues::Bytes, "bytes");
        ui.selectable_value(&mut o.values, CellValues::Messages, "messages");
        ui.selectable_value(&mut o.order, MatrixOrder::Id, "by id");
        ui.selectable_value(&mut o.order, MatrixOrder::Layout, "layout order");
        ui.selectable_value(&mut o.order, MatrixOrder::Clustered, "clustered");
        if o.focus.is_some() && ui.button("whole matrix").clicked() {
            o.focus = None;
        }
    });
}

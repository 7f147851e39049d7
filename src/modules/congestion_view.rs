//! The congestion-regions class (issue 22, item 6): the Congestion tab's time-first drawing as a
//! view, drawn as `shoal render --module congestion` draws it ([`RegionsPicture`]), so File →
//! Export writes it too. Regions are found at the default stall threshold (10 %, the seed's
//! "hurts"). A click on a region lights its link ends in every view of the group and moves the
//! group's time cursor to its interval ([`super::congestion::region_picked`]).

use egui::{Sense, Ui};

use crate::model::thresholds::DEFAULT_REGION_STALL;
use crate::scene::congestion_draw::RegionsPicture;
use crate::view_model::congestion::{Evolution, fabric_regions};
use crate::view_model::dataset::Dataset;
use crate::view_model::view::{ModuleSpec, has_counter_interval};

use super::class::{Drawing, Eye, PrepareContext, ViewClass, ViewContext, if_available};
use super::command::Command;
use super::congestion::region_picked;
use super::paint;

/// The congestion-regions class (stateless).
pub struct CongestionClass;

/// What a congestion view keeps: the regions and the data generation they were found for, the
/// region last clicked, and the canvas's last size.
#[derive(Default)]
pub struct RegionsState {
    built_for: Option<u64>,
    pub evolution: Evolution,
    pub picked: Option<u32>,
    pub size: [f32; 2],
    /// Where the canvas was last drawn, in screen points (tests aim clicks with it).
    pub canvas: Option<egui::Rect>,
}

impl RegionsState {
    fn build(&mut self, dataset: &Dataset, generation: u64) -> Result<(), String> {
        if self.built_for == Some(generation) {
            return Ok(());
        }
        let why = CongestionClass.unavailable(dataset, &ModuleSpec::of("congestion"));
        let fabric = dataset.fabric.as_ref().ok_or(why.unwrap_or("no fabric"))?;
        let observed = fabric.observed.as_ref().ok_or(why.unwrap_or("no port counters"))?;
        self.evolution = fabric_regions(&fabric.cluster, observed, DEFAULT_REGION_STALL as f32)
            .ok_or("the counters span no interval with times: no stall %")?;
        self.built_for = Some(generation);
        Ok(())
    }
}

impl ViewClass for CongestionClass {
    type State = RegionsState;

    fn id(&self) -> &'static str {
        "congestion"
    }

    fn display_name(&self) -> &'static str {
        "congestion regions"
    }

    fn unavailable(&self, d: &Dataset, _: &ModuleSpec) -> Option<&'static str> {
        (!has_counter_interval(d)).then_some(
            "congestion regions need port counters over an interval with times: two or more --counters snapshots",
        )
    }

    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        if_available(self, ModuleSpec::of("congestion"), d)
    }

    fn new_state(&self) -> RegionsState {
        RegionsState::default()
    }

    fn is_network(&self) -> bool {
        false
    }

    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut RegionsState) -> Result<(), String> {
        state.build(ctx.dataset, ctx.generation)
    }

    fn last_size(&self, state: &RegionsState) -> Option<[f32; 2]> {
        Some(state.size)
    }

    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut RegionsState,
        _eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String> {
        state.build(ctx.dataset, ctx.generation)?;
        let picture = RegionsPicture {
            evolution: &state.evolution,
            picked: state.picked,
            cursor: ctx.group.time_cursor,
        };
        Ok(Drawing { list: picture.draw_list(size[0], size[1]), scene: None })
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut RegionsState,
        _eye: &mut Eye,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        if let Err(why) = state.build(ctx.dataset, ctx.generation) {
            ui.label(why);
            return;
        }
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, Sense::click());
        state.size = [rect.width(), rect.height()];
        state.canvas = Some(rect);
        let size = state.size;
        let Ok(drawing) = self.draw_list(ctx, state, &Eye::default(), size) else { return };
        paint::paint(&ui.painter_at(rect), &drawing.list, rect.min);
        let Some(p) = response.interact_pointer_pos().filter(|_| response.clicked()) else { return };
        let picture = RegionsPicture {
            evolution: &state.evolution,
            picked: state.picked,
            cursor: ctx.group.time_cursor,
        };
        let at = [p.x - rect.min.x, p.y - rect.min.y];
        if let Some(number) = picture.region_at(rect.width(), rect.height(), at) {
            state.picked = Some(number);
            commands.extend(region_picked(&state.evolution, number, ctx.view, ctx.group.id));
        }
    }
}

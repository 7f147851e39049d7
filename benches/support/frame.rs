//! One egui frame of one view, as the app runs it (plus tessellation), for the frame benches of
//! every class: the class is the registry's for the spec, the context is made of references.

use egui::{CentralPanel, Pos2, RawInput, Rect, vec2};
use shoal::model::Domain;
use shoal::modules::class::ClassState;
use shoal::modules::link_group::LinkGroup;
use shoal::modules::{Eye, NetworkState, ViewContext, ViewId, class_of, gpu_links};
use shoal::view_model::highlight::{Lit, Seed, project};
use shoal::view_model::{Dataset, Highlight, ViewSpec};

pub struct Frame {
    ctx: egui::Context,
    state: ClassState,
    pub eye: Eye,
    group: LinkGroup,
    lit: Lit,
    spec: ViewSpec,
    tick: u64,
}

impl Frame {
    /// `gpu`: links go through the paint callback above the threshold (assumed available, no
    /// device here); otherwise every half goes through the egui painter.
    pub fn new(spec: ViewSpec, gpu: bool) -> Frame {
        // The window's process keeps freed frame memory (gui::run does this first).
        shoal::gui::allocator::keep_freed_memory();
        let ctx = egui::Context::default();
        // As the window sets it up (`ShoalApp::new`).
        shoal::modules::paint::tune_tessellation(&ctx);
        gpu_links::assume_available(&ctx);
        let mut network = NetworkState::default();
        network.gpu_threshold = (!gpu).then_some(usize::MAX);
        let state: ClassState = Box::new(network);
        let (eye, group, lit) = (Eye::default(), LinkGroup::default(), Lit::default());
        Frame { ctx, state, eye, group, lit, spec, tick: 0 }
    }

    /// The view's state (every bench draws a network class).
    #[allow(dead_code)] // each bench includes this file; not every one reads the state
    pub fn network(&self) -> &NetworkState {
        self.state.downcast_ref().expect("a network class's state")
    }

    /// One frame; the camera moves every time. `rebuild`: the highlight changes too (a host of a
    /// fabric, any node of a run), projected as the workspace does when a highlight changes.
    pub fn run(&mut self, d: &Dataset, rebuild: bool) -> usize {
        self.tick += 1;
        self.eye.camera.zoom = if self.tick.is_multiple_of(2) { 1.0 } else { 1.01 };
        if rebuild {
            let nodes = d.fabric.as_ref().map_or(d.run.ids(Domain::Nodes).len(), |f| f.cluster.hosts.len());
            let seed = Seed::node((self.tick as usize * 37) % nodes.max(1));
            self.group.highlight = Highlight { seeds: [seed].into() };
            self.lit = project(d, &self.group.highlight);
        }
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(1600.0, 1000.0))),
            ..Default::default()
        };
        let (state, eye) = (&mut self.state, &mut self.eye);
        let ctx = ViewContext {
            dataset: d,
            generation: 1,
            view: ViewId(0),
            index: 0,
            spec: &self.spec,
            group: &self.group,
            lit: &self.lit,
            link_range: None,
            node_range: None,
        };
        let class = class_of(&self.spec);
        let mut out = self.ctx.run_ui(input, |ui| {
            CentralPanel::default().show(ui, |ui| class.ui(&ctx, state, eye, ui, &mut Vec::new()));
        });
        // No renderer here: the font atlas upload is dropped on purpose.
        out.textures_delta.clear();
        self.ctx.tessellate(out.shapes, out.pixels_per_point).len()
    }
}

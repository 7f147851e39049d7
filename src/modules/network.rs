//! The state of a network view (fat tree, torus, generic 2D): its prepared values and scene,
//! each rebuilt only when what it depends on changes, its orbit and GPU resources. The network
//! classes share it; they differ in how a drag acts and whether the scene follows the aspect.

use crate::scene::Scene;
use crate::scene::draw::draw_list;
use crate::view_model::filter::Filter;
use crate::view_model::highlight::Highlight;
use crate::view_model::orbit::Orbit;
use crate::view_model::prepare::{LayoutChoice, Prepared, Ranges, prepare};
use crate::view_model::view::ViewSpec;

use super::class::{Drawing, Eye, PrepareContext, ViewContext};
use super::gpu_links;

/// Above this many visible halves the links are drawn by the GPU paint callback.
pub const GPU_THRESHOLD: usize = gpu_links::THRESHOLD;

/// How a plain (primary, unmodified) drag acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DragMode {
    /// Arcball rotation; shift-drag, or a secondary or middle drag, pans.
    Rotate,
    Pan,
}

/// What a network class tells the shared network code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkStyle {
    /// Where the class puts the nodes.
    pub layout: LayoutChoice,
    /// What the view's title calls its module (the class's `title`; filled per view).
    pub module_title: String,
    pub drag: DragMode,
    /// The scene fills any plot (the fat tree): it does not depend on the aspect.
    pub any_aspect: bool,
}

/// What decides a view's queried values and clause masks: the spec without what only filters
/// by value (the threshold, the brush, "hide unused") or only colours and titles.
#[derive(Clone, Debug, PartialEq)]
struct PrepareKey {
    generation: u64,
    spec: ViewSpec,
    group_filter: Filter,
}

impl PrepareKey {
    fn of(generation: u64, spec: &ViewSpec, group_filter: &Filter) -> PrepareKey {
        let query = |f: &Filter| Filter { value_range: None, hide_unused: false, ..f.clone() };
        let defaults = ViewSpec::default();
        let spec = ViewSpec {
            filter: query(&spec.filter),
            link_map: defaults.link_map,
            node_map: defaults.node_map,
            diverging_map: defaults.diverging_map,
            scale: defaults.scale,
            title: String::new(),
            ..spec.clone()
        };
        PrepareKey { generation, spec, group_filter: query(group_filter) }
    }
}

/// What only filters by value: changing it re-masks the prepared values, it does not query.
type ValueKey = [(Option<(f64, f64)>, bool); 2];

fn value_key(spec: &ViewSpec, group: &Filter) -> ValueKey {
    [(spec.filter.value_range, spec.filter.hide_unused), (group.value_range, group.hide_unused)]
}

/// What decides a view's scene.
#[derive(Clone, Debug, PartialEq)]
struct SceneKey {
    generation: u64,
    spec: ViewSpec,
    group_filter: Filter,
    highlight: Highlight,
    ranges: Ranges,
    orbit: Orbit,
    aspect: f32,
}

/// Per-view state of a network class.
#[derive(Default)]
pub struct NetworkState {
    prepare_key: Option<PrepareKey>,
    value_key: Option<ValueKey>,
    pub prepared: Option<Result<Prepared, String>>,
    scene_key: Option<SceneKey>,
    pub scene: Option<Scene>,
    /// The view's last size in points (for exports of "the current view").
    pub size: egui::Vec2,
    /// Where the view was last drawn, in screen points (tests aim clicks with it).
    pub rect: Option<egui::Rect>,
    /// How many scenes were built (tests check that panning does not rebuild).
    pub builds: u64,
    pub gpu: gpu_links::GpuLinkState,
    /// Overrides [`GPU_THRESHOLD`] (tests draw small fabrics both ways).
    pub gpu_threshold: Option<usize>,
}

impl NetworkState {
    /// Recomputes values and masks if the data, the spec or the group filter changed.
    pub fn prepare(&mut self, ctx: &PrepareContext<'_>, layout: &LayoutChoice) -> Option<&Prepared> {
        let key = PrepareKey::of(ctx.generation, ctx.spec, ctx.group_filter);
        let values = value_key(ctx.spec, ctx.group_filter);
        if self.prepare_key.as_ref() != Some(&key) {
            self.prepared = Some(prepare(ctx.dataset, ctx.spec, ctx.group_filter, layout));
            self.prepare_key = Some(key);
            self.value_key = Some(values);
        } else if self.value_key != Some(values) {
            if let Some(Ok(p)) = &mut self.prepared {
                p.apply_value_filter(ctx.spec, ctx.group_filter);
            }
            self.value_key = Some(values);
        }
        self.prepared.as_ref().and_then(|p| p.as_ref().ok())
    }

    /// [`NetworkState::prepare`], saying why there are no values if there are none.
    pub fn prepare_values(&mut self, ctx: &PrepareContext<'_>, layout: &LayoutChoice) -> Result<(), String> {
        self.prepare(ctx, layout);
        match &self.prepared {
            Some(Err(e)) => Err(e.clone()),
            _ => Ok(()),
        }
    }

    /// The prepared values' own colour ranges.
    pub fn ranges(&self) -> Ranges {
        match &self.prepared {
            Some(Ok(p)) => (p.link_range, p.node_range),
            _ => (None, None),
        }
    }

    /// Rebuilds the scene if anything it depends on changed; returns it (or why there is none).
    pub fn refresh(
        &mut self,
        ctx: &ViewContext<'_>,
        style: &NetworkStyle,
        orbit: &Orbit,
        aspect: f32,
    ) -> Result<&Scene, String> {
        self.prepare(&ctx.prepare_context(), &style.layout);
        let prepared = match &self.prepared {
            Some(Ok(p)) => p,
            Some(Err(e)) => return Err(e.clone()),
            None => return Err("not prepared".into()),
        };
        let aspect = if style.any_aspect { 1.0 } else { aspect };
        let key = SceneKey {
            generation: ctx.generation,
            spec: ctx.spec.clone(),
            group_filter: ctx.group.filter.clone(),
            highlight: ctx.group.highlight.clone(),
            ranges: (ctx.link_range, ctx.node_range),
            orbit: *orbit,
            aspect,
        };
        if self.scene_key.as_ref() != Some(&key) || self.scene.is_none() {
            let mut spec = ctx.spec.clone();
            if spec.title.is_empty() {
                let title = spec.default_title(ctx.dataset, &style.module_title);
                spec.title = format!("view {}: {title}", ctx.index + 1);
            }
            self.scene = Some(prepared.scene(ctx.dataset, &spec, key.ranges, ctx.lit, orbit, aspect));
            self.builds += 1;
            self.scene_key = Some(key);
        }
        self.scene.as_ref().ok_or_else(|| "no scene".into())
    }

    /// The scene on a `size` canvas through `camera`. The scene the window shows is drawn as
    /// it is (an export is what is on screen); one is built only if none was yet.
    pub fn draw_list(
        &mut self,
        ctx: &ViewContext<'_>,
        style: &NetworkStyle,
        eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'_>, String> {
        if self.scene.is_none() {
            let plot = crate::scene::draw::plot_rect(size[0], size[1]);
            self.refresh(ctx, style, &eye.orbit, plot.w / plot.h.max(1.0))?;
        }
        let scene = self.scene.as_ref().ok_or("nothing drawn yet")?;
        Ok(Drawing { list: draw_list(scene, &eye.camera, size[0], size[1]), scene: Some(scene) })
    }
}

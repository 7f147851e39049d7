//! The workspace of a run (a Boxfish run or a CSV pair): its views (torus 3D, torus 2D,
//! generic 2D), their link groups, and the commands views push. It mirrors the fat tree's
//! [`super::Workspace`]: a view names its group; the group holds the highlight, a filter ANDed
//! with each member's own, optionally a shared camera and orbit, and the colour ranges are the
//! union of the members' own, so two regions side by side compare on one scale.

use std::sync::Arc;

use crate::model::{Domain, Run, Warning};
use crate::scene::Scene;
use crate::scene::camera::Camera;
use crate::scene::linking::{GroupId, union_range};
use crate::scene::orbit::Orbit;
use crate::scene::query::Condition;
use crate::scene::run_view::{Prepared, Ranges, RunHighlight, RunLit, RunModule, RunViewSpec, prepare};

/// What linked run views share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunGroup {
    pub id: GroupId,
    pub name: String,
    pub highlight: RunHighlight,
    /// ANDed with each member's own conditions.
    pub conditions: Vec<Condition>,
    /// When set, members pan and zoom together.
    pub shared_camera: Option<Camera>,
    /// When set, members turn together (3D views).
    pub shared_orbit: Option<Orbit>,
}

/// What a run view draws from this frame (references only).
pub struct RunViewContext<'a> {
    pub run: &'a Run,
    /// Bumped on every (re)load.
    pub generation: u64,
    pub view: usize,
    pub spec: &'a RunViewSpec,
    pub group: &'a RunGroup,
    /// The group's highlight, projected onto nodes and links.
    pub lit: &'a RunLit,
    /// The colour ranges the group agreed on.
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
}

/// A change to shared run state, applied after the frame's UI ran.
#[derive(Clone, Debug, PartialEq)]
pub enum RunCommand {
    /// Sets (or with `add`, extends) a group's highlight with ids of one domain.
    Highlight { group: GroupId, domain: Domain, ids: Vec<i64>, add: bool },
    /// Esc: clears every highlight.
    ClearSelection,
    /// Makes a view the one the panels edit.
    Focus(usize),
}

/// What decides a view's prepared data.
#[derive(Clone, Debug, PartialEq)]
struct PrepareKey {
    generation: u64,
    spec: RunViewSpec,
    group_conditions: Vec<Condition>,
}

/// What decides a view's scene.
#[derive(Clone, Debug, PartialEq)]
struct SceneKey {
    prepare: PrepareKey,
    lit: RunLit,
    ranges: Ranges,
    orbit: Orbit,
    aspect: f32,
}

/// Per-view state that survives frames.
#[derive(Default)]
pub struct RunViewState {
    prepare_key: Option<PrepareKey>,
    pub prepared: Option<Result<Prepared, String>>,
    scene_key: Option<SceneKey>,
    pub scene: Option<Scene>,
    /// The view's own orbit (unless its group shares one).
    pub orbit: Orbit,
    /// The view's last size in points.
    pub size: egui::Vec2,
    /// Where the view was last drawn, in screen points (tests aim clicks with it).
    pub rect: Option<egui::Rect>,
    /// How many scenes were built.
    pub builds: u64,
    pub gpu: super::gpu_links::GpuLinkState,
    /// Overrides [`super::gpu_links::THRESHOLD`] (tests draw small networks on the GPU).
    pub gpu_threshold: Option<usize>,
}

impl RunViewState {
    /// Recomputes the values and masks if the data, spec or group filter changed.
    pub fn prepare(
        &mut self,
        run: &Run,
        generation: u64,
        spec: &RunViewSpec,
        group: &RunGroup,
    ) -> Option<&Prepared> {
        let key = PrepareKey { generation, spec: spec.clone(), group_conditions: group.conditions.clone() };
        if self.prepare_key.as_ref() != Some(&key) {
            self.prepared = Some(prepare(run, spec, &group.conditions));
            self.prepare_key = Some(key);
            self.scene_key = None;
        }
        self.prepared.as_ref().and_then(|p| p.as_ref().ok())
    }

    /// Rebuilds the scene if anything it depends on changed; returns it (or why there is none).
    pub fn refresh(
        &mut self,
        ctx: &RunViewContext<'_>,
        orbit: &Orbit,
        aspect: f32,
    ) -> Result<&Scene, String> {
        self.prepare(ctx.run, ctx.generation, ctx.spec, ctx.group);
        let prepared = match &self.prepared {
            Some(Ok(p)) => p,
            Some(Err(e)) => return Err(e.clone()),
            None => return Err("not prepared".into()),
        };
        let key = SceneKey {
            prepare: self.prepare_key.clone().ok_or("not prepared")?,
            lit: ctx.lit.clone(),
            ranges: (ctx.link_range, ctx.node_range),
            orbit: *orbit,
            aspect,
        };
        if self.scene_key.as_ref() != Some(&key) || self.scene.is_none() {
            self.scene = Some(prepared.scene(ctx.run, ctx.spec, key.ranges, ctx.lit, orbit, aspect));
            self.builds += 1;
            self.scene_key = Some(key);
        }
        self.scene.as_ref().ok_or_else(|| "no scene".into())
    }
}

/// One run view.
pub struct RunView {
    pub spec: RunViewSpec,
    pub group: GroupId,
    pub camera: Camera,
    pub state: RunViewState,
}

impl RunView {
    pub fn new(spec: RunViewSpec, group: GroupId) -> RunView {
        RunView { spec, group, camera: Camera::default(), state: RunViewState::default() }
    }
}

/// Everything the run panels work on.
pub struct RunWorkspace {
    pub run: Arc<Run>,
    pub warnings: Vec<Warning>,
    pub generation: u64,
    pub views: Vec<RunView>,
    pub groups: Vec<RunGroup>,
    /// The view the panels edit.
    pub focus: usize,
}

impl RunWorkspace {
    /// One view of the run's natural module, in one group.
    pub fn new(run: Run, warnings: Vec<Warning>) -> RunWorkspace {
        let spec = RunViewSpec::for_run(&run);
        RunWorkspace {
            run: Arc::new(run),
            warnings,
            generation: 1,
            views: vec![RunView::new(spec, GroupId(0))],
            groups: vec![RunGroup { id: GroupId(0), name: "group 1".into(), ..Default::default() }],
            focus: 0,
        }
    }

    /// Swaps in a reloaded run; views keep their settings.
    pub fn replace_run(&mut self, run: Run, warnings: Vec<Warning>) {
        self.run = Arc::new(run);
        self.warnings = warnings;
        self.generation += 1;
    }

    pub fn group(&self, id: GroupId) -> Option<&RunGroup> {
        self.groups.iter().find(|g| g.id == id)
    }

    pub fn group_mut(&mut self, id: GroupId) -> Option<&mut RunGroup> {
        self.groups.iter_mut().find(|g| g.id == id)
    }

    /// A new, empty group's id.
    pub fn new_group(&mut self) -> GroupId {
        let id = GroupId(self.groups.iter().map(|g| g.id.0 + 1).max().unwrap_or(0));
        self.groups.push(RunGroup { id, name: format!("group {}", id.0 + 1), ..Default::default() });
        id
    }

    /// Prepares every view and returns each group's agreed (link, node) ranges.
    pub fn group_ranges(&mut self) -> Vec<(GroupId, Ranges)> {
        let run = self.run.clone();
        for view in &mut self.views {
            let Some(group) = self.groups.iter().find(|g| g.id == view.group) else { continue };
            view.state.prepare(&run, self.generation, &view.spec, group);
        }
        self.groups
            .iter()
            .map(|g| {
                let members = || {
                    self.views
                        .iter()
                        .filter(|v| v.group == g.id)
                        .filter_map(|v| v.state.prepared.as_ref().and_then(|p| p.as_ref().ok()))
                };
                let links = union_range(members().filter_map(|p| p.link_range));
                (g.id, (links, union_range(members().filter_map(|p| p.node_range))))
            })
            .collect()
    }

    /// Boxfish's linking: two views of the focused view's module side by side, filtered to
    /// `attribute = a` and `attribute = b` (e.g. two `code_region`s), in one group, so they share
    /// one colour range, the highlight and the orbit.
    pub fn compare(&mut self, attribute: &str, a: f64, b: f64) {
        let base = self
            .views
            .get(self.focus)
            .map(|v| v.spec.clone())
            .unwrap_or_else(|| RunViewSpec::for_run(&self.run));
        let group = self.views.get(self.focus).map_or(GroupId(0), |v| v.group);
        let with = |value: f64| {
            let mut spec = base.clone();
            spec.conditions.retain(|c| c.attribute != attribute);
            spec.conditions.push(Condition {
                attribute: attribute.to_string(),
                relation: crate::scene::filter::Relation::Eq,
                value: if value.fract() == 0.0 { format!("{value:.0}") } else { value.to_string() },
            });
            RunView::new(spec, group)
        };
        self.views = vec![with(a), with(b)];
        if let Some(g) = self.group_mut(group) {
            g.shared_orbit.get_or_insert_with(Orbit::default);
        }
        self.focus = 0;
    }

    /// Adds a view of `module` in the focused view's group.
    pub fn add_view(&mut self, module: RunModule) {
        let mut spec = self
            .views
            .get(self.focus)
            .map(|v| v.spec.clone())
            .unwrap_or_else(|| RunViewSpec::for_run(&self.run));
        spec.module = module;
        let group = self.views.get(self.focus).map_or(GroupId(0), |v| v.group);
        self.views.push(RunView::new(spec, group));
    }

    /// Applies the frame's commands.
    pub fn apply(&mut self, commands: Vec<RunCommand>) {
        for command in commands {
            match command {
                RunCommand::Highlight { group, domain, ids, add } => {
                    if let Some(g) = self.group_mut(group) {
                        if !add || g.highlight.domain != Some(domain) {
                            g.highlight = RunHighlight { domain: Some(domain), ids: Vec::new() };
                        }
                        for id in ids {
                            if !g.highlight.ids.contains(&id) {
                                g.highlight.ids.push(id);
                            }
                        }
                    }
                }
                RunCommand::ClearSelection => {
                    for g in &mut self.groups {
                        g.highlight = RunHighlight::default();
                    }
                }
                RunCommand::Focus(view) => self.focus = view.min(self.views.len().saturating_sub(1)),
            }
        }
    }
}

//! One road in the window: modules mixed in one link group, and one filter panel for every
//! module, driven headless with egui_kittest (wgpu on lavapipe; `WGPU_BACKEND=vulkan`).
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::{ShoalApp, Tab};
use shoal::scene::{Emphasis, Scene};
use shoal::view_model::Dataset;
use shoal::view_model::run_synthetic::synthetic_run;
use shoal::view_model::view::ModuleSpec;

fn app(dataset: Dataset) -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 800.0))
        .build_eframe(move |_| ShoalApp::with_dataset(dataset));
    h.run();
    h
}

fn scene<'h>(h: &'h Harness<'static, ShoalApp>, view: usize) -> &'h Scene {
    h.state().ws.views[view].network().unwrap().scene.as_ref().expect("the view drew a scene")
}

fn lit_halves(s: &Scene) -> usize {
    s.halves.iter().filter(|x| x.emphasis == Emphasis::Lit).count()
}

#[test]
fn a_fat_tree_and_a_generic_2d_view_in_one_group_share_one_colour_range_and_one_highlight() {
    let mut h = app(Dataset::synthetic(6, 4, 3, 2));
    h.state_mut().ws.add_view(ModuleSpec::of("generic_2d"));
    h.run();
    let ws = &h.state().ws;
    assert_eq!(ws.views.len(), 2);
    assert_eq!(ws.views[0].group, ws.views[1].group, "the new view joins the focused view's group");
    assert_eq!(ws.views[1].spec.module, ModuleSpec::of("generic_2d"));
    let range = |v: usize| (scene(&h, v).legends[1].scale.min(), scene(&h, v).legends[1].scale.max());
    assert!(range(0).1 > 0.0);
    assert_eq!(range(0), range(1), "one colour range for both modules");
    assert_eq!(lit_halves(scene(&h, 0)), 0);
    // Both draw the same link ends in the same colours.
    let colours = |v: usize| {
        let mut c: Vec<[u8; 4]> = scene(&h, v).halves.iter().map(|x| x.colour.0).collect();
        c.sort_unstable();
        c
    };
    assert_eq!(colours(0), colours(1));

    h.state_mut().tab = Tab::Highlight;
    h.state_mut().highlight_state.query = "n0005".into();
    h.run();
    h.get_by_label("highlight").click();
    h.run();
    for v in 0..2 {
        let s = scene(&h, v);
        assert_eq!(lit_halves(s), 4, "view {v}: one host link per rail, two halves each");
        assert!(s.marks.iter().any(|m| m.emphasis == Emphasis::Lit), "view {v} lights the host");
    }
    // The lit ends show the same colours in both (the dimmed rest fades by each module's own
    // amount: a plane keeps more of its frame).
    let lit_colours = |v: usize| {
        let mut c: Vec<[u8; 4]> =
            scene(&h, v).halves.iter().filter(|x| x.emphasis == Emphasis::Lit).map(|x| x.colour.0).collect();
        c.sort_unstable();
        c
    };
    assert_eq!(lit_colours(0), lit_colours(1));
}

/// Types a clause into the focused view's filter panel and adds it.
fn type_clause(h: &mut Harness<'static, ShoalApp>, clause: &str) {
    h.state_mut().tab = Tab::Filter;
    h.run();
    h.state_mut().filter_state.typed = clause.into();
    h.run();
    h.get_by_label("+ clause").click();
    h.run();
}

#[test]
fn a_clause_typed_in_the_filter_panel_filters_a_fat_tree_and_a_torus_alike() {
    let clause = "linkid < 10";
    for (name, dataset) in [
        ("fat tree", Dataset::synthetic(6, 4, 3, 2)),
        ("torus", Dataset::from_run(synthetic_run(&["x", "y", "z"], &[4, 4, 4]), Vec::new())),
    ] {
        let mut h = app(dataset);
        let all = scene(&h, 0).halves.len();
        assert!(all > 10, "{name}: {all} halves");
        type_clause(&mut h, clause);
        let view = &h.state().ws.views[0];
        assert_eq!(view.spec.filter.clauses.len(), 1, "{name}");
        assert_eq!(view.spec.filter.clauses[0].to_string(), clause, "{name}");
        let s = scene(&h, 0);
        assert_eq!(s.halves.len(), 10, "{name}: exactly the ten links with id 0..9 are drawn");
    }
}

/// Clicks the linking panel's "- view" (which removes the focused view), one frame at a time.
fn remove_focused_view(h: &mut Harness<'static, ShoalApp>) {
    h.state_mut().tab = Tab::Linking;
    h.run();
    h.get_by_label("- view").click();
    h.step();
}

#[test]
fn one_click_on_remove_removes_one_view_after_the_frame_and_ctrl_z_brings_it_back() {
    let mut h = app(Dataset::synthetic(6, 4, 3, 2));
    h.state_mut().ws.add_view(ModuleSpec::of("generic_2d"));
    h.state_mut().ws.add_view(ModuleSpec::of("time_strip"));
    h.run();
    let before: Vec<_> = h.state().ws.views.iter().map(|v| (v.id, v.spec.clone(), v.group)).collect();
    let focused = h.state().ws.focus;
    assert_eq!(before.len(), 3);

    remove_focused_view(&mut h);
    // The panel queued the removal; the workspace applied it once, after the frame's UI.
    assert_eq!(h.state().ws.views.len(), 2);
    h.run();
    assert_eq!(h.state().ws.views.len(), 2, "the command is not applied again");
    assert!(h.state().ws.view(focused).is_none(), "the focused view went");

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    let after: Vec<_> = h.state().ws.views.iter().map(|v| (v.id, v.spec.clone(), v.group)).collect();
    assert_eq!(after, before, "the view is back where it was, with its id, spec and group");
    assert_eq!(h.state().ws.focus, focused);
    assert!(h.state().ws.views[0].network().is_some_and(|n| n.scene.is_some()), "and it draws again");
}

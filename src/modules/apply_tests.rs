//! The workspace's commands: views by stable id, removal and undo, commands for gone views.

use super::*;
use crate::view_model::dataset::Dataset;
use crate::view_model::highlight::Seed;

/// A fabric with two regions, one fat-tree view, and a generic-2D view beside it.
fn two_views() -> Workspace {
    let mut ws = Workspace::default();
    ws.install(Dataset::synthetic(6, 4, 3, 2));
    ws.apply(vec![Command::AddView(ModuleSpec::of("generic_2d"))]);
    ws
}

fn ids(ws: &Workspace) -> Vec<ViewId> {
    ws.views.iter().map(|v| v.id).collect()
}

#[test]
fn a_removed_view_comes_back_on_undo_with_its_id_spec_group_and_place() {
    let mut ws = two_views();
    let first = ws.views[0].id;
    ws.apply(vec![Command::SelectRegions {
        group: ws.views[0].group,
        selection: RegionSelection::Region(2),
    }]);
    ws.views[0].spec.filter.hide_unused = true;
    ws.views[0].camera.zoom = 3.0;
    let (spec, group, before) = (ws.views[0].spec.clone(), ws.views[0].group, ids(&ws));

    ws.apply(vec![Command::RemoveView(first)]);
    assert_eq!(ids(&ws), before[1..], "the first view is gone");
    assert_ne!(ws.focus, first, "the focus moved to a view that is there");
    assert_eq!(ws.undoable(), 1);

    ws.apply(vec![Command::Undo]);
    assert_eq!(ids(&ws), before, "back in its place");
    let back = &ws.views[0];
    assert_eq!((&back.spec, back.group, back.camera.zoom), (&spec, group, 3.0));
    assert_eq!(ws.focus, first, "the restored view has the focus");
    assert_eq!(ws.undoable(), 0);
}

#[test]
fn commands_for_a_removed_view_are_dropped() {
    let mut ws = two_views();
    let (kept, gone) = (ws.views[0].id, ws.views[1].id);
    ws.apply(vec![Command::Focus(kept)]);
    let spec = ViewSpec { title: "renamed".into(), ..ws.views[1].spec.clone() };
    ws.apply(vec![
        Command::RemoveView(gone),
        Command::Focus(gone),
        Command::SelectLink { view: gone, link: 3 },
        Command::SetSpec { view: gone, spec: Box::new(spec) },
        Command::SetGroup { view: gone, group: GroupId(0) },
        Command::RemoveView(gone),
    ]);
    assert_eq!(ids(&ws), [kept]);
    assert_eq!(ws.focus, kept, "focusing a removed view does nothing");
    assert_eq!(ws.views[0].selected_link, None);
    assert_eq!(ws.views[0].spec.title, "", "another view's spec edit does not land here");
    assert_eq!(ws.undoable(), 1, "removing it twice kept it once");
}

#[test]
fn the_last_view_is_never_removed() {
    let mut ws = Workspace::default();
    ws.install(Dataset::synthetic(6, 4, 3, 2));
    let only = ws.views[0].id;
    ws.apply(vec![Command::RemoveView(only), Command::Undo]);
    assert_eq!(ids(&ws), [only]);
}

#[test]
fn view_ids_are_never_reused() {
    let mut ws = two_views();
    let mut seen = ids(&ws);
    ws.apply(vec![Command::RemoveView(seen[1]), Command::AddView(ModuleSpec::of("fat_tree"))]);
    assert_eq!(ws.views.len(), 2);
    assert!(!seen.contains(&ws.views[1].id), "a new view gets a new id");
    seen.extend(ids(&ws));
    ws.apply(vec![Command::Compare(1, 2)]);
    assert!(ids(&ws).iter().all(|id| !seen.contains(id)), "{:?} after {seen:?}", ids(&ws));
    assert_ne!(ws.views[0].id, ws.views[1].id);
}

#[test]
fn commands_apply_in_the_order_they_were_queued() {
    let mut ws = two_views();
    let group = ws.views[0].group;
    let seed = |n: usize| Seed::node(n);
    ws.apply(vec![
        Command::Highlight { group, seeds: vec![seed(1)], add: false },
        Command::Highlight { group, seeds: vec![seed(2)], add: true },
        Command::Highlight { group, seeds: vec![seed(3)], add: false },
        Command::Highlight { group, seeds: vec![seed(4)], add: true },
    ]);
    let seeds: Vec<Seed> =
        ws.group(group).map(|g| g.highlight.seeds.iter().cloned().collect()).unwrap_or_default();
    assert_eq!(seeds, [seed(3), seed(4)]);
}

#[test]
fn a_spec_edit_lands_on_the_view_it_names_only() {
    let mut ws = two_views();
    let target = ws.views[1].id;
    let spec = ViewSpec { title: "mine".into(), ..ws.views[1].spec.clone() };
    ws.apply(vec![Command::SetSpec { view: target, spec: Box::new(spec) }]);
    assert_eq!(ws.views[1].spec.title, "mine");
    assert_eq!(ws.views[0].spec.title, "");
}

#[test]
fn group_edits_name_their_group() {
    let mut ws = two_views();
    let view = ws.views[1].id;
    ws.apply(vec![Command::NewGroup]);
    let new = ws.groups[1].id;
    ws.apply(vec![
        Command::SetGroup { view, group: new },
        Command::ShareCamera { group: new, on: true },
        Command::SetGroup { view, group: GroupId(99) },
    ]);
    assert_eq!(ws.views[1].group, new, "a group that does not exist is not joined");
    assert!(ws.group(new).is_some_and(|g| g.shared_camera.is_some()));
    assert!(ws.group(GroupId(0)).is_some_and(|g| g.shared_camera.is_none()));
}

#[test]
fn views_pushed_one_by_one_get_new_ids_and_the_focus_goes_by_place() {
    let mut ws = two_views();
    let before = ids(&ws);
    ws.views.clear();
    for n in [1, 2] {
        let spec = ViewSpec { selection: RegionSelection::Region(n), ..ViewSpec::default() };
        ws.push_view(spec, GroupId(0)).camera.zoom = 2.0;
    }
    assert!(ids(&ws).iter().all(|id| !before.contains(id)));
    ws.focus_at(7);
    assert_eq!((ws.focus_index(), ws.focus), (1, ws.views[1].id), "past the end: the last view");
    assert_eq!(ws.views[1].spec.selection, RegionSelection::Region(2));
    assert_eq!(ws.views[1].camera.zoom, 2.0);
}

#[test]
fn a_group_left_empty_by_a_move_or_a_removal_goes() {
    let mut ws = two_views();
    let view = ws.views[1].id;
    ws.apply(vec![Command::NewGroup]);
    let new = ws.groups[1].id;
    ws.apply(vec![Command::SetGroup { view, group: new }]);
    assert_eq!(ws.groups.len(), 2, "both groups hold a view");
    ws.apply(vec![Command::RemoveView(view)]);
    assert_eq!(ws.groups.iter().map(|g| g.id).collect::<Vec<_>>(), [GroupId(0)]);
    ws.apply(vec![Command::Undo]);
    assert_eq!(ids(&ws).len(), 2);
    assert_eq!(ws.views[1].group, GroupId(0), "back in a group that exists");
    ws.apply(vec![Command::NewGroup]);
    assert_eq!(ws.groups.len(), 2, "a new group stays empty until a view joins and leaves it");
    let other = ws.groups[1].id;
    ws.apply(vec![Command::SetGroup { view, group: other }, Command::SetGroup { view, group: GroupId(0) }]);
    assert_eq!(ws.groups.len(), 1, "the group the view left empty went");
}

#[test]
fn the_time_cursor_sets_its_group_s_views_interval_and_views_joining_a_group_take_its_cursor() {
    let mut ws = two_views();
    let group = ws.views[0].group;
    ws.apply(vec![Command::SetTimeCursor { group, interval: Some(2) }]);
    assert!(ws.views.iter().all(|v| v.spec.interval == Some(2)), "every view of the group");
    ws.apply(vec![Command::AddView(ModuleSpec::of("fat_tree"))]);
    assert_eq!(ws.views[2].spec.interval, Some(2), "a new view in the group looks at its interval");
    ws.apply(vec![Command::NewGroup]);
    let other = ws.groups.iter().map(|g| g.id).find(|&g| g != group).expect("a second group");
    ws.apply(vec![Command::SetGroup { view: ws.views[1].id, group: other }]);
    assert_eq!(ws.views[1].spec.interval, None, "the other group has no cursor");
    ws.apply(vec![Command::SetTimeCursor { group, interval: None }]);
    assert!(ws.views.iter().all(|v| v.spec.interval.is_none()), "cleared: the whole window");
}

#[test]
fn a_session_brings_back_each_group_s_time_cursor_from_its_views() {
    let mut ws = two_views();
    let group = ws.views[0].group;
    ws.apply(vec![Command::SetTimeCursor { group, interval: Some(1) }]);
    let session = ws.to_session(&Default::default());
    let mut back = Workspace::default();
    back.install(Dataset::synthetic(6, 4, 3, 2));
    back.from_session(&session);
    assert_eq!(back.group(group).and_then(|g| g.time_cursor), Some(1));
    assert!(back.views.iter().all(|v| v.spec.interval == Some(1)));
}

//! The workspace as a session and back (issue 21, item 6): every view's spec, group, camera,
//! orbit and export size, the link groups' names, filters and shared cameras, and the focus.

use crate::modules::link_group::{GroupId, LinkGroup};
use crate::scene::camera::Camera;
use crate::view_model::OpenRequest;
use crate::view_model::session::{
    CameraState, ExportSize, SESSION_VERSION, Session, SessionGroup, SessionView,
};

use super::workspace::Workspace;

/// The window exports a view at two pixels per point of its size, at least 320×240 points
/// (as `export::write_view` does).
const EXPORT_PPP: f32 = 2.0;

impl Workspace {
    /// The workspace as a session of `request` (what its data set was opened from).
    pub fn to_session(&self, request: &OpenRequest) -> Session {
        let views = self
            .views
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let [w, h] = v.last_size().unwrap_or_default();
                let export = ExportSize {
                    width: (w.max(320.0) * EXPORT_PPP) as u32,
                    height: (h.max(240.0) * EXPORT_PPP) as u32,
                    pixels_per_point: EXPORT_PPP,
                };
                SessionView {
                    spec: v.spec.clone(),
                    group: v.group.0,
                    camera: CameraState::from(&v.camera),
                    orbit: Some(v.orbit.rotation),
                    export,
                    // The window titles its views `view N: …` (see `view_ui`).
                    number: Some(i + 1),
                }
            })
            .collect();
        let groups = self
            .groups
            .iter()
            .map(|g| SessionGroup {
                id: g.id.0,
                name: g.name.clone(),
                filter: g.filter.clone(),
                shared_camera: g.shared_camera.as_ref().map(CameraState::from),
            })
            .collect();
        let focus = self.focus_index();
        Session { shoal_session: SESSION_VERSION, request: request.clone(), focus, views, groups }
    }

    /// Replaces the views and groups with the session's (the data set stays as installed).
    pub fn from_session(&mut self, session: &Session) {
        self.groups = session
            .groups
            .iter()
            .map(|g| LinkGroup {
                filter: g.filter.clone(),
                shared_camera: g.shared_camera.map(Camera::from),
                ..LinkGroup::new(GroupId(g.id), g.name.clone())
            })
            .collect();
        for v in &session.views {
            if !self.groups.iter().any(|g| g.id.0 == v.group) {
                self.groups.push(LinkGroup::new(GroupId(v.group), format!("group {}", v.group + 1)));
            }
        }
        self.views.clear();
        self.removed.clear();
        for v in &session.views {
            let view = self.push_view(v.spec.clone(), GroupId(v.group));
            view.camera = Camera::from(v.camera);
            view.orbit = v.orbit();
        }
        // A group's time cursor is its views' interval (the cursor command sets both), so the
        // strip outlines again the interval the views were saved at.
        for g in &mut self.groups {
            g.time_cursor = self.views.iter().filter(|v| v.group == g.id).find_map(|v| v.spec.interval);
        }
        if self.views.is_empty() {
            self.push_view(Default::default(), self.groups.first().map_or(GroupId(0), |g| g.id));
        }
        self.focus_at(session.focus);
    }
}

//! A whole workspace as one human-readable YAML file (issue 21, item 6): what was opened (its
//! [`OpenRequest`]), every view's spec, camera and export size, the link groups and the focused
//! view. Inputs lying beside the session file (or below it) are written relative to it, so a
//! folder of dumps, profile and session can be handed to a colleague; `shoal SESSION` and
//! `shoal render --session SESSION` read it back.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::view_model::filter::Filter;
use crate::view_model::orbit::Orbit;
use crate::view_model::view::ViewSpec;

use super::request::OpenRequest;

/// The session format's version, written as the file's first key (the classifier's mark).
pub const SESSION_VERSION: u32 = 1;

/// A workspace as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// Always [`SESSION_VERSION`]; first, so the file says what it is on its first line.
    pub shoal_session: u32,
    pub request: OpenRequest,
    /// The view the panels edit (and `render --session` draws without `--view`).
    #[serde(default)]
    pub focus: usize,
    pub views: Vec<SessionView>,
    #[serde(default)]
    pub groups: Vec<SessionGroup>,
}

/// One view: what it shows, its link group, where its camera looks and how big it exports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionView {
    pub spec: ViewSpec,
    #[serde(default)]
    pub group: u32,
    #[serde(default)]
    pub camera: CameraState,
    /// A 3D view's rotation (a unit quaternion); `None`: the default view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orbit: Option<[f32; 4]>,
    pub export: ExportSize,
    /// The number the window gives the view in its title (`view 2: …`), so a render of a
    /// session the window saved draws the window's title; `None` for a view of `render`'s flags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<usize>,
}

impl SessionView {
    /// The view's spec with the title it is drawn under: its own, or the window's numbered one
    /// (`module_title`: what its class calls its module).
    pub fn titled_spec(&self, dataset: &crate::view_model::dataset::Dataset, module_title: &str) -> ViewSpec {
        let mut spec = self.spec.clone();
        if let Some(n) = self.number
            && spec.title.is_empty()
        {
            spec.title = format!("view {n}: {}", spec.default_title(dataset, module_title));
        }
        spec
    }
}

/// A camera as plain data: the world point at the plot's centre (`None`: the scene's centre)
/// and the zoom (1 = fit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub centre: Option<[f32; 2]>,
    pub zoom: f32,
}

impl Default for CameraState {
    /// Fit: the scene's centre at zoom 1.
    fn default() -> Self {
        CameraState { centre: None, zoom: 1.0 }
    }
}

impl SessionView {
    /// The view's rotation, or the default one.
    pub fn orbit(&self) -> Orbit {
        self.orbit.map_or_else(Orbit::default, |rotation| Orbit { rotation })
    }
}

/// The pixels an export of the view has, and the pixels per point its text and lines are drawn
/// at (the window exports at 2 per point of the view's size; `render` picks by the size).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportSize {
    pub width: u32,
    pub height: u32,
    pub pixels_per_point: f32,
}

/// A link group: its name, its filter (ANDed with each member's) and its shared camera.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionGroup {
    pub id: u32,
    pub name: String,
    #[serde(default)]
    pub filter: Filter,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_camera: Option<CameraState>,
}

/// Why a session could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}: not a shoal session: {message}")]
    Format { path: String, message: String },
    #[error("{path}: session format {found}, this shoal reads format {SESSION_VERSION}")]
    Version { path: String, found: u32 },
    #[error("{path}: the session has no view {view} (it has {count}, numbered from 1)")]
    NoView { path: String, view: usize, count: usize },
}

impl Session {
    /// A session of one view, on its own link group.
    pub fn of_view(request: OpenRequest, view: SessionView) -> Session {
        let group = SessionGroup {
            id: view.group,
            name: "group 1".into(),
            filter: Filter::default(),
            shared_camera: None,
        };
        Session { shoal_session: SESSION_VERSION, request, focus: 0, views: vec![view], groups: vec![group] }
    }

    /// View `number` (counted from 1, as the window titles them: `view 1: …`), or the focused
    /// one.
    pub fn view(&self, number: Option<usize>, path: &Path) -> Result<&SessionView, SessionError> {
        let at = match number {
            Some(n) => n.checked_sub(1),
            None => Some(self.focus),
        };
        at.and_then(|at| self.views.get(at)).ok_or_else(|| SessionError::NoView {
            path: path.display().to_string(),
            view: number.unwrap_or(self.focus + 1),
            count: self.views.len(),
        })
    }

    /// The session as YAML, its input paths relative to `dir` where they lie below it.
    pub fn to_yaml(&self, dir: &Path) -> Result<String, SessionError> {
        let mut session = self.clone();
        let dir = absolute(dir);
        for path in session.request.paths_mut() {
            *path = relative_to(&dir, &absolute(path));
        }
        serde_saphyr::to_string(&session)
            .map_err(|e| SessionError::Format { path: dir.display().to_string(), message: e.to_string() })
    }

    /// Reads a session: its relative input paths are taken from the session file's folder.
    pub fn read(path: &Path) -> Result<Session, SessionError> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|error| SessionError::Io { path: shown.clone(), error })?;
        Session::from_yaml(&text, path.parent().unwrap_or(Path::new("")), &shown)
    }

    /// Parses a session's text; relative input paths are joined to `dir`.
    pub fn from_yaml(text: &str, dir: &Path, shown: &str) -> Result<Session, SessionError> {
        let format = |message: String| SessionError::Format { path: shown.to_string(), message };
        let mut session: Session = serde_saphyr::from_str(text).map_err(|e| format(e.to_string()))?;
        if session.shoal_session != SESSION_VERSION {
            return Err(SessionError::Version { path: shown.to_string(), found: session.shoal_session });
        }
        if session.views.is_empty() {
            return Err(format("it holds no view".into()));
        }
        for p in session.request.paths_mut() {
            if p.is_relative() {
                *p = dir.join(&*p);
            }
        }
        Ok(session)
    }

    /// Writes the session to `path` (see [`Session::to_yaml`]).
    pub fn write(&self, path: &Path) -> Result<(), SessionError> {
        let text = self.to_yaml(path.parent().unwrap_or(Path::new("")))?;
        std::fs::write(path, text)
            .map_err(|error| SessionError::Io { path: path.display().to_string(), error })
    }
}

/// `path` made absolute against the working directory, `.` and `..` folded away.
fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to `dir` when it lies at or below it; otherwise `path` unchanged.
fn relative_to(dir: &Path, path: &Path) -> PathBuf {
    match path.strip_prefix(dir) {
        Ok(rest) if rest.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rest) => rest.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> SessionView {
        SessionView {
            spec: ViewSpec::default(),
            group: 0,
            camera: CameraState { centre: Some([1.0, -2.5]), zoom: 3.0 },
            orbit: None,
            export: ExportSize { width: 800, height: 600, pixels_per_point: 1.0 },
            number: Some(1),
        }
    }

    #[test]
    fn inputs_beside_the_session_are_written_relative_and_read_back_absolute() {
        let dir = Path::new("/data/case");
        let request = OpenRequest {
            profile: Some(dir.join("p.ibprof")),
            host_map: Some("/elsewhere/map.txt".into()),
            ..OpenRequest::of_rails(vec![vec![dir.join("rail0")]])
        };
        let session = Session::of_view(request, view());
        let text = session.to_yaml(dir).unwrap();
        assert!(text.starts_with("shoal_session: 1"), "{text}");
        assert!(text.contains("- rail0") && text.contains("profile: p.ibprof"), "{text}");
        assert!(text.contains("/elsewhere/map.txt"), "{text}");
        let read = Session::from_yaml(&text, dir, "s.yaml").unwrap();
        assert_eq!(read, session);
    }

    #[test]
    fn a_session_of_another_version_or_without_views_is_refused() {
        let text = "shoal_session: 9\nrequest: {}\nviews: []\n";
        let error = Session::from_yaml(text, Path::new("."), "s.yaml").unwrap_err();
        assert!(matches!(error, SessionError::Version { found: 9, .. }), "{error}");
        let text = "shoal_session: 1\nrequest: {}\nviews: []\n";
        assert!(
            Session::from_yaml(text, Path::new("."), "s.yaml").unwrap_err().to_string().contains("no view")
        );
    }

    #[test]
    fn a_view_out_of_range_is_an_error_naming_how_many_there_are() {
        let session = Session::of_view(OpenRequest::default(), view());
        let error = session.view(Some(3), Path::new("s.yaml")).unwrap_err();
        assert_eq!(error.to_string(), "s.yaml: the session has no view 3 (it has 1, numbered from 1)");
        assert!(session.view(Some(0), Path::new("s.yaml")).is_err());
        assert!(session.view(Some(1), Path::new("s.yaml")).is_ok());
    }
}

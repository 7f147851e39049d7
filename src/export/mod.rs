//! Scene → file: PNG (links by [`line_raster`], marks by tiny-skia) and SVG (text), both painting the same [`DrawList`] the window
//! paints, so an export is what you see (`shoal render` is on top of them); and [`tables`], the
//! node and link-end load tables `shoal convert` writes.

pub mod csv_cell;
pub mod graphml;
pub mod job_tables;
pub mod line_layer;
pub mod line_raster;
pub mod loads_file;
pub mod png;
pub mod svg;
pub mod tables;
pub mod text;

use std::path::Path;

use crate::scene::Scene;
use crate::scene::camera::Camera;
use crate::scene::draw::{DrawList, draw_list};

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot paint a {width}×{height} image")]
    Size { width: u32, height: u32 },
    #[error("the bundled font could not be read")]
    Font,
    #[error("PNG encoding failed: {0}")]
    Png(String),
    /// The I/O error is part of the message, not a `source` (a chain printer would repeat it).
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{0}: unknown image format (use .png or .svg)")]
    Format(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

impl Format {
    /// From the file extension (`.png`, `.svg`, any case).
    pub fn of_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "png" => Some(Format::Png),
            "svg" => Some(Format::Svg),
            _ => None,
        }
    }
}

/// How many pixels per point an export of `width × height` pixels uses: big canvases scale the
/// text and lines up instead of shrinking them (a 3840×2160 export is laid out as 1280×720).
pub fn pixels_per_point_for(width: u32, height: u32) -> f32 {
    (width as f32 / 1280.0).min(height as f32 / 720.0).max(1.0)
}

/// The draw list for an export of `width × height` pixels at `pixels_per_point`.
pub fn export_list(
    scene: &Scene,
    camera: &Camera,
    width: u32,
    height: u32,
    pixels_per_point: f32,
) -> DrawList {
    draw_list(scene, camera, width as f32 / pixels_per_point, height as f32 / pixels_per_point)
}

/// Encodes a scene as PNG or SVG bytes.
pub fn encode(
    scene: &Scene,
    camera: &Camera,
    width: u32,
    height: u32,
    format: Format,
) -> Result<Vec<u8>, ExportError> {
    encode_at(scene, camera, (width, height, pixels_per_point_for(width, height)), format)
}

/// [`encode`] at a given number of pixels per point (a session's view keeps its own).
pub fn encode_at(
    scene: &Scene,
    camera: &Camera,
    (width, height, ppp): (u32, u32, f32),
    format: Format,
) -> Result<Vec<u8>, ExportError> {
    let list = export_list(scene, camera, width, height, ppp);
    match format {
        Format::Png => png::encode(&png::paint_pixmap(&list, ppp)?),
        Format::Svg => Ok(svg::to_svg(scene, &list, ppp).into_bytes()),
    }
}

/// Writes a scene to `path`, the format chosen by its extension.
pub fn write(
    scene: &Scene,
    camera: &Camera,
    width: u32,
    height: u32,
    path: &Path,
) -> Result<(), ExportError> {
    let format = Format::of_path(path).ok_or_else(|| ExportError::Format(path.display().to_string()))?;
    let bytes = encode(scene, camera, width, height, format)?;
    std::fs::write(path, bytes).map_err(|error| ExportError::Io { path: path.display().to_string(), error })
}

/// Writes a scene to `path` at `width × height` pixels and `ppp` pixels per point.
pub fn write_at(
    scene: &Scene,
    camera: &Camera,
    size: (u32, u32, f32),
    path: &Path,
) -> Result<(), ExportError> {
    let format = Format::of_path(path).ok_or_else(|| ExportError::Format(path.display().to_string()))?;
    let bytes = encode_at(scene, camera, size, format)?;
    std::fs::write(path, bytes).map_err(|error| ExportError::Io { path: path.display().to_string(), error })
}

/// Writes a draw list made without a scene of link halves (the time strip) to `path`, at
/// `pixels_per_point`, the format chosen by its extension.
pub fn write_list(list: &DrawList, pixels_per_point: f32, path: &Path) -> Result<(), ExportError> {
    write_drawing(list, None, pixels_per_point, path)
}

/// Writes a draw list to `path` (the format chosen by its extension) at `pixels_per_point`;
/// `scene`, the world scene it was drawn from if any, names the link ends in SVG.
pub fn write_drawing(
    list: &DrawList,
    scene: Option<&Scene>,
    pixels_per_point: f32,
    path: &Path,
) -> Result<(), ExportError> {
    let format = Format::of_path(path).ok_or_else(|| ExportError::Format(path.display().to_string()))?;
    let bytes = match format {
        Format::Png => png::encode(&png::paint_pixmap(list, pixels_per_point)?)?,
        Format::Svg => svg::to_svg(scene.unwrap_or(&Scene::default()), list, pixels_per_point).into_bytes(),
    };
    std::fs::write(path, bytes).map_err(|error| ExportError::Io { path: path.display().to_string(), error })
}

/// Writes what a window view shows, at two pixels per point of its size (at least 320×240
/// points): the app's "export the current view", for fat trees and runs alike.
pub fn write_view(
    scene: &Scene,
    camera: &Camera,
    points: (f32, f32),
    path: &Path,
) -> Result<(), ExportError> {
    const PPP: f32 = 2.0;
    let format = Format::of_path(path).ok_or_else(|| ExportError::Format(path.display().to_string()))?;
    let (w, h) = ((points.0.max(320.0) * PPP) as u32, (points.1.max(240.0) * PPP) as u32);
    let list = export_list(scene, camera, w, h, PPP);
    let bytes = match format {
        Format::Png => png::encode(&png::paint_pixmap(&list, PPP)?)?,
        Format::Svg => svg::to_svg(scene, &list, PPP).into_bytes(),
    };
    std::fs::write(path, bytes).map_err(|error| ExportError::Io { path: path.display().to_string(), error })
}

//! The links painted on the CPU into a texture, for a window on a software renderer (llvmpipe
//! or lavapipe: X forwarding, VNC, a login node without a GPU).
//!
//! There every frame's links were rasterised again by the renderer, and thin triangles are its
//! worst case: on two cores a frame of the bundled sample (6,000 halves) took about 0.5 s of CPU
//! time, the first frame of the k = 36 fabric (140,000 halves) 0.75 s. Here the export's own line
//! painter ([`crate::export::line_layer`]) paints them once, on the plot's background, into an
//! opaque image the size of the plot, which the renderer then draws as one textured rectangle
//! (the background around the plot is filled apart, so the plot's pixels are shaded once). The image is painted again only
//! when what it shows changes (keys, camera, plot size, pixel density), so hovering, menus and
//! panels cost a textured rectangle, and the window shows the pixels a PNG export shows.

use egui::{Color32, ColorImage, TextureHandle, TextureOptions};

use crate::export::line_layer::paint_lines;
use crate::export::line_raster::PixelRect;
use crate::scene::Scene;
use crate::scene::camera::{Camera, ScreenRect, Transform};
use crate::scene::draw::{link_lines, plot_rect};

use crate::modules::paint::rect_of;

/// One view's painted links and what they were painted for.
#[derive(Default)]
pub struct RasterLinks {
    painted: Option<Painted>,
    texture: Option<TextureHandle>,
}

/// What an image shows: equal values, equal pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Painted {
    /// The caller's versions of the scene (equal versions promise equal halves).
    versions: [u64; 2],
    camera: Camera,
    size: [usize; 2],
    pixels_per_point: f32,
}

impl RasterLinks {
    /// Adds the links of `scene`, drawn in `rect` (the whole view; they go in the plot inside
    /// it), to `painter` as an image; returns whether the image was painted anew this frame.
    /// `versions` change whenever the scene's halves may have (the GPU path's keys).
    pub fn paint(
        &mut self,
        painter: &egui::Painter,
        scene: &Scene,
        versions: [u64; 2],
        camera: &Camera,
        rect: egui::Rect,
    ) -> bool {
        let plot = plot_rect(rect.width(), rect.height());
        let shown = rect_of(plot, rect.min);
        let pixels_per_point = painter.ctx().pixels_per_point();
        let size =
            [(plot.w * pixels_per_point).round() as usize, (plot.h * pixels_per_point).round() as usize];
        if size[0] == 0 || size[1] == 0 {
            return false;
        }
        let wanted = Painted { versions, camera: *camera, size, pixels_per_point };
        let fresh = self.painted != Some(wanted) || self.texture.is_none();
        if fresh {
            let image = paint_image(scene, camera, [plot.w, plot.h], size, pixels_per_point);
            match self.texture.as_mut() {
                Some(texture) => texture.set(image, TextureOptions::NEAREST),
                None => {
                    let texture = painter.ctx().load_texture("shoal-links", image, TextureOptions::NEAREST);
                    self.texture = Some(texture);
                }
            }
            self.painted = Some(wanted);
        }
        if let Some(texture) = &self.texture {
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            painter.image(texture.id(), shown, uv, Color32::WHITE);
        }
        fresh
    }
}

/// The scene's link halves on its background, an image of `size` pixels covering a plot of
/// `plot` points: as the PNG export paints them.
fn paint_image(scene: &Scene, camera: &Camera, plot: [f32; 2], size: [usize; 2], s: f32) -> ColorImage {
    let t = Transform::new(camera, &scene.bounds, ScreenRect::new(0.0, 0.0, plot[0], plot[1]));
    let mut lines = Vec::new();
    link_lines(scene, &t, &mut lines);
    let [r, g, b, a] = scene.background.0;
    let premultiplied = |c: u8| ((u32::from(c) * u32::from(a) + 127) / 255) as u8;
    let background =
        Color32::from_rgba_premultiplied(premultiplied(r), premultiplied(g), premultiplied(b), a);
    // Painted in place: the image's pixels are premultiplied RGBA8, as the painter's are.
    let mut image = ColorImage::new(size, vec![background; size[0] * size[1]]);
    let clip = PixelRect { left: 0.0, top: 0.0, right: size[0] as f32, bottom: size[1] as f32 };
    paint_lines(bytemuck::cast_slice_mut(&mut image.pixels), size[0], &lines, s, clip);
    image
}

//! libibprof.so links shoal's library without its faces (issue 21): `model`, `profile_io`,
//! `routing` and the loads writer (`export::loads_file` and the `links` rows it writes), and no
//! clap, egui, epaint, tiny-skia, resvg or font code.
//!
//! Read from the ELF symbol table of the library cargo built beside this test: a function that
//! is linked has a symbol, and a symbol names its crate and module path (generic instances name
//! their type arguments' paths too). Raw strings are not read: the debug info of an object may
//! name types whose code was never linked.

use std::collections::BTreeSet;
use std::path::PathBuf;

/// Crates whose code has no business in an MPI collector.
const FORBIDDEN_CRATES: &[&str] = &[
    "clap",
    "clap_builder",
    "egui",
    "eframe",
    "epaint",
    "epaint_default_fonts",
    "egui_plot",
    "egui_wgpu",
    "wgpu",
    "tiny_skia",
    "tiny_skia_path",
    "resvg",
    "usvg",
    "ab_glyph",
    "ab_glyph_rasterizer",
    "ttf_parser",
    "owned_ttf_parser",
    "png",
];

/// The parts of shoal the collector may link: a module, or a module's file.
/// `export::csv_cell` disarms the loads writer's text cells (OWASP's rule, issue 24).
const SHOAL_ALLOWED: &[&str] =
    &["model", "profile_io", "routing", "units", "export::loads_file", "export::tables", "export::csv_cell"];

/// `target/<profile>/deps/libibprof.so`, built with this test.
fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("target/<profile>/deps");
    deps.join("libibprof.so")
}

/// The names in the `.symtab` (else `.dynsym`) of a 64-bit little-endian ELF file.
fn symbol_names(elf: &[u8]) -> Result<Vec<String>, String> {
    let u16_at = |at: usize| elf.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let u32_at = |at: usize| elf.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize);
    let u64_at = |at: usize| elf.get(at..at + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()) as usize);
    if elf.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 2, 1][..]) {
        return Err("not a 64-bit little-endian ELF file".into());
    }
    let bad = || "a section header lies outside the file".to_string();
    let (table, count) = (u64_at(0x28).ok_or_else(bad)?, u16_at(0x3c).ok_or_else(bad)?);
    let section = |i: usize| table + i * 64;
    let of_type = |kind: usize| (0..count).find(|&i| u32_at(section(i) + 4) == Some(kind));
    let symtab = of_type(2).or_else(|| of_type(11)).ok_or("no symbol table")?;
    let (offset, size) =
        (u64_at(section(symtab) + 0x18).ok_or_else(bad)?, u64_at(section(symtab) + 0x20).ok_or_else(bad)?);
    let strtab = section(u32_at(section(symtab) + 0x28).ok_or_else(bad)?);
    let strings = u64_at(strtab + 0x18).ok_or_else(bad)?;
    let mut names = Vec::new();
    for sym in (offset..offset + size).step_by(24) {
        let start = strings + u32_at(sym).ok_or_else(bad)?;
        let Some(tail) = elf.get(start..) else { continue };
        let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
        names.push(String::from_utf8_lossy(&tail[..end]).into_owned());
    }
    Ok(names)
}

/// The paths a legacy-mangled symbol names (`_ZN5shoal7routing5trace17h…E` → `shoal::routing::trace`,
/// and `$LT$shoal..model..Lid$GT$` inside it → `shoal::model::Lid`), each as its segments.
fn paths_in(symbol: &str) -> Vec<Vec<String>> {
    let Some(mut rest) = symbol.strip_prefix("_ZN") else { return Vec::new() };
    let mut idents = Vec::new();
    while let Some(digits) = rest.find(|c: char| !c.is_ascii_digit()).filter(|&d| d > 0) {
        let Ok(len) = rest[..digits].parse::<usize>() else { break };
        let Some(ident) = rest.get(digits..digits + len) else { break };
        idents.push(ident);
        rest = &rest[digits + len..];
    }
    let text = idents.join("::").replace("..", "::");
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .filter(|p| p.contains("::"))
        .map(|p| p.split("::").filter(|s| !s.is_empty()).map(String::from).collect())
        .collect()
}

/// What the symbols link that the collector must not: `crate clap` or `shoal::scene`.
fn forbidden_in(symbols: &[String]) -> (BTreeSet<String>, usize) {
    let mut found = BTreeSet::new();
    let mut shoal_paths = 0;
    for path in symbols.iter().flat_map(|s| paths_in(s)) {
        let Some(first) = path.first() else { continue };
        if FORBIDDEN_CRATES.contains(&first.as_str()) {
            found.insert(format!("crate {first}"));
        } else if first == "shoal" && path.len() > 2 {
            shoal_paths += 1;
            let (module, file) = (&path[1], format!("{}::{}", path[1], path[2]));
            if !SHOAL_ALLOWED.contains(&module.as_str()) && !SHOAL_ALLOWED.contains(&file.as_str()) {
                found.insert(format!("shoal::{file}"));
            }
        }
    }
    (found, shoal_paths)
}

#[test]
fn the_collector_links_shoals_model_readers_routing_and_loads_writer_only() {
    let path = library();
    let elf = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (build it: cargo build -p ibprof)", path.display()));
    let symbols = symbol_names(&elf).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (found, shoal_paths) = forbidden_in(&symbols);
    // Not vacuous: the in-situ tracer's routing code is in it, named as the check reads names.
    assert!(shoal_paths > 100, "only {shoal_paths} shoal paths among {} symbols", symbols.len());
    assert!(
        found.is_empty(),
        "{} links code it must not:\n{}",
        path.display(),
        Vec::from_iter(found).join("\n")
    );
}

#[test]
fn a_symbol_names_its_path_and_its_type_arguments_paths() {
    let symbol = "_ZN4core3ptr52drop_in_place$LT$shoal..export..png..Painter$GT$17h0123456789abcdefE";
    assert_eq!(
        paths_in(symbol),
        [vec!["core", "ptr", "drop_in_place"], vec!["shoal", "export", "png", "Painter"]]
    );
    let symbols = [
        symbol.to_string(),
        "_ZN9tiny_skia6pixmap6Pixmap3new17h0123456789abcdefE".to_string(),
        "_ZN5shoal6export10loads_file15write_loads_file17h0123456789abcdefE".to_string(),
        "_ZN5shoal7routing5trace5trace17h0123456789abcdefE".to_string(),
    ];
    let (found, shoal_paths) = forbidden_in(&symbols);
    assert_eq!(Vec::from_iter(found), ["crate tiny_skia", "shoal::export::png"]);
    assert_eq!(shoal_paths, 3);
}

//! `--loads`: a loads file (`shoal convert`'s links.csv, or what libibprof writes in situ) opens
//! wherever a profile does, with the same regions and link-end bytes the profile's trace gives.

use std::path::PathBuf;
use std::process::Command;

use shoal::export::tables::{JobLoads, TableFormat, link_rows, write_table};
use shoal::model::Warning;
use shoal::view_model::dataset::Attribution;
use shoal::view_model::dataset::FabricData;
use shoal::view_model::{OpenRequest, open};

fn tworail() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail")
}

fn rails() -> Vec<Vec<PathBuf>> {
    vec![vec![tworail().join("rail0")], vec![tworail().join("rail1")]]
}

/// The sample opened with its profile, or with a loads file instead, and the warnings.
fn opened(profile: Option<PathBuf>, loads: Option<PathBuf>) -> (FabricData, Vec<Warning>) {
    let request = OpenRequest { profile, loads, ..OpenRequest::of_rails(rails()) };
    let dataset = open(&request, &|_| {}).unwrap();
    (dataset.fabric.unwrap(), dataset.warnings)
}

/// `shoal convert`'s links.csv of the sample profile, written to a temporary file.
fn converted_links(name: &str) -> PathBuf {
    let (analysis, _) = opened(Some(tworail().join("samplesort.ibprof.gz")), None);
    let loads = &analysis.loads;
    let rows = link_rows(&analysis.cluster, &[JobLoads { name: "samplesort", loads }], &loads.total, None);
    let path = std::env::temp_dir().join(format!("shoal-loads-{}-{name}.csv", std::process::id()));
    write_table(&rows, TableFormat::Csv, std::fs::File::create(&path).unwrap()).unwrap();
    path
}

#[test]
fn a_converted_links_table_reads_back_to_the_profiles_loads_region_for_region() {
    let links = converted_links("same");
    let (traced, _) = opened(Some(tworail().join("samplesort.ibprof.gz")), None);
    let (read, warnings) = opened(None, Some(links.clone()));
    let (a, b) = (&traced.loads, &read.loads);
    assert_eq!(a.regions.len(), b.regions.len());
    for (x, y) in a.regions.iter().chain([&a.total]).zip(b.regions.iter().chain([&b.total])) {
        assert_eq!(x.region, y.region);
        for (rx, ry) in x.rails.iter().zip(&y.rails) {
            assert_eq!(rx.bytes, ry.bytes);
        }
    }
    let about_loads = warnings.iter().filter(|w| w.to_string().contains("shoal-loads"));
    assert_eq!(about_loads.count(), 0, "{warnings:?}");
    std::fs::remove_file(links).ok();
}

#[test]
fn the_window_data_set_from_a_loads_file_has_regions_and_says_it_has_no_pairs() {
    let links = converted_links("window");
    let request = OpenRequest { loads: Some(links.clone()), ..OpenRequest::of_rails(rails()) };
    let dataset = open(&request, &|_| {}).unwrap();
    assert!(!dataset.regions().is_empty());
    let fabric = dataset.fabric.as_ref().unwrap();
    assert_eq!(fabric.attribution, Attribution::None);
    assert!(fabric.loads.total.rails[0].bytes.used() > 0);
    std::fs::remove_file(links).ok();
}

#[test]
fn hot_and_convert_take_loads_instead_of_a_profile() {
    let links = converted_links("cli");
    let r0 = tworail().join("rail0").display().to_string();
    let r1 = tworail().join("rail1").display().to_string();
    let hot = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["hot", &r0, &r1, "--loads", &links.display().to_string(), "--top", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&hot.stdout);
    assert!(hot.status.success(), "{}", String::from_utf8_lossy(&hot.stderr));
    assert!(text.contains("no top-K summary"), "{text}");
    assert!(text.contains("Busiest link ends in the whole run"), "{text}");
    let out = std::env::temp_dir().join(format!("shoal-loads-convert-{}", std::process::id()));
    let convert = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args([
            "convert",
            &r0,
            &r1,
            "--loads",
            &links.display().to_string(),
            "--out",
            &out.display().to_string(),
        ])
        .output()
        .unwrap();
    assert!(convert.status.success(), "{}", String::from_utf8_lossy(&convert.stderr));
    let again = std::fs::read_to_string(out.join("links.csv")).unwrap();
    assert_eq!(again, std::fs::read_to_string(&links).unwrap(), "convert --loads rewrites the same table");
    std::fs::remove_dir_all(out).ok();
    std::fs::remove_file(links).ok();
}

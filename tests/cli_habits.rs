//! The first five minutes on the command line (issue 25): the bundled sample opens without a
//! warning, choices between equivalent dumps are info lines shown with `-v`, `hot` and `info`
//! speak JSON, `hot` explains its columns, `query` names its columns, completions and man pages
//! come from the one flag definition, and piped output carries no progress bar.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn hot(extra: &[&str]) -> (bool, String, String) {
    shoal(&[&["hot", RAILS[0], RAILS[1], "--profile", PROFILE, "--region", "2"][..], extra].concat())
}

#[test]
fn the_bundled_sample_opens_with_no_warning() {
    let dataset = shoal::view_model::open(&shoal::view_model::OpenRequest::sample(), &|_| {}).unwrap();
    let warned: Vec<_> = dataset.warnings.iter().filter(|w| !w.is_info()).collect();
    assert!(warned.is_empty(), "{warned:?}");
    let (ok, out, err) = shoal(&["info", RAILS[0], RAILS[1]]);
    assert!(ok, "{err}");
    assert!(err.is_empty(), "nothing on stderr: {err}");
    assert_eq!(out.matches("  0 warnings").count(), 2, "{out}");
    let (ok, _, err) = hot(&["--top", "1"]);
    assert!(ok && !err.contains("warning"), "{err}");
}

#[test]
fn the_table_dump_not_read_is_an_info_line_shown_with_verbose() {
    let (_, out, _) = shoal(&["info", RAILS[0]]);
    assert!(!out.contains("is not read"), "{out}");
    let (_, out, _) = shoal(&["info", "-v", RAILS[0]]);
    assert!(out.contains("info: sample-data/tworail/rail0: using the .fdbs forwarding tables;"), "{out}");
    assert!(out.contains("opensm-lfts.dump.gz is not read"), "{out}");
    let (ok, _, err) = hot(&["--top", "1", "-v"]);
    assert!(ok, "{err}");
    assert!(err.lines().any(|l| l.starts_with("info: ") && l.ends_with("is not read")), "{err}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn hot_json_holds_the_ends_of_the_table_in_its_order() {
    let (ok, table, err) = hot(&["--top", "4", "--pairs", "2"]);
    assert!(ok, "{err}");
    let (ok, json, err) = hot(&["--top", "4", "--pairs", "2", "--json"]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
    assert_eq!(json["title"], "region 2 \"exchange\"");
    assert_eq!(json["ranked_by"], "bytes");
    let ends = json["ends"].as_array().unwrap();
    assert_eq!(ends.len(), 4);
    assert_eq!(ends[0]["share_percent"], 100.0);
    let rows: Vec<&str> = table.lines().filter(|l| l.trim_end().ends_with('%')).collect();
    for (end, row) in ends.iter().zip(rows) {
        let link = format!(
            "{} ({}) -> {} ({})",
            end["from"].as_str().unwrap(),
            end["from_port"],
            end["to"].as_str().unwrap(),
            end["to_port"]
        );
        assert!(row.contains(&link), "{row} names {link}");
        assert_eq!(end["pairs"].as_array().unwrap().len(), 2);
        let bytes = end["bytes"].as_u64().unwrap();
        assert!(bytes > 0 && bytes <= ends[0]["bytes"].as_u64().unwrap());
    }
}

#[test]
fn hot_says_what_its_columns_mean_in_help_and_over_the_heads() {
    let (ok, help, _) = shoal(&["hot", "--help"]);
    assert!(ok);
    assert!(help.contains("`share` its bytes as a percentage of the busiest end's"), "{help}");
    let (_, table, _) = hot(&["--top", "1"]);
    let heads = table.lines().position(|l| l.trim_start().starts_with("#  rail")).expect(&table);
    let legend = table.lines().nth(heads - 1).unwrap();
    assert!(legend.contains("share: its bytes as a percentage of the busiest end's"), "{legend}");
}

#[test]
fn info_json_counts_each_rail_and_keeps_notes_apart_from_warnings() {
    let (ok, out, err) = shoal(&["info", "--json", RAILS[0], RAILS[1]]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let rail0 = &json["rails"][0];
    assert_eq!(rail0["hosts"], 230);
    assert_eq!(rail0["switches"], 80);
    assert_eq!(rail0["highest_lid"], "0x0136");
    assert_eq!(rail0["ca_pairs"]["delivered"], rail0["ca_pairs"]["pairs"]);
    assert_eq!(rail0["warnings"].as_array().unwrap().len(), 0);
    assert!(rail0["notes"][0]["message"].as_str().unwrap().ends_with("opensm-lfts.dump.gz is not read"));
    assert_eq!(json["cluster"]["hosts"], 230);
    assert_eq!(json["cluster"]["on_every_rail"], 224);
}

#[test]
fn trace_json_is_one_json_object_with_the_hops() {
    let (ok, out, err) = shoal(&["trace", RAILS[0], "--from", "0x0118", "--to", "0x010c", "--json"]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert!(json.is_object(), "{out}");
}

#[test]
fn query_names_its_two_columns_by_item_and_value() {
    let args = ["query", "sample-data/torus8/torus8_meta.yaml", "--domain", "links", "--agg", "mean"];
    let (ok, out, err) = shoal(&[&args[..], &["--attr", "packets"]].concat());
    assert!(ok, "{err}");
    assert_eq!(out.lines().next(), Some("link,mean_packets"));
    let (ok, out, err) = shoal(&[
        "query",
        RAILS[0],
        "--profile",
        PROFILE,
        "--domain",
        "nodes",
        "--agg",
        "max",
        "--attr",
        "level",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().next(), Some("node,max_level"));
}

#[test]
fn completions_for_bash_zsh_and_fish_know_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        let (ok, script, err) = shoal(&["completions", shell]);
        assert!(ok, "{shell}: {err}");
        for sub in ["convert", "hot", "info", "render", "trace", "completions", "man"] {
            assert!(script.contains(sub), "{shell} completes {sub}");
        }
    }
    let (_, bash, _) = shoal(&["completions", "bash"]);
    assert!(bash.contains("complete -F _shoal"), "a bash completion function");
    let (ok, _, err) = shoal(&["completions", "tcsh"]);
    assert!(!ok && err.contains("bash"), "an unknown shell lists the known ones: {err}");
}

#[test]
fn man_prints_a_roff_page_and_writes_one_per_subcommand() {
    let (ok, page, err) = shoal(&["man"]);
    assert!(ok, "{err}");
    assert!(page.contains(".TH shoal 1"), "{page}");
    assert!(page.contains("hot"), "subcommands are listed");
    let dir = std::env::temp_dir().join(format!("shoal-man-{}", std::process::id()));
    let (ok, _, err) = shoal(&["man", "--out", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    let hot = std::fs::read_to_string(dir.join("shoal-hot.1")).expect("shoal-hot.1");
    assert!(hot.contains("\\-\\-json"), "hot's page lists --json");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn piped_output_carries_no_progress_bar() {
    let dir = std::env::temp_dir().join(format!("shoal-gen-quiet-{}", std::process::id()));
    let (ok, out, err) = shoal(&[
        "gen",
        "--k",
        "8",
        "--rails",
        "2",
        "--ranks",
        "64",
        "--peers",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // What the profile will take is said before writing (issue 24); a bar is not drawn.
    assert!(err.lines().all(|l| l.contains("free on")), "nothing else on stderr when piped: {err:?}");
    assert!(!err.contains('\r') && !err.contains('\u{1b}'), "no bar drawn into stderr: {err:?}");
    assert_eq!(out.lines().count(), 3, "one line per rail and the profile: {out}");
    assert!(!out.contains('\r') && !out.contains('\u{1b}'), "no bar drawn into stdout");
    std::fs::remove_dir_all(&dir).unwrap();
}

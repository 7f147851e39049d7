//! Subcommands. Each file parses nothing itself: clap hands it validated arguments.

pub mod common;
pub mod convert;
pub mod r#gen;
pub mod health;
pub mod hot;
mod hot_health;
mod hot_json;
mod hot_routing;
pub mod info;
mod info_summary;
pub mod jobs;
pub mod locality;
pub mod matrix;
mod matrix_flags;
pub mod open_args;
mod output_size;
pub mod pattern;
pub mod progress;
pub mod query;
pub mod render;
pub mod render_args;
pub mod render_congestion;
pub mod render_matrix;
mod render_paint;
mod render_session;
pub mod render_spec;
pub mod render_strip;
pub mod route;
pub mod route_traffic;
pub mod shell;
pub mod trace;
pub mod trace_ar;
pub mod why;

pub const EXAMPLES: &str = "\
Examples:
  shoal convert sample-data/tworail/rail0 sample-data/tworail/rail1 \\
      --profile sample-data/tworail/samplesort.ibprof.gz --out /tmp/out
  shoal trace sample-data/tworail/rail0 --from 0x0012 --to 0x0040 --json
  shoal hot sample-data/tworail/rail0 sample-data/tworail/rail1 \\
      --profile sample-data/tworail/samplesort.ibprof.gz --region 2 --top 20
  shoal convert RAIL0 RAIL1 --job md=md.ibprof --job io=ior.ibprof --place io=random-switch:7 --out /tmp/o
  shoal hot RAIL0 RAIL1 --job md=md.ibprof --job io=ior.ibprof --contended --top 20
  shoal pattern alltoall --ranks 512 --bytes 1MiB --out a2a.ibprof
  shoal info sample-data/tworail/rail0 sample-data/tworail/rail1
  shoal health RAIL0 --counters before.txt --counters after.txt --json
  shoal why RAIL0 --profile P --counters before.txt --counters after.txt --region 1
  shoal gen --k 36 --rails 2 --out /tmp/k36
  shoal route sample-data/tworail/rail0 --engine dmodk --out /tmp/rail0-dmodk
  shoal matrix RAIL0 RAIL1 --profile P --by host --region 2 --out m.csv
  shoal query sample-data/torus8/torus8_meta.yaml --domain links \
      --where 'code_region = 1' --agg mean --attr packets
  shoal query RAIL0 RAIL1 --profile P --rail-policy rail:0 --domain links --attr bytes
  shoal render RAIL0 RAIL1 --profile P --host-map MAP --out v.png --save-session case/s.yaml
  shoal render --session case/s.yaml --view 1 --out again.png
  shoal case/s.yaml";

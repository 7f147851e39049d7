//! Readers and writers, one file per format. Each reader returns model types plus the
//! [`Warning`](crate::model::Warning)s for what it skipped: `Result<(T, Vec<Warning>), ParseError>`.

mod aligned_read;
pub mod boxfish;
pub mod boxfish_network;
mod boxfish_rows;
pub mod boxfish_table;
mod boxfish_yaml;
pub mod classify;
pub mod counters;
pub mod db_csv_speeds;
pub mod discover;
pub mod dump_kind;
pub mod error;
pub mod fdbs;
pub mod host_map;
pub mod ibdiagnet2_ar_info;
pub mod ibdiagnet2_csv;
pub mod ibdiagnet2_far;
pub mod ibdiagnet_lst;
pub mod ibnetdiscover;
pub mod ibnetdiscover_ports;
pub mod ibprof;
pub mod ibroute;
pub mod input;
pub mod lfts_dump;
pub mod line_warnings;
pub mod lines;
pub mod loads_file;
pub mod opensm_write;
pub mod pfprof;
pub mod plane_csv;
pub mod profiles;
pub mod prometheus_api;
pub mod rail;
pub mod rail_bundle;
pub mod recognise;
pub mod runs;
pub mod slurm;
pub mod special;
pub mod stray;
pub mod stream;
pub mod table_checks;
pub mod tables;
#[cfg(test)]
pub(crate) mod test_files;

pub use error::ParseError;
pub use input::Input;
pub use rail::{load_cluster, load_rail};
pub use runs::load_run;

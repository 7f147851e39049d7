//! Jobs from the Slurm scheduler (issue 26): `sacct --parsable2` output and the hostlist
//! syntax of its NodeList column.

pub mod hostlist;
pub mod sacct;

pub use sacct::{SlurmJob, read_sacct};

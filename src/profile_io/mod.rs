//! Readers and writers, one file per format. Each reader returns model types plus the
//! [`Warning`](crate::model::Warning)s for what it skipped: `Result<(T, Vec<Warning>), ParseError>`.

pub mod error;
pub mod export_tables;

pub use error::ParseError;

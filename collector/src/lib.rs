//! libibprof (placeholder until the collector issue lands).

//! End-to-end tests for Sevenbag live in `tests/tests/`; this library holds their shared helpers.
#![deny(missing_docs)]

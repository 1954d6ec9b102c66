//! Why the server could not run: [`ServerError`].

use std::path::PathBuf;

use crate::cluster::ClusterError;
use crate::moderation::AdminTokenError;
use crate::tls::TlsError;
use crate::web::WebDirError;

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The replay directory could not be created or read.
    #[error("cannot use replay directory {path}: {source}")]
    ReplayDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Db(#[from] sevenbag_storage::StorageError),
    /// The TLS certificate or key could not be loaded.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The room log directory could not be created.
    #[error("cannot use room log directory {path}: {source}")]
    RoomLogDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The cluster could not be joined (`--redis`, `--public-url`).
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The metrics registry refused a metric (a server bug).
    #[error("cannot set up metrics: {0}")]
    Metrics(String),
    /// The web directory (`--web-dir`) is missing or holds no `index.html`.
    #[error(transparent)]
    WebDir(#[from] WebDirError),
    /// The server task panicked or was cancelled.
    #[error("server task failed: {0}")]
    Task(String),
    /// The admin token file (`--admin-token-file`) is missing or malformed.
    #[error(transparent)]
    AdminTokens(#[from] AdminTokenError),
}

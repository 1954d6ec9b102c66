//! What a connection task (and the HTTP routes) share: the [`Services`] rooms share too, the
//! [`Lobby`] and this instance's cluster membership. The top of the module graph below the
//! accept loop: nothing it holds imports it.

use std::ops::Deref;
use std::sync::Arc;

use crate::cluster::Cluster;
use crate::datagram::DatagramService;
use crate::lobby::Lobby;
use crate::moderation::Moderation;
use crate::services::Services;
use crate::social::PresenceBook;

/// State shared by every connection task and HTTP route.
#[derive(Debug)]
pub(crate) struct Shared {
    /// What rooms share too (configuration, stores, metrics, shutdown).
    pub(crate) services: Arc<Services>,
    /// Rooms, tokens and the quick-match and ranked queues.
    pub(crate) lobby: Arc<Lobby>,
    /// This instance's cluster membership (`--redis`), if any.
    pub(crate) cluster: Option<Arc<Cluster>>,
    /// Sanctions in force, live identities, admin tokens (`crate::moderation`).
    pub(crate) moderation: Arc<Moderation>,
    /// The datagram path (WebTransport on the port's UDP twin), if it runs.
    pub(crate) datagrams: Option<Arc<DatagramService>>,
    /// Where this instance's identified players are, for their friends (`crate::social`).
    pub(crate) presence: Arc<PresenceBook>,
}

impl Shared {
    /// Connection state around `services`: a fresh lobby that reports its room codes to
    /// `cluster`, if any, `moderation`, and the datagram path.
    pub(crate) fn new(
        services: Services,
        cluster: Option<Arc<Cluster>>,
        moderation: Arc<Moderation>,
        datagrams: Option<Arc<DatagramService>>,
    ) -> Shared {
        let services = Arc::new(services);
        let codes = cluster.clone().map(crate::cluster::code_book);
        let lobby = Arc::new(Lobby::new(services.clone(), codes));
        Shared {
            services,
            lobby,
            cluster,
            moderation,
            datagrams,
            presence: Arc::default(),
        }
    }
}

/// Connections read the services' fields directly (`shared.config`, `shared.metrics`, ...).
impl Deref for Shared {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}

//! Sevenbag's wire protocol: one message enum per direction and the codec that frames them.
//!
//! Every WebSocket binary message between a client and the server is one value of these enums,
//! encoded with bincode 2 under a size limit; the protocol version travels in the first message.
#![deny(missing_docs)]

//! cardroom's gRPC contract, package `cardroom.v1` (`proto/cardroom/v1/cardroom.proto`), as
//! generated Rust: messages, the `Cardroom` client and server; and [`wire`], the one
//! conversion layer between the rules engines' types and the contract, which the server and the
//! SDK share.
//!
//! The rules engines never see protobuf; this crate knows them, not the other way round.

/// The generated code of `cardroom.v1`.
#[allow(missing_docs, unreachable_pub, clippy::all, clippy::pedantic)]
pub mod pb {
    tonic::include_proto!("cardroom.v1");
    // The proto3 JSON mapping of every message, as serde impls (feature `json`).
    #[cfg(feature = "json")]
    include!(concat!(env!("OUT_DIR"), "/cardroom.v1.serde.rs"));

    /// The encoded file descriptor set of the contract, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/cardroom_descriptor.bin"));
}

/// The `Cardroom` service as the server implements it: the generated trait and server of
/// [`pb`]'s messages, except that a `Play` stream sends [`frame::ServerFrame`]s, each
/// `ServerMessage` encoded by the server itself.
#[allow(missing_docs, unreachable_pub, clippy::all, clippy::pedantic)]
pub mod server {
    include!(concat!(env!("OUT_DIR"), "/server/cardroom.v1.rs"));
}

pub mod codec;
pub mod frame;
pub mod wire;

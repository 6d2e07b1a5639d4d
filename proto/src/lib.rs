//! cardroom's gRPC contract, package `cardroom.v1` (`proto/cardroom/v1/cardroom.proto`), as
//! generated Rust: messages, the `Cardroom` client and server.
//!
//! Only this crate, the server and the SDKs know protobuf; the rules engines never do.

/// The generated code of `cardroom.v1`.
#[allow(missing_docs, unreachable_pub, clippy::all, clippy::pedantic)]
pub mod pb {
    tonic::include_proto!("cardroom.v1");

    /// The encoded file descriptor set of the contract, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/cardroom_descriptor.bin"));
}

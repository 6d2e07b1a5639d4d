//! Compiles `cardroom/v1/*.proto` with protox (pure Rust: no `protoc` needed) and writes the
//! file descriptor set for server reflection.

use std::path::PathBuf;

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos =
        ["cardroom/v1/cardroom.proto", "cardroom/v1/nodes.proto", "cardroom/v1/runners.proto"];
    for proto in protos {
        println!("cargo:rerun-if-changed={proto}");
    }
    let descriptors = protox::compile(protos, ["."])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let encoded = descriptors.encode_to_vec();
    std::fs::write(out.join("cardroom_descriptor.bin"), &encoded)?;
    // With the `json` feature, serde impls in the proto3 JSON mapping (`cardroom.v1.serde.rs`),
    // every field written, defaults included, so a script finds each one.
    #[cfg(feature = "json")]
    pbjson_build::Builder::new()
        .register_descriptors(&encoded)?
        .emit_fields()
        .build(&[".cardroom.v1"])?;
    // The generated client and server encode and decode through `codec::SliceCodec`: prost's
    // bytes, read from one slice rather than through tonic's buffer (src/codec.rs says why).
    tonic_prost_build::configure()
        .codec_path("crate::codec::SliceCodec")
        // A game view's last hand result and the match's outcome (every field named
        // `last_result` or `outcome`, whatever its message) are nested messages several levels
        // deep, set once a hand or the match has ended; inline, Gin Rummy's made its
        // observation 632 bytes and every `ServerMessage` 760, copied whole at each move
        // between the match task, the stream and the codec.
        .boxed("last_result")
        .boxed("outcome")
        // The server's side is generated below, with its `Play` stream of frames.
        .build_server(false)
        .compile_fds(descriptors.clone())?;
    // The server's service (`crate::server`): every message is `crate::pb`'s, but the `Play`
    // stream sends `ServerMessage`s the server has encoded itself (`crate::frame`).
    let server = out.join("server");
    std::fs::create_dir_all(&server)?;
    tonic_prost_build::configure()
        .codec_path("crate::codec::SliceCodec")
        .build_client(false)
        .out_dir(&server)
        .extern_path(".cardroom.v1", "crate::pb")
        .extern_path(".cardroom.v1.ServerMessage", "crate::frame::ServerFrame")
        .compile_fds(descriptors)?;
    Ok(())
}

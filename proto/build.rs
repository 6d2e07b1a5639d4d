//! Compiles `cardroom/v1/*.proto` with protox (pure Rust: no `protoc` needed) and writes the
//! file descriptor set for server reflection.

use std::path::PathBuf;

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = ["cardroom/v1/cardroom.proto"];
    for proto in protos {
        println!("cargo:rerun-if-changed={proto}");
    }
    let descriptors = protox::compile(protos, ["."])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("cardroom_descriptor.bin"), descriptors.encode_to_vec())?;
    // The generated client and server encode and decode through `codec::SliceCodec`: prost's
    // bytes, read from one slice rather than through tonic's buffer (src/codec.rs says why).
    tonic_prost_build::configure()
        .codec_path("crate::codec::SliceCodec")
        .compile_fds(descriptors)?;
    Ok(())
}

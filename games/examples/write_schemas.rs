//! Writes the JSON Schema of every serialized form (`cardroom_games::schema::all`) to
//! `docs/schema/`, or to the folder given as the only argument:
//!
//! ```text
//! cargo run -p cardroom-games --features schema --example write_schemas
//! ```
//!
//! The tests compare the committed files with what this writes: rerun it after changing a
//! serialized type.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir = match std::env::args_os().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/schema"),
    };
    std::fs::create_dir_all(&dir)?;
    for file in cardroom_games::schema::all() {
        let path = dir.join(file.file_name());
        std::fs::write(&path, file.to_pretty_json())?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

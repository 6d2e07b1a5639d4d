//! A `Turn`'s observation on the wire: prost's typed tree against the bytes written and read
//! field by field (`WireGame::encode_observation`, `decode_observation`).
//!
//! Run with `cargo bench -p cardroom-proto --bench observation`. Each position is a match record
//! in `benches/observations/` (`GAME_POSITION.json`, written with `AnyRecord::to_json`),
//! replayed; the observation is the seat to act's at its end. Each is benched in the compact
//! form the Rust SDK asks for (`Omit.json`, `Omit.cards` and `Omit.known_cards`: cards as codes)
//! and with `Card` messages (`Omit.json` alone); the JSON form is serde's either way and left
//! out. The groups are `GAME_observation/POSITION_FORM`. Each writes the observation by prost's
//! tree and by the bytes, reads it both ways, and converts prost's decoded view alone
//! (`from_pb_only`, `observation_from_pb`), which both readers end in: what is left of
//! `decode_bytes` once it is taken off is the reading of the bytes.
//!
//! The positions, each found by a seeded search of random play (ChaCha8 seeded 9, match seeds
//! from 0): Gin Rummy's, the seat to act in the middle of a hand (nine cards in the discard
//! pile) of the first hand (`first_hand`), and of a hand after one that ended in a knock
//! (`after_knock`, where the players knock whenever they can: the view carries the knock's
//! showdown, melds and layout, as it does for the rest of the match once a hand ends so).
//! Twenty-Two's, the seat to act in the play of the second deal once three tricks are done (the
//! view carries the tricks, the first deal's result and the dealer draw), at tables of 4 and 12
//! seats (`4_seats`, `12_seats`).

use std::hint::black_box;
use std::path::{Path, PathBuf};

use cardroom_games::AnyRecord;
use cardroom_proto::pb;
use cardroom_proto::wire::WireGame;
use criterion::{Criterion, criterion_group, criterion_main};
use prost::Message;

/// The observation of the seat to act at the end of `record`, with the match's options.
fn position<G: WireGame>(path: &Path, record: AnyRecord) -> (G::Observation, G::Options) {
    let shown = path.display();
    let Some(record) = record.downcast::<G>() else { panic!("{shown}: not a {} record", G::NAME) };
    let state = record.replay().unwrap_or_else(|err| panic!("{shown} does not replay: {err}"));
    let Some(seat) = state.to_act() else { panic!("{shown}: the match is over") };
    (state.observation(seat), *state.options())
}

/// The benches of one observation in one form: written and read, by prost's tree and by the
/// bytes, and the conversion of prost's decoded view alone.
fn bench_observation<G: WireGame>(
    c: &mut Criterion,
    name: &str,
    observation: &G::Observation,
    options: &G::Options,
    omit: &pb::Omit,
) {
    let mut group = c.benchmark_group(name);
    let mut buf = Vec::with_capacity(4096);
    group.bench_function("encode_prost", |b| {
        b.iter(|| {
            buf.clear();
            let wire = G::observation_to_pb(black_box(observation), omit);
            wire.encode_raw(&mut buf);
            buf.len()
        })
    });
    group.bench_function("encode_bytes", |b| {
        b.iter(|| {
            buf.clear();
            G::encode_observation(black_box(observation), omit, &mut buf);
            buf.len()
        })
    });
    let bytes = G::observation_to_pb(observation, omit).encode_to_vec();
    group.bench_function("decode_prost", |b| {
        b.iter(|| {
            let Ok(wire) = pb::Observation::decode(black_box(&bytes[..])) else { unreachable!() };
            G::observation_from_pb(&wire, &[], options)
        })
    });
    group.bench_function("decode_bytes", |b| {
        b.iter(|| G::decode_observation(black_box(&bytes), &[], options))
    });
    let Ok(tree) = pb::Observation::decode(&bytes[..]) else { unreachable!() };
    group.bench_function("from_pb_only", |b| {
        b.iter(|| G::observation_from_pb(black_box(&tree), &[], options))
    });
    group.finish();
}

/// The benches of the position `record` (from `path`) in both forms.
fn bench_position<G: WireGame>(c: &mut Criterion, path: &Path, record: AnyRecord) {
    let compact = pb::Omit {
        json: true,
        cards: true,
        known_cards: true,
        legal_actions: true,
        ..pb::Omit::default()
    };
    let messages = pb::Omit { json: true, ..pb::Omit::default() };
    let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let position_name = stem.strip_prefix(G::NAME).and_then(|rest| rest.strip_prefix('_'));
    let Some(position_name) = position_name else {
        panic!(
            "{}: a {} position's file is named {}_POSITION.json",
            path.display(),
            G::NAME,
            G::NAME
        )
    };
    let (observation, options) = position::<G>(path, record);
    for (form, omit) in [("compact", compact), ("messages", messages)] {
        let name = format!("{}_observation/{position_name}_{form}", G::NAME);
        bench_observation::<G>(c, &name, &observation, &options, &omit);
    }
}

fn observation_benches(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/observations");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let json = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let record = AnyRecord::from_json(&json)
            .unwrap_or_else(|err| panic!("{}: not a record: {err}", path.display()));
        cardroom_games::with_game!(record.kind(), G => bench_position::<G>(c, &path, record));
    }
}

criterion_group!(benches, observation_benches);
criterion_main!(benches);

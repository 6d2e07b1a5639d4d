//! Arbitrary bytes as a JSON `Record`: parse, replay, re-serialize, replay again, play on
//! (`checks::record_json`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cardroom_fuzz::checks::record_json(data));

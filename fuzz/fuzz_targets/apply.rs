//! Arbitrary scripts of listed and raw actions on matches of both games with arbitrary options
//! and seeds (`checks::apply_script`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|script: cardroom_fuzz::checks::Script| cardroom_fuzz::checks::apply_script(&script));

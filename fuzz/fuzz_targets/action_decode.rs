//! Arbitrary bytes as a bot's `BotMessage`, decoded as the match task does and applied to a
//! match of each game (`cardroom_server::fuzzing::bot_message`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cardroom_server::fuzzing::bot_message(data));

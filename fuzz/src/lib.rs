//! The cargo-fuzz targets' shared code. The engines' properties live in
//! `games/tests/common/checks.rs` and are included here by path, so that the proptest suite
//! `games/tests/fuzz_props.rs` and the `record` and `apply` targets check the very same code;
//! the `action_decode` property is `cardroom_server::fuzzing`. This crate adds only how
//! `arbitrary` builds the `apply` target's scripts.

use arbitrary::{Arbitrary, Unstructured};

#[path = "../../games/tests/common/checks.rs"]
pub mod checks;

use checks::{Script, Step};

impl<'a> Arbitrary<'a> for Step {
    /// Three listed actions for each raw one: a match must move on to reach its later phases.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Step> {
        Ok(if u.ratio(3, 4)? {
            Step::Legal(u.arbitrary()?)
        } else {
            Step::Raw { seat: u.arbitrary()?, kind: u.arbitrary()?, cards: u.arbitrary()? }
        })
    }
}

impl<'a> Arbitrary<'a> for Script {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Script> {
        Ok(Script {
            game: u.arbitrary()?,
            players: u.arbitrary()?,
            options: u.arbitrary()?,
            seed: u.arbitrary()?,
            steps: u.arbitrary_iter()?.collect::<arbitrary::Result<_>>()?,
        })
    }
}

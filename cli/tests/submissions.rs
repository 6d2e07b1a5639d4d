//! `cardroom bots submit` and `cardroom bots submissions` against the stock `cardroom serve` on
//! `127.0.0.1:0`: a directory submitted with the bot's key and by the organizer, the same tree
//! twice as one submission, a newer one first in the list and among the bot's versions, and a
//! wrong or another bot's key, or an archive over `--max-submission-entries`, refused with its
//! code.

#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

mod support;

use support::{Reaped, add_bot, listening_address};

const ADMIN: &str = "T";

/// `cardroom bots ARGS`, run to its end.
fn bots(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardroom")).arg("bots").args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The stdout of a command that must succeed.
fn ok(args: &[&str]) -> String {
    let output = bots(args);
    assert!(output.status.success(), "bots {args:?}: {}", text(&output.stderr));
    text(&output.stdout)
}

/// The stderr of a command that must fail.
fn refused(args: &[&str]) -> String {
    let output = bots(args);
    assert!(!output.status.success(), "bots {args:?} succeeded: {}", text(&output.stdout));
    text(&output.stderr)
}

#[test]
fn a_directory_is_submitted_by_its_author_or_the_organizer_and_listed_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let store = format!("sqlite:{}", dir.path().join("store.db").display());
    let (alice, bob) = (add_bot(&store, "alice"), add_bot(&store, "bob"));
    let mut server = Reaped(
        Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--store", &store, "--admin-token", ADMIN])
            .args(["--max-submission-entries", "5"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let url = format!("http://{}", listening_address(&mut server));

    let code = dir.path().join("bot");
    std::fs::create_dir_all(code.join("lib")).unwrap();
    std::fs::write(code.join("bot.py"), "print('one')\n").unwrap();
    std::fs::write(code.join("lib/util.py"), "").unwrap();
    std::os::unix::fs::symlink("../bot.py", code.join("lib/main.py")).unwrap();
    let code_path = code.to_str().unwrap();
    let first = cardroom_store::sha256_hex(&cardroom_store::pack_dir(&code).unwrap());

    let submit = ["submit", "alice", code_path, "--server", &url, "--run", "python3 bot.py"];
    let out = ok(&[&submit[..], &["--key", &alice]].concat());
    assert!(out.starts_with(&format!("alice version {first} (")), "{out}");
    assert!(out.contains(": submitted;"), "{out}");
    // The same tree again, by the organizer, its words after `--`: the same version.
    let out = ok(&[
        "submit",
        "alice",
        code_path,
        "--server",
        &url,
        "--admin-token",
        ADMIN,
        "--",
        "python3",
        "-u",
        "bot.py",
    ]);
    assert!(
        out.contains(&format!("version {first} ")) && out.contains("submitted before"),
        "{out}"
    );

    std::fs::write(code.join("bot.py"), "print('two')\n").unwrap();
    let second = cardroom_store::sha256_hex(&cardroom_store::pack_dir(&code).unwrap());
    assert_ne!(first, second);
    ok(&[&submit[..], &["--key", &alice]].concat());

    let csv = ok(&["submissions", "alice", "--server", &url, "--format", "csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "version,submitted,by,bytes,unpacked,run,archive");
    assert!(lines[1].starts_with(&format!("{second},")) && lines[1].contains(",bot,"), "{csv}");
    assert!(lines[2].starts_with(&format!("{first},")) && lines[2].contains(",admin,"), "{csv}");
    assert!(lines[2].contains(",python3 -u bot.py,kept"), "{csv}");
    assert_eq!(lines.len(), 3, "{csv}");
    let table = ok(&["submissions", "alice", "--server", &url]);
    assert!(
        table.contains(&format!("\n{} ", &second[..12])) && !table.contains(&second),
        "{table}"
    );
    // Both versions are the bot's, where `cardroom bots list` shows versions.
    let list = ok(&["list", "--store", &store, "--format", "csv"]);
    assert!(list.contains(&format!("{first} {second}")), "{list}");

    let wrong = refused(&[&submit[..], &["--key", "crk_nobodys"]].concat());
    assert!(wrong.contains("SubmitBot refused: UNAUTHENTICATED"), "{wrong}");
    let others = refused(&[&submit[..], &["--key", &bob]].concat());
    assert!(others.contains("SubmitBot refused: PERMISSION_DENIED"), "{others}");
    let many = dir.path().join("many");
    std::fs::create_dir(&many).unwrap();
    for i in 0..6 {
        std::fs::write(many.join(format!("{i}.py")), "").unwrap();
    }
    let over = refused(&[
        "submit",
        "bob",
        many.to_str().unwrap(),
        "--server",
        &url,
        "--key",
        &bob,
        "--run",
        "x",
    ]);
    assert!(
        over.contains("SubmitBot refused: RESOURCE_EXHAUSTED")
            && over.contains("limit of 5 entries"),
        "{over}"
    );
    let unknown = refused(&["submissions", "nobody", "--server", &url]);
    assert!(unknown.contains("ListSubmissions refused: NOT_FOUND"), "{unknown}");
    assert!(ok(&["submissions", "bob", "--server", &url]).lines().count() <= 1);
}

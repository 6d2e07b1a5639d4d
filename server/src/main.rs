//! `cardroom`: the game server and its tools. See `cardroom --help`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

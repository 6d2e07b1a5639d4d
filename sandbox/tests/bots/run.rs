//! A runner in a process of its own: starts one bot (`sh -c 'sleep 1000'`-like: the command
//! given) in a sandbox, prints its cgroup's name and its pids, and waits. The test that kills
//! a runner kills this one.

use cardroom_sandbox::{BotSpec, Bubblewrap, Limits, Runtime, Sandbox};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(code), Some(socket)) = (args.next(), args.next()) else {
        return Err("usage: sandbox-run CODE SOCKET COMMAND...".into());
    };
    let sandbox = Bubblewrap::new().await?;
    let mut bot = sandbox.spawn(&BotSpec {
        code: code.into(),
        command: args.collect(),
        socket: socket.into(),
        env: Vec::new(),
        runtime: Runtime::native(),
        limits: Limits::default(),
    })?;
    println!("cgroup {}", bot.cgroup());
    let end = bot.wait().await?;
    println!("the bot {end}\n{}", bot.take_output());
    Ok(())
}

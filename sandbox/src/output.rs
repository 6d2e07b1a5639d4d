//! A bot's output, capped per match: [`Output`] and the buffer its readers fill.

use std::fmt;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};

/// What a bot wrote since the output was last taken, up to the cap; the rest was counted and
/// dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The bytes kept of stdout.
    pub stdout: Vec<u8>,
    /// The bytes kept of stderr.
    pub stderr: Vec<u8>,
    /// How many bytes of either were dropped past the cap.
    pub dropped: u64,
}

impl fmt::Display for Output {
    /// stdout, then stderr, then a note of what was dropped, as the bot's author reads them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, bytes) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            if !bytes.is_empty() {
                writeln!(f, "--- {name}")?;
                f.write_str(&String::from_utf8_lossy(bytes))?;
            }
        }
        if self.dropped > 0 {
            writeln!(f, "--- {} bytes more were dropped (past the cap)", self.dropped)?;
        }
        Ok(())
    }
}

/// Which of the bot's streams a chunk came from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

/// The output kept so far, shared by the two readers and the handle. A std mutex: it is held
/// only to copy a chunk in, never across an await.
#[derive(Debug)]
pub(crate) struct CappedOutput {
    cap: usize,
    kept: Output,
}

impl CappedOutput {
    pub(crate) fn new(cap: usize) -> Arc<Mutex<CappedOutput>> {
        Arc::new(Mutex::new(CappedOutput { cap, kept: Output::default() }))
    }

    fn push(&mut self, stream: Stream, chunk: &[u8]) {
        let used = self.kept.stdout.len() + self.kept.stderr.len();
        let room = self.cap.saturating_sub(used).min(chunk.len());
        let buffer = match stream {
            Stream::Stdout => &mut self.kept.stdout,
            Stream::Stderr => &mut self.kept.stderr,
        };
        buffer.extend_from_slice(&chunk[..room]);
        self.kept.dropped += (chunk.len() - room) as u64;
    }

    /// What was kept, and a fresh start for the next match.
    pub(crate) fn take(&mut self) -> Output {
        std::mem::take(&mut self.kept)
    }
}

/// A handle on a bot's output, for whoever sees its matches end
/// ([`crate::RunningBot::output_taker`]).
#[derive(Clone, Debug)]
pub struct OutputTaker(pub(crate) Arc<Mutex<CappedOutput>>);

impl OutputTaker {
    /// What the bot wrote since the last take, and a fresh start: one call per match.
    pub fn take(&self) -> Output {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Reads `from` to its end into `into`: past the cap, the bytes are only counted, so the bot
/// never blocks on a full pipe.
pub(crate) async fn drain(
    mut from: impl AsyncRead + Unpin,
    stream: Stream,
    into: Arc<Mutex<CappedOutput>>,
) {
    let mut chunk = vec![0; 8192];
    loop {
        match from.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => into.lock().unwrap_or_else(|e| e.into_inner()).push(stream, &chunk[..n]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_past_the_cap_is_counted_and_dropped() {
        let output = CappedOutput::new(10);
        let mut output = output.lock().unwrap();
        output.push(Stream::Stdout, b"123456");
        output.push(Stream::Stderr, b"abcdef");
        output.push(Stream::Stdout, b"xyz");
        let taken = output.take();
        assert_eq!(taken.stdout, b"123456");
        assert_eq!(taken.stderr, b"abcd");
        assert_eq!(taken.dropped, 5);
        // Taking starts the next match afresh.
        output.push(Stream::Stdout, b"next");
        assert_eq!(output.take(), Output { stdout: b"next".to_vec(), ..Output::default() });
    }
}

//! The pages apart from play: [`serve_apart`] serves them on a runtime of their own, whose
//! threads run at the lowest priority the operating system gives (`SCHED_IDLE` on Linux), so that
//! page work, however many ask, takes CPU only when matches leave it (issue 45: 16 clients
//! fetching a bot's page had cut a ladder's finished matches by 42%).

use std::future::Future;

use axum::Router;
use thread_priority::ThreadPriority;

/// Blocking threads the pages' runtime may start (a SQLite store's reads run on them).
const PAGES_BLOCKING_THREADS: usize = 4;

/// Lowers the calling thread's priority to the lowest: on Linux the `SCHED_IDLE` policy (the
/// thread runs when no ordinary thread wants the CPU; nice 19 still took a share of it), else
/// the lowest priority of the platform. A refusal is logged, not fatal. The load tool's page
/// clients, which stand for people on other machines, run so too.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    let lowered = thread_priority::set_thread_priority_and_policy(
        thread_priority::thread_native_id(),
        ThreadPriority::Min,
        thread_priority::ThreadSchedulePolicy::Normal(
            thread_priority::NormalThreadSchedulePolicy::Idle,
        ),
    );
    #[cfg(not(target_os = "linux"))]
    let lowered = thread_priority::set_current_thread_priority(ThreadPriority::Min);
    if let Err(error) = lowered {
        tracing::warn!(?error, "the pages' thread runs at normal priority");
    }
}

/// Serves `router` on `listener` as [`crate::serve`] does (with `config`'s limits), on a
/// runtime of its own: one thread for the pages and four for their blocking reads, all at the
/// lowest priority. `listener` is a standard one (a tokio listener belongs to the runtime that
/// made it). Returns when the pages have stopped.
pub async fn serve_apart(
    listener: std::net::TcpListener,
    router: Router,
    config: crate::ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let (done, finished) = tokio::sync::oneshot::channel();
    std::thread::Builder::new().name("cardroom-pages".to_owned()).spawn(move || {
        lower_priority();
        let served = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_name("cardroom-pages-io")
            .max_blocking_threads(PAGES_BLOCKING_THREADS)
            .on_thread_start(lower_priority)
            .build()
            .and_then(|runtime| {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    crate::serve(listener, router, config, shutdown).await
                })
            });
        let _ = done.send(served);
    })?;
    finished.await.unwrap_or_else(|_| Err(std::io::Error::other("the pages' thread ended early")))
}

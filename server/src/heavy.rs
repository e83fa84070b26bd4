//! CPU-heavy work of the HTTP handlers (exports, a run's planning), off the async threads.
//!
//! A handler that renders or plans hands a closure to [`Pool::run`]: it runs on Tokio's
//! blocking threads, at most [`Pool::workers`] at a time, so the async threads stay free for
//! `/api/health`, event streams and every other request whatever a body asks for. Each job
//! has a time limit, counted from its arrival: a job that waits or works longer is answered
//! with 503 and a message saying so. A thread cannot be stopped, so the job goes on to its end
//! holding its worker (and whatever it owns, such as a run's reservation of items): the limit
//! bounds the answer's wait, the workers bound the CPU. Core's `parallel` parts of a job (its
//! verdicts, counts, indexes) run on rayon's pool, one thread per core, shared by all the
//! jobs: the worker waits meanwhile, so the CPU stays bounded. At most [`Pool::queue`] jobs
//! wait; more are refused at once. Work done in another process ([`Pool::run_elsewhere`], an
//! import in its child) is admitted and bounded the same way, and stopped at its limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// How many jobs may run at once by default: the machine's cores (at least 2).
pub fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .max(2)
}

/// The default time limit of one job, waiting included.
pub const TIME_LIMIT: Duration = Duration::from_secs(60);
/// The default number of jobs that may wait for a worker.
pub const QUEUE: usize = 64;

/// The bounded pool. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Pool {
    workers: Arc<Semaphore>,
    n_workers: usize,
    queue: usize,
    limit: Duration,
    /// Jobs admitted and not finished (waiting or working).
    admitted: Arc<AtomicUsize>,
    /// Jobs working on a thread right now.
    working: Arc<AtomicUsize>,
}

impl Default for Pool {
    fn default() -> Self {
        Pool::new(default_workers(), QUEUE, TIME_LIMIT)
    }
}

/// Counts a job from admission to its end, on whichever thread it ends.
#[derive(Debug)]
struct Count(Arc<AtomicUsize>);

impl Count {
    fn new(counter: &Arc<AtomicUsize>) -> Count {
        counter.fetch_add(1, Ordering::SeqCst);
        Count(counter.clone())
    }
}

impl Drop for Count {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Pool {
    pub fn new(workers: usize, queue: usize, limit: Duration) -> Pool {
        let workers = workers.max(1);
        Pool {
            workers: Arc::new(Semaphore::new(workers)),
            n_workers: workers,
            queue,
            limit,
            admitted: Arc::new(AtomicUsize::new(0)),
            working: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub fn workers(&self) -> usize {
        self.n_workers
    }

    pub fn queue(&self) -> usize {
        self.queue
    }

    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Jobs admitted and not yet finished, waiting or working.
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::SeqCst)
    }

    /// Jobs working on a thread now.
    pub fn working(&self) -> usize {
        self.working.load(Ordering::SeqCst)
    }

    /// Admits a job and waits for a free worker: the job's deadline, its worker and its
    /// count; 503 when the queue is full or no worker is free before the deadline.
    async fn admit(&self, what: &str) -> Result<Admitted, ApiError> {
        let deadline = tokio::time::Instant::now() + self.limit;
        if self.admitted() >= self.n_workers + self.queue {
            return Err(ApiError::Unavailable(format!(
                "the server is busy: {} jobs are running or waiting; try {what} again in a moment",
                self.admitted()
            )));
        }
        let admitted = Count::new(&self.admitted);
        let limit = self.limit.as_secs_f64();
        let worker = tokio::time::timeout_at(deadline, self.workers.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::Unavailable(format!(
                    "the server is busy: {what} waited {limit:.0} s for a free worker; try again later"
                ))
            })?
            .map_err(|_| ApiError::Internal(anyhow::anyhow!("the heavy-work pool is closed")))?;
        Ok(Admitted {
            deadline,
            worker,
            admitted,
        })
    }

    /// The answer to a job past its time limit.
    fn given_up(&self, what: &str) -> ApiError {
        ApiError::Unavailable(format!(
            "{what} took longer than the server's limit of {:.0} s and was given up",
            self.limit.as_secs_f64()
        ))
    }

    /// Runs `job` on a blocking thread when a worker is free, and returns what it returns;
    /// 503 when the queue is full or the time limit passes first. `what` names the work in
    /// the messages ("the export").
    pub async fn run<T, F>(&self, what: &str, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let Admitted {
            deadline,
            worker,
            admitted,
        } = self.admit(what).await?;
        let working = self.working.clone();
        let handle = tokio::task::spawn_blocking(move || {
            // The worker, the counts and everything `job` owns are released when it ends,
            // even after the answer has given up on it.
            let _worker = worker;
            let _admitted = admitted;
            let _working = Count::new(&working);
            job()
        });
        let done = tokio::time::timeout_at(deadline, handle).await;
        // Ended at or after its deadline is past the limit too. The timer fires on a later
        // millisecond tick and `timeout_at` polls the job first, so a job ending right at the
        // deadline used to be kept or not by which thread ran first: with a limit of 0 s the API
        // test of the 503 failed when the export outran the first poll.
        let late = tokio::time::Instant::now() >= deadline;
        match done {
            Err(_) => Err(self.given_up(what)),
            Ok(Err(panic)) => Err(ApiError::Internal(anyhow::anyhow!(
                "{what} panicked: {panic}"
            ))),
            Ok(Ok(_)) if late => Err(self.given_up(what)),
            Ok(Ok(value)) => Ok(value),
        }
    }

    /// Runs `job`, work done elsewhere (a child process: [`crate::api::import::child`]) that this
    /// task only waits for, under the same bounds as [`Pool::run`]: it holds a worker while
    /// it runs, and past the time limit it is dropped, which must stop its work (a child
    /// spawned with `kill_on_drop`), and answered with 503.
    pub async fn run_elsewhere<T, F>(&self, what: &str, job: F) -> Result<T, ApiError>
    where
        F: Future<Output = T>,
    {
        let Admitted {
            deadline,
            worker: _worker,
            admitted: _admitted,
        } = self.admit(what).await?;
        let _working = Count::new(&self.working);
        tokio::time::timeout_at(deadline, job)
            .await
            .map_err(|_| self.given_up(what))
    }
}

/// A job let in: its deadline, the worker it holds and its count, released when dropped.
struct Admitted {
    deadline: tokio::time::Instant,
    worker: tokio::sync::OwnedSemaphorePermit,
    admitted: Count,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_job_past_the_time_limit_is_answered_503_and_its_worker_is_freed_at_its_end() {
        let pool = Pool::new(1, 4, Duration::ZERO);
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let err = pool
            .run("the export", move || gate.recv().ok())
            .await
            .unwrap_err();
        assert_eq!(err.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            err.to_string(),
            "the export took longer than the server's limit of 0 s and was given up"
        );
        release.send(()).unwrap();
        // The job still ends; then nothing is admitted any more.
        while pool.admitted() > 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.working(), 0);
    }

    // A job done by the time its deadline is looked at is still past a limit of 0 s: which of
    // the two came first was a race between the blocking thread and the poll (the API test of
    // the 503 failed once in `make test` when the export outran it).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_done_at_its_passed_deadline_is_past_the_limit() {
        let pool = Pool::new(1, 4, Duration::ZERO);
        for _ in 0..500 {
            let err = pool.run("the export", || ()).await.unwrap_err();
            assert_eq!(err.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        }
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once() {
        let pool = Pool::new(1, 0, Duration::from_secs(3600));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let busy = pool.clone();
        let first = tokio::spawn(async move { busy.run("a", move || gate.recv().ok()).await });
        while pool.working() == 0 {
            tokio::task::yield_now().await;
        }
        let err = pool.run("the export", || ()).await.unwrap_err();
        assert!(err.to_string().starts_with("the server is busy"), "{err}");
        release.send(()).unwrap();
        assert!(first.await.unwrap().is_ok());
    }
}

//! Imports in a child process (issue 41: "no request may abort the server"). Every import
//! parser has its budget; this is the defence behind them: under `keyplan serve` a
//! `POST /api/import` runs the import in `keyplan __import-child`, a hidden subcommand of the
//! same binary, which lowers its own address space ([`MEMORY_LIMIT`] by default) before it
//! reads anything. An import that still exhausts memory or overflows its stack aborts that
//! child only; the server answers with what happened and goes on.
//!
//! The protocol is the API's own: the child reads the request's JSON
//! ([`ImportRequest`]) on its stdin and writes the answer's JSON on its stdout, exiting 0, or
//! the 400's message, exiting [`REFUSED`]. The parent bounds the answer's size
//! ([`ANSWER_LIMIT`]) and, through the heavy-work pool, the child's time (it is killed when the
//! pool gives up on it) and how many children run at once. Nothing here knows a format:
//! both sides call [`crate::api::import::answer`].

use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::{ExitCode, ExitStatus, Stdio};

use anyhow::Context as _;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use super::{ImportRequest, answer};
use crate::api::extract::BODY_LIMIT;
use crate::error::ApiError;

/// The address space an import's child may map by default: its code, stacks and allocator
/// take a few hundred MB of it before it reads anything; the budgets keep an import of the
/// largest body far below the rest.
pub const MEMORY_LIMIT: u64 = 1 << 30;
/// The most bytes of answer the server reads from a child: far above any design an import of
/// a body of at most [`BODY_LIMIT`] makes under the budgets.
pub const ANSWER_LIMIT: usize = 64 << 20;
/// The most bytes of a child's stderr the server keeps, to tell what ended it.
const STDERR_LIMIT: u64 = 64 << 10;
/// The most bytes a child reads on its stdin: the body re-encoded, with room for escapes.
const REQUEST_LIMIT: u64 = 2 * BODY_LIMIT as u64;
/// The exit code of a child whose import was refused: its stdout is the 400's message.
pub const REFUSED: u8 = 3;
/// The hidden subcommand a child runs.
pub const SUBCOMMAND: &str = "__import-child";

/// Where `POST /api/import` runs its imports.
#[derive(Debug, Clone, Default)]
pub enum Imports {
    /// In this process, in the heavy-work pool: the library's default, for a process that has
    /// no `keyplan` binary to start (the router's unit tests).
    #[default]
    InProcess,
    /// Each in a child process of `keyplan`: what `keyplan serve` does.
    Child(Child),
}

/// How to start an import's child.
#[derive(Debug, Clone)]
pub struct Child {
    /// The `keyplan` binary (`std::env::current_exe()` in `keyplan serve`).
    pub exe: PathBuf,
    /// The address space the child gives itself, in bytes.
    pub memory_limit: u64,
}

impl Child {
    /// Children of `exe` with the default memory limit.
    pub fn new(exe: PathBuf) -> Child {
        Child {
            exe,
            memory_limit: MEMORY_LIMIT,
        }
    }

    /// Runs `request`'s import in a new child: the answer's JSON, or the error to answer
    /// with. Dropping the future kills the child.
    pub async fn import(&self, request: &ImportRequest) -> Result<Vec<u8>, ApiError> {
        let input = serde_json::to_vec(request).map_err(|e| ApiError::Internal(e.into()))?;
        let mut child = tokio::process::Command::new(&self.exe)
            .arg(SUBCOMMAND)
            .arg("--memory-limit")
            .arg(self.memory_limit.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start {}", self.exe.display()))?;
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(anyhow::anyhow!("an import's child has no pipes").into());
        };
        let write = async move {
            // A child that ended before reading it all has said why on its stderr.
            let _ = stdin.write_all(&input).await;
        };
        let mut stdout = stdout.take(ANSWER_LIMIT as u64 + 1);
        let mut answer = Vec::new();
        let read = async {
            let read = stdout.read_to_end(&mut answer).await;
            if answer.len() > ANSWER_LIMIT {
                // It would block on a full pipe: stopped here, not at the time limit.
                let _ = child.start_kill();
            }
            read
        };
        let mut said = Vec::new();
        let read_stderr = async {
            let mut stderr = stderr.take(STDERR_LIMIT);
            let _ = stderr.read_to_end(&mut said).await;
            // The rest is drained, not kept: a child blocked on a full pipe would never end.
            let _ = tokio::io::copy(&mut stderr.into_inner(), &mut tokio::io::sink()).await;
        };
        let (_, read, _) = tokio::join!(write, read, read_stderr);
        let status = child.wait().await.context("an import's child")?;
        read.context("the answer of an import's child")?;
        let name = request.file_name();
        if answer.len() > ANSWER_LIMIT {
            return Err(ApiError::PayloadTooLarge(format!(
                "the import of {name} made more than the {} MB of answer the server sends",
                ANSWER_LIMIT >> 20
            )));
        }
        match status.code() {
            Some(0) => Ok(answer),
            Some(code) if code == i32::from(REFUSED) => Err(ApiError::BadRequest(
                String::from_utf8_lossy(&answer).into_owned(),
            )),
            _ => Err(self.ended(&name, status, &String::from_utf8_lossy(&said))),
        }
    }

    /// The answer to a child that ended without answering, by what it said on stderr.
    fn ended(&self, name: &str, status: ExitStatus, said: &str) -> ApiError {
        // Rust's own last words on an allocation that failed (or a read that could not grow
        // its buffer) and on a stack overflow. A thread the address space has no room for is
        // the same shortage: jemalloc's background thread (`<jemalloc>: background thread
        // creation failed (11)`, seen on a busy machine, when the child ran short before its
        // allocator had started that thread) or one of Rust's.
        let out_of_memory = [
            "memory allocation of",
            "out of memory",
            "thread creation failed",
            "failed to spawn thread",
        ];
        if out_of_memory.iter().any(|words| said.contains(words)) {
            ApiError::PayloadTooLarge(format!(
                "the import of {name} ran out of its {} of memory; the file asks for more than the server gives an import",
                keyplan_core::cost::bytes_text(self.memory_limit as f64)
            ))
        } else if said.contains("has overflowed its stack") {
            ApiError::BadRequest(format!(
                "the import of {name} overflowed its stack: the file nests too deeply"
            ))
        } else {
            ApiError::Internal(anyhow::anyhow!(
                "the import of {name} ended with {status}: {}",
                said.trim()
            ))
        }
    }
}

/// The child's side: lowers its address space to `memory_limit` bytes, reads the request on
/// stdin, imports, and writes the answer (exit 0) or the refusal (exit [`REFUSED`]) on stdout.
pub fn run_child(memory_limit: u64) -> anyhow::Result<ExitCode> {
    limit_address_space(memory_limit)?;
    let mut input = Vec::new();
    std::io::stdin()
        .lock()
        .take(REQUEST_LIMIT + 1)
        .read_to_end(&mut input)
        .context("reading the import's request on stdin")?;
    anyhow::ensure!(
        input.len() as u64 <= REQUEST_LIMIT,
        "the import's request is over {REQUEST_LIMIT} bytes"
    );
    let request: ImportRequest =
        serde_json::from_slice(&input).context("the import's request on stdin")?;
    drop(input);
    let mut stdout = std::io::stdout().lock();
    match answer(&request) {
        Ok(answer) => {
            serde_json::to_writer(&mut stdout, &answer)?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(ApiError::BadRequest(message)) => {
            stdout.write_all(message.as_bytes())?;
            stdout.flush()?;
            Ok(ExitCode::from(REFUSED))
        }
        Err(other) => Err(anyhow::anyhow!("{other}")),
    }
}

/// Lowers this process's address space to `bytes` (or to its hard limit, if lower).
#[cfg(unix)]
fn limit_address_space(bytes: u64) -> anyhow::Result<()> {
    use rlimit::Resource;
    let (_, hard) = Resource::AS
        .get()
        .context("reading the address-space limit")?;
    let limit = bytes.min(hard);
    Resource::AS
        .set(limit, limit)
        .context("lowering the address-space limit")
}

/// No address-space limit where the system has none to set.
#[cfg(not(unix))]
fn limit_address_space(_bytes: u64) -> anyhow::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::process::ExitStatusExt as _;

    use super::*;

    /// How a child that ended without answering is answered, by Rust's last words on its
    /// stderr: an allocation that failed, a stack that overflowed, or anything else.
    #[test]
    fn a_child_that_ended_is_answered_by_what_it_said_last() {
        let child = Child {
            exe: PathBuf::from("keyplan"),
            memory_limit: MEMORY_LIMIT,
        };
        // SIGABRT, as Rust aborts on both.
        let aborted = ExitStatus::from_raw(6);
        let check = |said: &str| {
            let error = child.ended("big.json", aborted, said);
            format!("{} {error}", error.status().as_u16())
        };
        assert_eq!(
            check("memory allocation of 1658880 bytes failed\n"),
            "413 the import of big.json ran out of its 1.0 GB of memory; the file asks for more than the server gives an import"
        );
        assert_eq!(
            check("error: reading the import's request on stdin: out of memory\n"),
            "413 the import of big.json ran out of its 1.0 GB of memory; the file asks for more than the server gives an import"
        );
        // issue 41: seen under scripts/stress-test, the child short of room for jemalloc's
        // background thread before it ran short of heap.
        assert_eq!(
            check("<jemalloc>: background thread creation failed (11)\n"),
            "413 the import of big.json ran out of its 1.0 GB of memory; the file asks for more than the server gives an import"
        );
        assert_eq!(
            check(
                "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n"
            ),
            "400 the import of big.json overflowed its stack: the file nests too deeply"
        );
        // Anything else is ours: logged, and the client is told no more.
        assert_eq!(check("Segmentation fault"), "500 internal error");
    }
}

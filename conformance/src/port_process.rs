//! The runner's end of protocol v1: a port started with `sh -c CMD` and
//! spoken to over its stdin and stdout.
//!
//! A port is untrusted in the sense that it can crash, hang, print garbage
//! or answer another case; each of these fails the one case it happened on,
//! kills the port and starts a fresh one (hello and suite again) for the
//! next case. A port that hangs on several cases in a row is given up on,
//! so that one that never answers costs a few timeouts, not one per case.
//! A second reply line for a case is that case's error, found when the
//! next case is sent or the port ends. Reading and writing happen on their own threads so that a
//! port that stops reading or writing can never block the runner past the
//! per-case timeout.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::outcome::Answer;
use crate::protocol::{
    HelloReply, ImplementationInfo, PROTOCOL_VERSION, ReplyError, Request, parse_case_result,
    parse_hello_reply,
};
use crate::runner::{Implementation, LateFault};
use crate::vectors::{Case, VectorFile};

/// A reply line longer than this is garbage, not a reply: without a bound a
/// port printing without newlines would grow the runner's memory forever.
pub const MAX_REPLY_BYTES: u64 = 16 * 1024 * 1024;

/// A port gets at least this long to answer hello, however short the case
/// timeout: starting an interpreter or a JIT takes longer than a case.
pub const MIN_HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// After this many failed starts in a row the port is given up on, and the
/// remaining cases fail at once instead of each waiting for a timeout.
pub const MAX_FAILED_STARTS: u32 = 3;

/// After this many cases in a row without an answer within the timeout the
/// port is given up on: the remaining cases fail at once, unsent.
pub const MAX_CONSECUTIVE_TIMEOUTS: u32 = 3;

/// How long a port gets to exit after bye (or after closing its stdout)
/// before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Why a port could not be started and greeted.
#[derive(Debug, Error)]
pub enum PortError {
    #[error("cannot start `sh -c {command:?}`: {error}")]
    Spawn {
        command: String,
        error: std::io::Error,
    },
    #[error("the port did not answer hello within {0:?}")]
    HelloTimeout(Duration),
    #[error("the port exited before answering hello ({status})")]
    ExitedBeforeHello { status: String },
    #[error("the port's hello reply is not valid: {error}: {line}")]
    BadHello { error: ReplyError, line: String },
    #[error("the port speaks protocol {0}; this runner speaks {PROTOCOL_VERSION}")]
    ProtocolVersion(u64),
}

/// What the reader thread saw on the port's stdout.
enum PortLine {
    Line(Vec<u8>),
    TooLong,
    Closed,
    ReadFailed(String),
}

/// A running port process and the threads that talk to it.
struct LiveProcess {
    child: Child,
    requests: Sender<String>,
    replies: Receiver<PortLine>,
    /// The end of output (or a read failure) met while looking for stray
    /// lines between cases, kept for the next case to meet too.
    ended: Option<PortLine>,
}

impl LiveProcess {
    fn spawn(command: &str) -> Result<LiveProcess, PortError> {
        let mut builder = Command::new("sh");
        builder
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Its own process group, so that killing a hung port also kills
        // what `sh -c` started under it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut builder, 0);
        let spawn_error = |error| PortError::Spawn {
            command: command.to_owned(),
            error,
        };
        let mut child = builder.spawn().map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(std::io::Error::other(
                "the child has no stdin or stdout pipe",
            )));
        };
        let (requests, to_write) = mpsc::channel();
        let (read, replies) = mpsc::channel();
        thread::spawn(move || write_requests(stdin, to_write));
        thread::spawn(move || read_replies(stdout, read));
        Ok(LiveProcess {
            child,
            requests,
            replies,
            ended: None,
        })
    }

    /// Queues a line for the port; false when the port no longer reads.
    fn send(&self, request: &Request) -> bool {
        self.requests.send(request.to_line()).is_ok()
    }

    fn receive(&mut self, timeout: Duration) -> Result<PortLine, RecvTimeoutError> {
        match self.ended.take() {
            Some(ended) => Ok(ended),
            None => self.replies.recv_timeout(timeout),
        }
    }

    /// The lines the port has written that nobody asked for yet, without
    /// waiting; an end of output met on the way is kept for
    /// [`LiveProcess::receive`].
    fn stray_lines(&mut self) -> Vec<Vec<u8>> {
        let mut lines = Vec::new();
        while self.ended.is_none() {
            match self.replies.try_recv() {
                Ok(PortLine::Line(line)) => lines.push(line),
                Ok(other) => self.ended = Some(other),
                Err(_) => break,
            }
        }
        lines
    }

    /// Kills the port and everything in its process group; returns how it
    /// ended.
    fn kill(mut self) -> String {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group
            // we created for this child; it touches no memory.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        describe_exit(self.child.wait())
    }

    /// Waits briefly for a port that is ending on its own, then kills it.
    /// A port that exited by itself is not group-killed after the fact:
    /// once it is reaped its id may belong to someone else.
    fn reap(mut self) -> String {
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) | Err(_) => return self.kill(),
            }
        }
    }
}

fn describe_exit(status: std::io::Result<ExitStatus>) -> String {
    match status {
        Ok(status) => status.to_string(),
        Err(error) => format!("exit status unknown: {error}"),
    }
}

fn write_requests(mut stdin: ChildStdin, lines: Receiver<String>) {
    for line in lines {
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            return;
        }
    }
}

fn read_replies(stdout: ChildStdout, replies: Sender<PortLine>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let seen = match (&mut reader)
            .take(MAX_REPLY_BYTES + 1)
            .read_until(b'\n', &mut line)
        {
            Ok(0) => PortLine::Closed,
            Ok(_) if line.last() == Some(&b'\n') => {
                line.pop();
                PortLine::Line(line)
            }
            Ok(_) if line.len() as u64 > MAX_REPLY_BYTES => PortLine::TooLong,
            // The last line, without a newline before end of file.
            Ok(_) => PortLine::Line(line),
            Err(error) => PortLine::ReadFailed(error.to_string()),
        };
        let last = matches!(
            seen,
            PortLine::Closed | PortLine::TooLong | PortLine::ReadFailed(_)
        );
        if replies.send(seen).is_err() || last {
            return;
        }
    }
}

/// At most this much of a garbage line goes into a failure reason.
const QUOTED_LINE_CHARS: usize = 200;

fn quote_line(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut quoted: String = text.chars().take(QUOTED_LINE_CHARS).collect();
    if text.chars().count() > QUOTED_LINE_CHARS {
        quoted.push('…');
    }
    format!("{quoted:?}")
}

/// A port process, restarted as needed, as an [`Implementation`].
pub struct PortProcess {
    command: String,
    timeout: Duration,
    hello: HelloReply,
    live: Option<LiveProcess>,
    /// The suite message of the current vector file, re-sent after a restart.
    suite: Option<Request>,
    failed_starts: u32,
    restarts: u32,
    /// Cases in a row that got no answer within the timeout.
    timeouts_in_a_row: u32,
    /// The ids of those cases, for the reason the rest fail with.
    timed_out: Vec<String>,
    /// The case the live process answered last, which a stray line
    /// belongs to.
    last_answered: Option<String>,
    late: Vec<LateFault>,
}

impl PortProcess {
    /// Starts the port and exchanges hellos; `timeout` bounds each case.
    pub fn start(command: &str, timeout: Duration) -> Result<PortProcess, PortError> {
        let (live, hello) = greet(command, timeout)?;
        Ok(PortProcess {
            command: command.to_owned(),
            timeout,
            hello,
            live: Some(live),
            suite: None,
            failed_starts: 0,
            restarts: 0,
            timeouts_in_a_row: 0,
            timed_out: Vec::new(),
            last_answered: None,
            late: Vec::new(),
        })
    }

    /// How many times the port was started again after a failure.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    pub fn hello(&self) -> &HelloReply {
        &self.hello
    }

    fn ensure_live(&mut self) -> Result<&mut LiveProcess, String> {
        if self.timeouts_in_a_row >= MAX_CONSECUTIVE_TIMEOUTS {
            return Err(format!(
                "the port answered none of {MAX_CONSECUTIVE_TIMEOUTS} cases in a row \
                 within {:?} ({}); given up",
                self.timeout,
                self.timed_out.join(", ")
            ));
        }
        if self.live.is_none() {
            if self.failed_starts >= MAX_FAILED_STARTS {
                return Err(format!(
                    "the port failed to start {MAX_FAILED_STARTS} times in a row; given up"
                ));
            }
            match greet(&self.command, self.timeout) {
                Ok((live, hello)) => {
                    self.failed_starts = 0;
                    self.restarts += 1;
                    self.hello = hello;
                    if let Some(suite) = &self.suite {
                        live.send(suite);
                    }
                    self.live = Some(live);
                }
                Err(error) => {
                    self.failed_starts += 1;
                    return Err(format!("cannot restart the port: {error}"));
                }
            }
        }
        self.live
            .as_mut()
            .ok_or_else(|| "the port is not running".to_owned())
    }

    /// Ends the current process after a broken answer; the next case
    /// starts a new one.
    fn discard(&mut self) -> String {
        self.last_answered = None;
        self.live.take().map(LiveProcess::kill).unwrap_or_default()
    }

    /// A line that came after the last answered case's reply: that case's
    /// error, since a port writes exactly one line per case.
    fn stray_line(&mut self, line: &[u8]) {
        if let Some(id) = &self.last_answered {
            self.late.push(LateFault {
                id: id.clone(),
                reason: format!(
                    "the port answered this case twice: a second line came after its reply: {}",
                    quote_line(line)
                ),
            });
        }
    }
}

fn greet(command: &str, timeout: Duration) -> Result<(LiveProcess, HelloReply), PortError> {
    let mut live = LiveProcess::spawn(command)?;
    live.send(&Request::Hello {
        protocol: PROTOCOL_VERSION,
    });
    let hello_timeout = timeout.max(MIN_HELLO_TIMEOUT);
    let failure = match live.receive(hello_timeout) {
        Ok(PortLine::Line(line)) => match parse_hello_reply(&line) {
            Ok(hello) if hello.protocol == PROTOCOL_VERSION => return Ok((live, hello)),
            Ok(hello) => PortError::ProtocolVersion(hello.protocol),
            Err(error) => PortError::BadHello {
                error,
                line: quote_line(&line),
            },
        },
        Ok(PortLine::TooLong) => PortError::BadHello {
            error: ReplyError::NotJson(format!("a line over {MAX_REPLY_BYTES} bytes")),
            line: String::new(),
        },
        Ok(PortLine::Closed | PortLine::ReadFailed(_)) | Err(RecvTimeoutError::Disconnected) => {
            let status = live.reap();
            return Err(PortError::ExitedBeforeHello { status });
        }
        Err(RecvTimeoutError::Timeout) => PortError::HelloTimeout(hello_timeout),
    };
    live.kill();
    Err(failure)
}

impl Implementation for PortProcess {
    fn info(&self) -> ImplementationInfo {
        self.hello.implementation.clone()
    }

    fn supports(&self, op: &str) -> bool {
        self.hello.operations.iter().any(|listed| listed == op)
    }

    fn begin_file(&mut self, file: &VectorFile) -> Result<(), String> {
        let suite = Request::Suite {
            suite: file.suite.clone(),
            version: file.version.clone(),
            config: file.config.clone(),
        };
        if let Some(live) = &self.live
            && !live.send(&suite)
        {
            // It stopped reading; the next case restarts it, suite included.
            self.discard();
        }
        self.suite = Some(suite);
        Ok(())
    }

    fn run_case(&mut self, _file: &VectorFile, case: &Case) -> Answer {
        if !self.supports(&case.op) {
            return Answer::NotSent {
                reason: format!("the port does not list operation {:?}", case.op),
            };
        }
        let timeout = self.timeout;
        let live = match self.ensure_live() {
            Ok(live) => live,
            Err(reason) => return Answer::NotSent { reason },
        };
        let strays = live.stray_lines();
        for line in &strays {
            self.stray_line(line);
        }
        let Some(live) = self.live.as_mut() else {
            return Answer::NotSent {
                reason: "the port is not running".into(),
            };
        };
        let request = Request::Case {
            id: case.id.clone(),
            op: case.op.clone(),
            input: case.input.clone(),
        };
        let deadline = Instant::now() + timeout;
        let sent = live.send(&request);
        let reason = loop {
            let seen = if sent {
                live.receive(deadline.saturating_duration_since(Instant::now()))
            } else {
                Err(RecvTimeoutError::Disconnected)
            };
            break match seen {
                Ok(PortLine::Line(line)) => match parse_case_result(&line) {
                    Ok(result) if result.id == case.id => {
                        self.timeouts_in_a_row = 0;
                        self.timed_out.clear();
                        self.last_answered = Some(case.id.clone());
                        return Answer::Replied(result.outcome);
                    }
                    // A late second reply to the case before: that case's
                    // fault; this one's answer may still come.
                    Ok(result) if self.last_answered.as_ref() == Some(&result.id) => {
                        if let Some(id) = &self.last_answered {
                            self.late.push(LateFault {
                                id: id.clone(),
                                reason: format!(
                                    "the port answered this case twice; the second reply came \
                                     after case {:?} was sent: {}",
                                    case.id,
                                    quote_line(&line)
                                ),
                            });
                        }
                        continue;
                    }
                    Ok(result) => format!(
                        "the port answered for id {:?} instead of {:?}",
                        result.id, case.id
                    ),
                    Err(error) => {
                        format!("the port answered garbage ({error}): {}", quote_line(&line))
                    }
                },
                Ok(PortLine::TooLong) => {
                    format!("the port wrote a line over {MAX_REPLY_BYTES} bytes")
                }
                Ok(PortLine::ReadFailed(error)) => {
                    format!("reading the port's output failed: {error}")
                }
                Ok(PortLine::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.last_answered = None;
                    let status = self.live.take().map(LiveProcess::reap).unwrap_or_default();
                    return Answer::Broken {
                        reason: format!(
                            "the port exited ({status}) before answering; restarting it"
                        ),
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.timeouts_in_a_row += 1;
                    self.timed_out.push(case.id.clone());
                    format!("no answer within {timeout:?}")
                }
            };
        };
        self.discard();
        let restarting = if self.timeouts_in_a_row >= MAX_CONSECUTIVE_TIMEOUTS {
            format!(
                "; {MAX_CONSECUTIVE_TIMEOUTS} cases in a row without an answer: the port is \
                 given up and the remaining cases are not sent"
            )
        } else {
            "; restarting the port".to_owned()
        };
        Answer::Broken {
            reason: format!("{reason}{restarting}"),
        }
    }

    fn late_faults(&mut self) -> Vec<LateFault> {
        std::mem::take(&mut self.late)
    }

    fn finish(&mut self) {
        if let Some(mut live) = self.live.take() {
            live.send(&Request::Bye);
            // Dropping the only sender ends the writer thread after bye,
            // which closes stdin: a port that ignores bye still sees EOF.
            drop(std::mem::replace(&mut live.requests, mpsc::channel().0));
            // Whatever the port writes before it ends is a stray line of
            // the last case it answered.
            let deadline = Instant::now() + EXIT_GRACE;
            let mut strays = Vec::new();
            while let Ok(PortLine::Line(line)) =
                live.receive(deadline.saturating_duration_since(Instant::now()))
            {
                strays.push(line);
            }
            for line in &strays {
                self.stray_line(line);
            }
            self.last_answered = None;
            live.reap();
        }
    }
}

impl Drop for PortProcess {
    fn drop(&mut self) {
        self.finish();
    }
}

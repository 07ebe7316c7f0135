//! A small fault-injecting TCP proxy: the network between a client and a server (or a replica and its
//! master), on loopback. It listens on a free port of 127.0.0.1 and forwards every connection made to
//! it (a *link*) to its target port; the bytes of each direction can be delayed (each chunk forwarded
//! a fixed time after it arrived), held (whatever arrives before an instant waits until then) or cut
//! (every link severed with its pending bytes dropped, new connections refused). Order is kept: no
//! chunk overtakes an earlier one of its direction, and a close is forwarded after the bytes before it.
//!
//! Threads, not async: one accepts, and each link has a reader and a writer per direction, so a held
//! direction never stops the other. Every wait is bounded: a thread looks at least every [`POLL`]
//! whether the proxy is stopping. Dropping the proxy stops it: every link is severed (its sockets shut
//! down) and every thread joined; if the suite itself is killed, its sockets close with it.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::servers::Res;

/// The longest any thread of the proxy waits without looking whether it is stopping.
const POLL: Duration = Duration::from_millis(20);
/// How often the accepting thread looks for a new connection (the delay a new link may see).
const ACCEPT_POLL: Duration = Duration::from_millis(2);
/// How long connecting to the target may take before the new link is closed.
const CONNECT_WITHIN: Duration = Duration::from_secs(2);

/// A direction of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// From the side that connected to the proxy to the target (a client's requests).
    Up,
    /// From the target back (a server's replies, a master's replication stream).
    Down,
}

/// The faults in force on one direction.
#[derive(Clone, Copy, Default)]
struct Rule {
    delay: Duration,
    /// Bytes that arrive before this instant are not forwarded before it.
    hold_until: Option<Instant>,
}

impl Rule {
    /// When a chunk that arrived at `arrived` may go on.
    fn release_at(&self, arrived: Instant) -> Instant {
        let at = arrived + self.delay;
        match self.hold_until {
            Some(until) if arrived < until => at.max(until),
            _ => at,
        }
    }
}

/// The bytes of one direction of one link on their way, and how that direction ends.
#[derive(Default)]
struct Queue {
    chunks: VecDeque<(Instant, Vec<u8>)>,
    /// The sender closed: forward the close once the chunks before it are out.
    eof: bool,
    /// Cut: nothing more is forwarded, and both ends are shut down.
    severed: bool,
    /// The writer has ended.
    done: bool,
}

#[derive(Default)]
struct Pipe {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// What a direction's writer does next.
enum Next {
    Bytes(Vec<u8>),
    Eof,
    Severed,
}

impl Pipe {
    fn push(&self, release_at: Instant, bytes: Vec<u8>) {
        let mut q = self.queue.lock().unwrap();
        // No chunk overtakes an earlier one, whatever the rules did in between.
        let at = q.chunks.back().map_or(release_at, |b| b.0.max(release_at));
        q.chunks.push_back((at, bytes));
        self.ready.notify_all();
    }

    fn close(&self) {
        self.queue.lock().unwrap().eof = true;
        self.ready.notify_all();
    }

    fn sever(&self) {
        let mut q = self.queue.lock().unwrap();
        q.chunks.clear();
        q.severed = true;
        self.ready.notify_all();
    }

    fn severed(&self) -> bool {
        self.queue.lock().unwrap().severed
    }

    fn done(&self) -> bool {
        self.queue.lock().unwrap().done
    }

    /// Waits (a [`POLL`] at a time, looking at `stopping`) for the next thing to forward.
    fn next(&self, stopping: &AtomicBool) -> Next {
        let mut q = self.queue.lock().unwrap();
        loop {
            if q.severed || stopping.load(Ordering::SeqCst) {
                return Next::Severed;
            }
            let now = Instant::now();
            let wait = match q.chunks.front() {
                Some(&(at, _)) if at <= now => {
                    if let Some((_, bytes)) = q.chunks.pop_front() {
                        return Next::Bytes(bytes);
                    }
                    continue;
                }
                Some(&(at, _)) => (at - now).min(POLL),
                None if q.eof => return Next::Eof,
                None => POLL,
            };
            q = self.ready.wait_timeout(q, wait).unwrap().0;
        }
    }
}

/// One connection through the proxy: its two sockets (clones, to shut them down) and its directions.
struct Link {
    ends: [TcpStream; 2],
    pipes: [Arc<Pipe>; 2],
}

impl Link {
    fn sever(&self) {
        for p in &self.pipes {
            p.sever();
        }
        for s in &self.ends {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

/// What the proxy's threads share.
struct Shared {
    target: AtomicU16,
    rules: Mutex<[Rule; 2]>,
    refusing: AtomicBool,
    stopping: AtomicBool,
    links: Mutex<Vec<Link>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    live: AtomicUsize,
}

/// Counts a thread as live while it runs.
struct Live(Arc<Shared>);

impl Drop for Live {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Shared {
    fn spawn(self: &Arc<Self>, f: impl FnOnce(Arc<Shared>) + Send + 'static) {
        self.live.fetch_add(1, Ordering::SeqCst);
        let sh = Arc::clone(self);
        let h = std::thread::spawn(move || {
            let _live = Live(Arc::clone(&sh));
            f(sh);
        });
        self.threads.lock().unwrap().push(h);
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    fn release_at(&self, dir: Dir, arrived: Instant) -> Instant {
        self.rules.lock().unwrap()[dir as usize].release_at(arrived)
    }

    /// A new connection: to the target, with a reader and a writer per direction.
    fn open_link(self: &Arc<Self>, client: TcpStream) {
        let target = SocketAddr::from(([127, 0, 0, 1], self.target.load(Ordering::SeqCst)));
        let Ok(server) = TcpStream::connect_timeout(&target, CONNECT_WITHIN) else {
            return; // the target is down: the client sees its connection closed
        };
        let clones = (client.try_clone(), server.try_clone());
        let (Ok(c2), Ok(s2)) = clones else { return };
        let _ = client.set_nodelay(true);
        let _ = server.set_nodelay(true);
        let pipes = [Arc::new(Pipe::default()), Arc::new(Pipe::default())];
        for (dir, (from, to)) in [
            (Dir::Up, (&client, &server)),
            (Dir::Down, (&server, &client)),
        ] {
            let (Ok(from), Ok(to)) = (from.try_clone(), to.try_clone()) else {
                Link {
                    ends: [c2, s2],
                    pipes,
                }
                .sever();
                return;
            };
            let (pr, pw) = (
                Arc::clone(&pipes[dir as usize]),
                Arc::clone(&pipes[dir as usize]),
            );
            self.spawn(move |sh| read_into(from, &pr, dir, &sh));
            self.spawn(move |sh| write_from(to, &pw, &sh));
        }
        let mut links = self.links.lock().unwrap();
        links.retain(|l| !l.pipes.iter().all(|p| p.done()));
        links.push(Link {
            ends: [c2, s2],
            pipes,
        });
    }

    fn sever_all(&self) {
        for l in self.links.lock().unwrap().iter() {
            l.sever();
        }
    }
}

/// A direction's reader: what arrives from `from` goes into the pipe with the time it may go on.
fn read_into(mut from: TcpStream, pipe: &Pipe, dir: Dir, sh: &Shared) {
    let _ = from.set_read_timeout(Some(POLL));
    let mut buf = vec![0u8; 64 * 1024];
    while !sh.stopping() && !pipe.severed() {
        match from.read(&mut buf) {
            Ok(0) => return pipe.close(),
            Ok(n) => pipe.push(sh.release_at(dir, Instant::now()), buf[..n].to_vec()),
            Err(e) if is_wait(&e) => {}
            Err(_) => return pipe.sever(), // a reset: the link is broken
        }
    }
}

/// A direction's writer: forwards each chunk to `to` when it is due; then the close, or a cut.
fn write_from(mut to: TcpStream, pipe: &Pipe, sh: &Shared) {
    let _ = to.set_write_timeout(Some(POLL));
    loop {
        match pipe.next(&sh.stopping) {
            Next::Bytes(b) => {
                if write_bounded(&mut to, &b, &sh.stopping).is_err() {
                    pipe.sever();
                    let _ = to.shutdown(Shutdown::Both);
                    break;
                }
            }
            Next::Eof => {
                let _ = to.shutdown(Shutdown::Write);
                break;
            }
            Next::Severed => {
                let _ = to.shutdown(Shutdown::Both);
                break;
            }
        }
    }
    pipe.queue.lock().unwrap().done = true;
}

/// `write_all`, but a receiver that stops reading (a stopped process) holds it only until the proxy
/// stops.
fn write_bounded(
    to: &mut TcpStream,
    mut bytes: &[u8],
    stopping: &AtomicBool,
) -> std::io::Result<()> {
    while !bytes.is_empty() {
        if stopping.load(Ordering::SeqCst) {
            return Err(ErrorKind::Interrupted.into());
        }
        match to.write(bytes) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if is_wait(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn is_wait(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
    )
}

fn accept_loop(listener: TcpListener, sh: &Arc<Shared>) {
    while !sh.stopping() {
        match listener.accept() {
            Ok((client, _)) => {
                let _ = client.set_nonblocking(false);
                if !sh.refusing.load(Ordering::SeqCst) {
                    sh.open_link(client);
                } // refused: dropped, so closed at once
            }
            Err(_) => std::thread::sleep(ACCEPT_POLL),
        }
    }
}

/// A proxy to one target port; stopped (links severed, threads joined) when dropped.
pub struct Proxy {
    pub port: u16,
    shared: Arc<Shared>,
}

impl Proxy {
    /// Listens on a free port of 127.0.0.1 and forwards every connection to `target` on 127.0.0.1.
    pub fn start(target: u16) -> Res<Proxy> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("proxy: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("proxy: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let shared = Arc::new(Shared {
            target: AtomicU16::new(target),
            rules: Mutex::new([Rule::default(); 2]),
            refusing: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
            links: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
            live: AtomicUsize::new(0),
        });
        shared.spawn(move |sh| accept_loop(listener, &sh));
        Ok(Proxy { port, shared })
    }

    /// From now on, each chunk of `dir` goes on `d` after it arrived (no later one overtakes it).
    pub fn delay(&self, dir: Dir, d: Duration) {
        self.shared.rules.lock().unwrap()[dir as usize].delay = d;
    }

    /// Whatever of `dir` arrives before `until` waits until then (after it, bytes flow again).
    pub fn hold_until(&self, dir: Dir, until: Instant) {
        self.shared.rules.lock().unwrap()[dir as usize].hold_until = Some(until);
    }

    /// Severs every link now: bytes on their way are dropped, both ends see the connection closed.
    pub fn sever(&self) {
        self.shared.sever_all();
    }

    /// The network is down: every link severed and new connections closed at once.
    pub fn cut(&self) {
        self.shared.refusing.store(true, Ordering::SeqCst);
        self.shared.sever_all();
    }

    /// New links go to `target` (those already open stay with the old one).
    pub fn retarget(&self, target: u16) {
        self.shared.target.store(target, Ordering::SeqCst);
    }

    /// How many chunks are on their way in its links (read, not yet forwarded).
    #[cfg(test)]
    pub fn queued(&self) -> usize {
        let links = self.shared.links.lock().unwrap();
        let pipes = links.iter().flat_map(|l| l.pipes.iter());
        pipes.map(|p| p.queue.lock().unwrap().chunks.len()).sum()
    }

    /// How many of its threads are running (the accepting one, and four per open link).
    #[cfg(test)]
    pub fn threads(&self) -> usize {
        self.shared.live.load(Ordering::SeqCst)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.sever_all();
        // Every thread looks at `stopping` at least every POLL, so each join is bounded. The accepting
        // thread is the first: once it is joined no new thread can start.
        loop {
            let handles: Vec<_> = std::mem::take(&mut *self.shared.threads.lock().unwrap());
            if handles.is_empty() {
                break;
            }
            for h in handles {
                let _ = h.join();
            }
        }
    }
}

#[cfg(test)]
#[path = "proxy_tests.rs"]
mod tests;

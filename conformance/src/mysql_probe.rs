//! `leaselab-conformance mariadb-probe`: measures, against the installed MariaDB (a throwaway server of
//! the suite's own), what the model of MySQL's `GET_LOCK` rests on, and prints it (docs/conformance.md,
//! *MariaDB*, quotes a run). A holder that is frozen runs in a process of its own (this binary as
//! `mariadb-probe-holder`) stopped with `SIGSTOP`, as the suite's client agents are.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread::{self, sleep};
use std::time::{Duration, Instant};

use mysql::prelude::Queryable;
use mysql::Conn;

use crate::mysql::{connect, Mariadb};
use crate::servers::{signal, Res, WorkDir};

const A: &str = "probe-a";
const B: &str = "probe-b";

fn err(e: mysql::Error) -> String {
    e.to_string()
}

/// One statement's single value (`None` for SQL NULL or no row).
fn value(c: &mut Conn, sql: &str) -> Res<Option<i64>> {
    c.query_first::<Option<i64>, _>(sql)
        .map(Option::flatten)
        .map_err(err)
}

fn get_lock(c: &mut Conn, name: &str, timeout: &str) -> Res<Option<i64>> {
    value(c, &format!("SELECT GET_LOCK('{name}', {timeout})"))
}

fn release(c: &mut Conn, name: &str) -> Res<Option<i64>> {
    value(c, &format!("SELECT RELEASE_LOCK('{name}')"))
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// `leaselab-conformance mariadb-probe`.
pub fn probe_main() -> ExitCode {
    match probe() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mariadb-probe: {e}");
            ExitCode::from(2)
        }
    }
}

fn probe() -> Res<()> {
    let work = WorkDir::new(None)?;
    let m = Mariadb::start(&work.path.join("mariadb"))?;
    let port = m.port;
    let handling: Option<String> = connect(port)?
        .query_first("SELECT @@thread_handling")
        .map_err(err)?;
    println!(
        "MariaDB {} on 127.0.0.1:{port}, thread_handling {}",
        m.version,
        handling.unwrap_or_default()
    );
    blocking(port)?;
    timeouts(port)?;
    fifo(port, 20)?;
    wait_timeout_values(port)?;
    for wt in ["1", "1", "1", "1", "1", "2"] {
        stopped_holder(port, wt, true)?;
    }
    stopped_holder(port, "1", false)?;
    busy_holder(port)?;
    kill_connection(port)?;
    kill_query(port)?;
    release_values(port)?;
    connection_ids(port)?;
    fence_tokens(port)?;
    drop(m);
    drop(work);
    Ok(())
}

/// (a) A waiter blocks while the lock is held and returns 1 when the holder releases it.
fn blocking(port: u16) -> Res<()> {
    let mut h = connect(port)?;
    let mut w = connect(port)?;
    get_lock(&mut h, A, "0")?;
    let waiter = thread::spawn(move || (get_lock(&mut w, A, "10"), Instant::now()));
    sleep(Duration::from_millis(500));
    let sent = Instant::now();
    let r = release(&mut h, A)?;
    let (got, at) = waiter.join().map_err(|_| "waiter panicked")?;
    println!(
        "(a) GET_LOCK('{A}', 10) while held: the holder's RELEASE_LOCK → {r:?}; the waiter's GET_LOCK → {:?} {} after the release was sent",
        got?,
        ms(at.saturating_duration_since(sent))
    );
    Ok(())
}

/// (a) Timeouts: 1 s, fractions, 0 (a try), negative.
fn timeouts(port: u16) -> Res<()> {
    let mut h = connect(port)?;
    let mut w = connect(port)?;
    get_lock(&mut h, A, "0")?;
    for t in ["1", "0.3", "0.05", "0.001", "0", "2.5"] {
        let start = Instant::now();
        let got = get_lock(&mut w, A, t);
        println!(
            "(a) GET_LOCK('{A}', {t}) while another holds it → {got:?} after {}",
            ms(start.elapsed())
        );
    }
    // Negative: infinite in MySQL 5.7+; the holder lets go after 1.5 s so that an infinite wait ends.
    let releaser = thread::spawn(move || {
        sleep(Duration::from_millis(1500));
        release(&mut h, A)
    });
    let start = Instant::now();
    let got = get_lock(&mut w, A, "-1");
    let warnings: Vec<(String, u32, String)> = w.query("SHOW WARNINGS").map_err(err)?;
    println!(
        "(a) GET_LOCK('{A}', -1) while held (released at 1.5 s) → {got:?} after {}; warnings {warnings:?}",
        ms(start.elapsed())
    );
    let _ = releaser.join();
    let _ = release(&mut w, A);
    Ok(())
}

/// (b) Two waiters on the same name: who gets it when the holder releases. The first to wait
/// alternates between the two connections.
fn fifo(port: u16, rounds: u32) -> Res<()> {
    let mut h = connect(port)?;
    let mut w = [Some(connect(port)?), Some(connect(port)?)];
    let ids: Vec<u32> = w.iter().flatten().map(Conn::connection_id).collect();
    let mut first_won = 0;
    for round in 0..rounds {
        if get_lock(&mut h, A, "5")? != Some(1) {
            return Err("fifo: the holder did not get the lock".into());
        }
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        let mut threads = Vec::new();
        for &k in &order {
            let mut c = w[k].take().ok_or("fifo: no connection")?;
            threads.push(thread::spawn(move || {
                let got = get_lock(&mut c, A, "10");
                let at = Instant::now();
                sleep(Duration::from_millis(20));
                let _ = release(&mut c, A);
                (k, got, at, c)
            }));
            sleep(Duration::from_millis(50));
        }
        release(&mut h, A)?;
        let mut done = Vec::new();
        for t in threads {
            done.push(t.join().map_err(|_| "fifo: a waiter panicked")?);
        }
        done.sort_by_key(|d| d.2);
        if done.iter().any(|d| !matches!(d.1, Ok(Some(1)))) {
            return Err("fifo: a waiter did not get the lock".into());
        }
        if done[0].0 == order[0] {
            first_won += 1;
        }
        for (k, _, _, c) in done {
            w[k] = Some(c);
        }
    }
    println!(
        "(b) two waiters (connections {ids:?}, the first to wait alternating, 50 ms apart): the first to wait got the lock first in {first_won} of {rounds} rounds"
    );
    Ok(())
}

/// (c) The values `wait_timeout` takes: its minimum, fractions.
fn wait_timeout_values(port: u16) -> Res<()> {
    for v in ["0", "1", "0.5", "1.5", "2"] {
        // A connection each: a statement without diagnostics leaves the last ones in SHOW WARNINGS.
        let mut c = connect(port)?;
        let set = c.query_drop(format!("SET SESSION wait_timeout = {v}"));
        let warnings: Vec<(String, u32, String)> = c.query("SHOW WARNINGS").map_err(err)?;
        let now = value(&mut c, "SELECT @@SESSION.wait_timeout")?;
        println!(
            "(c) SET SESSION wait_timeout = {v} → {}; now {now:?}; warnings {warnings:?}",
            set.map_or_else(|e| format!("ERROR {e}"), |()| "ok".into())
        );
    }
    Ok(())
}

/// A holder in a process of its own (`mariadb-probe-holder`), its lines read on a thread.
struct Holder {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
}

impl Holder {
    fn spawn(port: u16, wait_timeout: &str, mode: &str) -> Res<Holder> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .args([
                "mariadb-probe-holder",
                &port.to_string(),
                wait_timeout,
                mode,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the holder: {e}"))?;
        let out = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let (tx, lines) = channel();
        thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send((l, Instant::now())).is_err() {
                    return;
                }
            }
        });
        Ok(Holder {
            child,
            stdin,
            lines,
        })
    }

    /// The holder's next line (bounded), with when it arrived.
    fn line(&self) -> Res<(String, Instant)> {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| "the holder said nothing in 30 s".to_string())
    }

    fn signal(&self, sig: &str) {
        signal(self.child.id(), sig);
    }

    /// Wakes it (SIGCONT), lets it run its next statements, and returns what it said.
    fn wake_and_try(&mut self) -> Res<Vec<String>> {
        self.signal("CONT");
        writeln!(self.stdin, "next").map_err(|e| e.to_string())?;
        let mut said = Vec::new();
        loop {
            let (l, _) = self.line()?;
            if l == "done" {
                return Ok(said);
            }
            said.push(l);
        }
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        self.signal("CONT");
        let _ = self.child.wait();
    }
}

/// The holder's id from its `held ID` line.
fn held_id(line: &str) -> Res<u32> {
    line.strip_prefix("held ")
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("the holder said {line:?}"))
}

/// (c) A holder with `wait_timeout` = `wt`, idle after GET_LOCK and stopped (SIGSTOP) or merely
/// running and sending nothing on that connection: when a waiter gets the lock, counted from the
/// holder's reply to GET_LOCK.
fn stopped_holder(port: u16, wt: &str, stop: bool) -> Res<()> {
    let mut w = connect(port)?;
    let mut h = Holder::spawn(port, wt, "idle")?;
    let (l, held_at) = h.line()?;
    let id = held_id(&l)?;
    let how = if stop {
        h.signal("STOP");
        "stopped"
    } else {
        "running, silent on that connection,"
    };
    let got = get_lock(&mut w, A, "20")?;
    let at = Instant::now();
    let said = h.wake_and_try()?;
    let _ = release(&mut w, A);
    println!(
        "(c) wait_timeout = {wt}, the holder (connection {id}) {how} after its GET_LOCK: the waiter's GET_LOCK → {got:?} {} after the holder's reply; woken, the holder: {said:?}",
        ms(at.saturating_duration_since(held_at))
    );
    Ok(())
}

/// (c) A holder with `wait_timeout` = 1 blocked in a statement (GET_LOCK on a name another holds, 3 s)
/// and stopped meanwhile: is it idle?
fn busy_holder(port: u16) -> Res<()> {
    let mut other = connect(port)?;
    let mut w = connect(port)?;
    let mut admin = connect(port)?;
    get_lock(&mut other, B, "0")?;
    let mut h = Holder::spawn(port, "1", "busy:3")?;
    let id = held_id(&h.line()?.0)?;
    let end = Instant::now() + Duration::from_secs(10);
    // Stopped only once the server runs its GET_LOCK (else it would be idle already).
    let sql = format!("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = {id} AND INFO LIKE 'SELECT GET_LOCK%'");
    while value(&mut admin, &sql)? != Some(1) {
        if Instant::now() > end {
            return Err("the holder's GET_LOCK never ran".into());
        }
        sleep(Duration::from_millis(2));
    }
    let blocked_at = Instant::now();
    h.signal("STOP");
    let got = get_lock(&mut w, A, "20")?;
    let at = Instant::now();
    let said = h.wake_and_try()?;
    let _ = release(&mut w, A);
    println!(
        "(c) wait_timeout = 1, the holder (connection {id}) blocked in GET_LOCK('{B}', 3) and stopped: the waiter's GET_LOCK('{A}') → {got:?} {} after the holder's statement began; woken, the holder: {said:?}",
        ms(at.saturating_duration_since(blocked_at))
    );
    Ok(())
}

/// (d) KILL CONNECTION of a stopped holder: when the waiter gets the lock; the holder's next
/// statements once it wakes (the crate must not reconnect).
fn kill_connection(port: u16) -> Res<()> {
    let mut w = connect(port)?;
    let mut admin = connect(port)?;
    let mut h = Holder::spawn(port, "28800", "idle")?;
    let id = held_id(&h.line()?.0)?;
    h.signal("STOP");
    let waiter = thread::spawn(move || (get_lock(&mut w, A, "20"), Instant::now(), w));
    sleep(Duration::from_millis(300));
    let sent = Instant::now();
    admin
        .query_drop(format!("KILL CONNECTION {id}"))
        .map_err(err)?;
    let (got, at, mut w) = waiter.join().map_err(|_| "waiter panicked")?;
    let said = h.wake_and_try()?;
    let _ = release(&mut w, A);
    println!(
        "(d) KILL CONNECTION {id} (the stopped holder): the waiter's GET_LOCK → {:?} {} after the KILL was sent; woken, the holder: {said:?}",
        got?,
        ms(at.saturating_duration_since(sent))
    );
    Ok(())
}

/// (d) KILL QUERY of an idle holder, and of a holder blocked in GET_LOCK on another name.
fn kill_query(port: u16) -> Res<()> {
    let mut h = connect(port)?;
    let mut admin = connect(port)?;
    let id = h.connection_id();
    get_lock(&mut h, A, "0")?;
    admin.query_drop(format!("KILL QUERY {id}")).map_err(err)?;
    let used = value(&mut admin, &format!("SELECT IS_USED_LOCK('{A}')"))?;
    let next = value(&mut h, "SELECT 1");
    println!("(d) KILL QUERY {id} of an idle holder: IS_USED_LOCK('{A}') → {used:?} (holder {id}); its next statement → {next:?}");
    get_lock(&mut admin, B, "0")?;
    let blocked = thread::spawn(move || (get_lock(&mut h, B, "10"), h));
    sleep(Duration::from_millis(300));
    let sent = Instant::now();
    admin.query_drop(format!("KILL QUERY {id}")).map_err(err)?;
    let (got, mut h) = blocked.join().map_err(|_| "holder panicked")?;
    let after = sent.elapsed();
    let used = value(&mut admin, &format!("SELECT IS_USED_LOCK('{A}')"))?;
    let next = value(&mut h, "SELECT 1");
    println!("(d) KILL QUERY {id} while it waits in GET_LOCK('{B}', 10): its GET_LOCK → {got:?} after {}; IS_USED_LOCK('{A}') → {used:?}; its next statement → {next:?}", ms(after));
    let _ = release(&mut h, A);
    let _ = release(&mut admin, B);
    Ok(())
}

/// (e) RELEASE_LOCK's values, IS_USED_LOCK, IS_FREE_LOCK, a second GET_LOCK of the same name.
fn release_values(port: u16) -> Res<()> {
    let mut h = connect(port)?;
    let mut o = connect(port)?;
    let id = h.connection_id();
    let q = |c: &mut Conn, who: &str, sql: &str| -> Res<()> {
        println!("(e) {who}: {sql} → {:?}", value(c, sql)?);
        Ok(())
    };
    let (hn, on) = (
        format!("holder {id}"),
        format!("other {}", o.connection_id()),
    );
    q(&mut h, &hn, &format!("SELECT GET_LOCK('{A}', 0)"))?;
    q(&mut o, &on, &format!("SELECT RELEASE_LOCK('{A}')"))?;
    q(&mut o, &on, "SELECT RELEASE_LOCK('no-such-lock')")?;
    q(&mut o, &on, &format!("SELECT IS_USED_LOCK('{A}')"))?;
    q(&mut o, &on, &format!("SELECT IS_FREE_LOCK('{A}')"))?;
    q(&mut h, &hn, &format!("SELECT GET_LOCK('{A}', 0)"))?;
    q(&mut h, &hn, &format!("SELECT RELEASE_LOCK('{A}')"))?;
    q(&mut o, &on, &format!("SELECT IS_USED_LOCK('{A}')"))?;
    q(&mut h, &hn, &format!("SELECT RELEASE_LOCK('{A}')"))?;
    q(&mut o, &on, &format!("SELECT IS_USED_LOCK('{A}')"))?;
    q(&mut h, &hn, &format!("SELECT RELEASE_LOCK('{A}')"))?;
    q(&mut o, &on, &format!("SELECT IS_FREE_LOCK('{A}')"))?;
    Ok(())
}

/// (f) Connection ids: how they are handed out, and why one is not a fence.
fn connection_ids(port: u16) -> Res<()> {
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(connect(port)?.connection_id()); // closed at once
    }
    println!("(f) five connections opened and closed one after another: ids {ids:?}");
    let mut b = connect(port)?;
    let mut a = connect(port)?;
    let mut admin = connect(port)?;
    let (bid, aid) = (b.connection_id(), a.connection_id());
    get_lock(&mut a, A, "0")?;
    admin
        .query_drop(format!("KILL CONNECTION {aid}"))
        .map_err(err)?;
    let got = get_lock(&mut b, A, "5")?;
    println!("(f) B (connection {bid}) connected before A (connection {aid}); A took the lock and was killed; B's GET_LOCK → {got:?}: the later grant has the lower id");
    Ok(())
}

/// (g) The suite's client side (real/mysql_lock.rs): tokens from the counter row across a kill.
fn fence_tokens(port: u16) -> Res<()> {
    use crate::real::mysql_lock::{kill, reset, MysqlLock};
    reset(port, 1)?;
    let mut a = MysqlLock::connect(port, None)?;
    let mut b = MysqlLock::connect(port, Some(1))?;
    let got_a = a.get_lock(Duration::ZERO)?;
    let tok_a = a.fence()?;
    kill(port, a.id())?;
    let got_b = b.get_lock(Duration::from_millis(500))?;
    let tok_b = b.fence()?;
    println!(
        "(g) A: GET_LOCK → {got_a:?}, token {tok_a}; A killed; B: GET_LOCK → {got_b:?}, token {tok_b}; A's RELEASE_LOCK → {:?}; B's → {:?}",
        a.release(),
        b.release()
    );
    Ok(())
}

/// `leaselab-conformance mariadb-probe-holder PORT WAIT_TIMEOUT MODE`: takes `probe-a` with its session's
/// `wait_timeout` set, says `held ID`; in mode `busy:S` then says `blocking` and waits S s in
/// GET_LOCK on `probe-b`; then, told `next`, runs two statements and says what they returned.
pub fn holder_main(args: &[String]) -> ExitCode {
    crate::real::die_with_parent();
    match holder(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("error {e}");
            println!("done");
            ExitCode::from(2)
        }
    }
}

fn holder(args: &[String]) -> Res<()> {
    let [port, wt, mode] = args else {
        return Err("usage: mariadb-probe-holder PORT WAIT_TIMEOUT MODE".into());
    };
    let port: u16 = port.parse().map_err(|_| "bad port")?;
    let mut c = connect(port)?;
    c.query_drop(format!("SET SESSION wait_timeout = {wt}"))
        .map_err(err)?;
    if get_lock(&mut c, A, "5")? != Some(1) {
        return Err("no lock".into());
    }
    println!("held {}", c.connection_id());
    if let Some(secs) = mode.strip_prefix("busy:") {
        let r = get_lock(&mut c, B, secs);
        println!("its GET_LOCK('{B}', {secs}) → {r:?}");
    }
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    for sql in ["SELECT 1", "SELECT CONNECTION_ID()"] {
        match value(&mut c, sql) {
            Ok(v) => println!("{sql} → {v:?}"),
            Err(e) => println!("{sql} → ERROR {e}"),
        }
    }
    println!("done");
    Ok(())
}

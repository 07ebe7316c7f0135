//! The proxy's own tests, against plain loopback sockets: delays keep order, a hold holds only its
//! direction and only until its instant, a cut drops what is on its way and refuses new links, and a
//! close (of an end, or of the proxy) ends the links and their threads.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use super::{Dir, Proxy};

const MS: Duration = Duration::from_millis(1);

/// A server that accepts one connection, sends `greeting`, and reports every chunk it reads with
/// the time it arrived (an empty chunk: the connection closed).
fn server(greeting: &'static [u8]) -> (u16, Receiver<(Instant, Vec<u8>)>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.write_all(greeting).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 1024];
        loop {
            let n = s.read(&mut buf).unwrap_or(0);
            let _ = tx.send((Instant::now(), buf[..n].to_vec()));
            if n == 0 {
                return;
            }
        }
    });
    (port, rx)
}

fn connect(p: &Proxy) -> TcpStream {
    let c = TcpStream::connect(("127.0.0.1", p.port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    c
}

/// Everything the server reads until the connection closes (or 5 s pass).
fn all(rx: &Receiver<(Instant, Vec<u8>)>) -> Vec<u8> {
    let mut out = Vec::new();
    while let Ok((_, b)) = rx.recv_timeout(Duration::from_secs(5)) {
        if b.is_empty() {
            break;
        }
        out.extend(b);
    }
    out
}

fn wait_until(what: &str, f: impl Fn() -> bool) {
    let end = Instant::now() + Duration::from_secs(3);
    while !f() {
        assert!(Instant::now() < end, "{what}: not within 3 s");
        std::thread::sleep(5 * MS);
    }
}

#[test]
fn a_delay_holds_each_chunk_and_keeps_their_order() {
    let (port, rx) = server(b"");
    let p = Proxy::start(port).unwrap();
    p.delay(Dir::Up, 150 * MS);
    let mut c = connect(&p);
    let sent = Instant::now();
    c.write_all(b"first").unwrap();
    wait_until("the proxy has read the first chunk", || p.queued() == 1);
    p.delay(Dir::Up, Duration::ZERO); // a later chunk, no longer delayed, still waits its turn
    c.write_all(b"second").unwrap();
    let (at, b) = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(at >= sent + 150 * MS, "forwarded after {:?}", at - sent);
    let mut got = b;
    drop(c);
    got.extend(all(&rx));
    assert_eq!(got, b"firstsecond");
}

#[test]
fn a_hold_holds_one_direction_until_its_instant() {
    let (port, rx) = server(b"hello");
    let p = Proxy::start(port).unwrap();
    let until = Instant::now() + 200 * MS;
    p.hold_until(Dir::Up, until);
    let mut c = connect(&p);
    c.write_all(b"held").unwrap();
    // The other direction flows meanwhile.
    let mut buf = [0u8; 5];
    c.read_exact(&mut buf).unwrap();
    assert!(Instant::now() < until, "the reply direction was held too");
    assert_eq!(&buf, b"hello");
    let (at, b) = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(at >= until, "released {:?} early", until - at);
    assert_eq!(b, b"held");
    // After the instant, bytes go through at once.
    let sent = Instant::now();
    c.write_all(b"free").unwrap();
    let (at, b) = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(b, b"free");
    assert!(at - sent < 100 * MS, "took {:?}", at - sent);
}

#[test]
fn a_cut_drops_bytes_on_their_way_and_refuses_new_links() {
    let (port, rx) = server(b"");
    let p = Proxy::start(port).unwrap();
    p.delay(Dir::Up, 300 * MS);
    let mut c = connect(&p);
    c.write_all(b"never").unwrap();
    wait_until("the bytes are on their way", || p.queued() == 1);
    p.cut();
    assert_eq!(all(&rx), b"", "the server got bytes that were cut");
    let mut buf = [0u8; 8];
    assert_eq!(
        c.read(&mut buf).unwrap_or(0),
        0,
        "the client's end is closed"
    );
    let mut again = connect(&p);
    assert_eq!(
        again.read(&mut buf).unwrap_or(0),
        0,
        "a new link is refused"
    );
    wait_until("the threads of the cut links end", || p.threads() == 1);
}

#[test]
fn a_close_goes_through_after_the_bytes_before_it_and_ends_the_link() {
    let (port, rx) = server(b"");
    let p = Proxy::start(port).unwrap();
    p.delay(Dir::Up, 100 * MS);
    let mut c = connect(&p);
    c.write_all(b"last words").unwrap();
    drop(c);
    assert_eq!(all(&rx), b"last words");
    wait_until("the link's four threads end", || p.threads() == 1);
}

#[test]
fn dropping_the_proxy_closes_its_links_and_ends_its_threads() {
    let (port, _rx) = server(b"hi");
    let p = Proxy::start(port).unwrap();
    let mut c = connect(&p);
    let mut buf = [0u8; 2];
    c.read_exact(&mut buf).unwrap();
    assert_eq!(p.threads(), 5, "the accepting thread and four for the link");
    let t = Instant::now();
    drop(p);
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "stopping took {:?}",
        t.elapsed()
    );
    assert_eq!(
        c.read(&mut buf).unwrap_or(0),
        0,
        "the client's end is closed"
    );
}

#[test]
fn a_retargeted_proxy_sends_new_links_to_the_new_server() {
    let (old, _rx_old) = server(b"old");
    let (new, _rx_new) = server(b"new");
    let p = Proxy::start(old).unwrap();
    let mut buf = [0u8; 3];
    connect(&p).read_exact(&mut buf).unwrap();
    assert_eq!(&buf, b"old");
    p.retarget(new);
    connect(&p).read_exact(&mut buf).unwrap();
    assert_eq!(&buf, b"new");
}

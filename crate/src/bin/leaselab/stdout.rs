//! Standard output as the CLI writes it. A reader that stops reading (`leaselab … | head -1`, `grep
//! -m1`, a pager quit early) has had all it wanted, so the command ends there, quietly, with status 0:
//! no panic as `println!` gives ("failed printing to stdout: Broken pipe"), no message, no writing on
//! into nothing. Any other failed write (a full disk) ends it with one line on stderr and status 2, so
//! output that did not arrive is never taken for a verdict. Every write of the binary goes through
//! here: `clippy::print_stdout` is denied in it.

use std::io::{self, ErrorKind, Write};
use std::process::exit;

/// The process's standard output, locked for the command's lifetime.
pub struct Stdout(io::StdoutLock<'static>);

pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).or_else(ended)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().or_else(ended)
    }
}

/// An interrupted write is tried again by `write_all`; a closed reader ends the command with 0;
/// anything else with 2.
fn ended<T>(e: io::Error) -> io::Result<T> {
    match e.kind() {
        ErrorKind::Interrupted => Err(e),
        ErrorKind::BrokenPipe => exit(0),
        _ => {
            eprintln!("leaselab: cannot write to standard output: {e}");
            exit(2)
        }
    }
}

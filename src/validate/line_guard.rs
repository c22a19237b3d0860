//! The input guard of [`super::validate`]: no line longer than [`MAX_LINE_BYTES`] is ever
//! buffered.

use std::io::{self, Read};

use super::MAX_LINE_BYTES;

/// Passes bytes through, failing with a clear error on a line longer than [`MAX_LINE_BYTES`],
/// so that the CSV reader never buffers an unbounded record; once the input is exhausted,
/// `read` holds how many bytes it had (so that a record running to the end of the input,
/// an unclosed quote, is recognised).
pub(super) struct LineGuard<R> {
    inner: R,
    current: usize,
    line: u64,
    total: u64,
    read: std::rc::Rc<std::cell::Cell<Option<u64>>>,
}

impl<R> LineGuard<R> {
    pub(super) fn new(inner: R, read: std::rc::Rc<std::cell::Cell<Option<u64>>>) -> Self {
        LineGuard {
            inner,
            current: 0,
            line: 1,
            total: 0,
            read,
        }
    }
}

impl<R: Read> Read for LineGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.total += n as u64;
        if n == 0 && !buf.is_empty() {
            self.read.set(Some(self.total));
        }
        for &b in &buf[..n] {
            if b == b'\n' {
                self.current = 0;
                self.line += 1;
            } else {
                self.current += 1;
                if self.current > MAX_LINE_BYTES {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("line {} is longer than {MAX_LINE_BYTES} bytes", self.line),
                    ));
                }
            }
        }
        Ok(n)
    }
}

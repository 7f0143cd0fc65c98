//! Incompressible input for a tool's standard input: diskdash makes the
//! bytes itself, as the tool reads them, so that dd writes data that no
//! compressing or deduplicating storage can shrink, without reading a file
//! (which would measure reads too) or holding the data in memory (the bulk
//! write is twice the machine's memory).
//!
//! The bytes are xoshiro256++ (Blackman and Vigna), a small, fast
//! generator whose output passes the statistical test batteries: no
//! compressor finds structure in it. It is not for secrets; it is seeded
//! from the test's file name ([`Feed::seed_for`]), so each run and
//! repetition writes different bytes and a deduplicating volume meets no
//! block twice.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::tools::argv::Feed;

/// The bytes written to the pipe per `write` call: a megabyte keeps the
/// system calls few and fits in any cache.
const CHUNK: usize = 1 << 20;

/// xoshiro256++, seeded by splitmix64 as its authors advise.
pub struct Xoshiro256pp {
    s: [u64; 4],
}

impl Xoshiro256pp {
    /// A generator whose state is splitmix64's first four outputs from `seed`.
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Xoshiro256pp {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Fills `buf` (a multiple of 8 bytes long, or the tail is left as it was).
    pub fn fill(&mut self, buf: &mut [u8]) {
        for word in buf.chunks_exact_mut(8) {
            word.copy_from_slice(&self.next_u64().to_le_bytes());
        }
    }
}

/// What feeding a tool did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FeedDone {
    /// Bytes the tool took.
    pub bytes: u64,
    /// Time spent making them and copying them into the pipe: the feed's
    /// whole time but what it spent waiting for the tool to read.
    pub busy: Duration,
}

impl FeedDone {
    /// The feed's own rate in B/s, making and copying included: what it
    /// could give a tool that never made it wait; `None` when it gave
    /// nothing or took no measurable time.
    pub fn rate(&self) -> Option<f64> {
        let s = self.busy.as_secs_f64();
        (self.bytes > 0 && s > 0.0).then(|| self.bytes as f64 / s)
    }
}

/// Feeds a child's standard input ([`feed`]): the pipe made as large as
/// the system allows up to a megabyte (fewer switches between the two
/// processes) and non-blocking, so that the time spent waiting for the
/// tool to read is told from the time spent making and copying the bytes.
/// The feed gives up once `stop` is set (the tool has ended): a process it
/// left behind holding the pipe open must not hold the run.
pub fn feed_child(
    f: &Feed,
    pipe: std::process::ChildStdin,
    stop: &std::sync::atomic::AtomicBool,
) -> FeedDone {
    use std::os::fd::AsRawFd;
    let fd = pipe.as_raw_fd();
    // SAFETY: fcntl(2) on a descriptor this function owns through `pipe`;
    // a failure leaves the pipe as it was, which only costs speed
    unsafe {
        libc::fcntl(fd, libc::F_SETPIPE_SZ, CHUNK as libc::c_int);
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
    feed(f, pipe, |p| {
        let mut pfd = libc::pollfd {
            fd: p.as_raw_fd(),
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: poll(2) on one valid pollfd; a closed reader wakes it
        // (POLLERR), and the next write then fails
        unsafe {
            libc::poll(&mut pfd, 1, 100);
        }
        !stop.load(std::sync::atomic::Ordering::SeqCst)
    })
}

/// Writes `f.bytes` incompressible bytes to `out`, then closes it (the
/// tool sees the end of its input). When `out` would block, `wait` waits
/// until it can take more (that time is not the feed's own) and returns
/// whether to go on. Stops early when the tool stops reading (a broken
/// pipe: it exited or was stopped) or `wait` says to.
pub fn feed<W: Write>(f: &Feed, mut out: W, mut wait: impl FnMut(&W) -> bool) -> FeedDone {
    let start = Instant::now();
    let mut waiting = Duration::ZERO;
    let mut rng = Xoshiro256pp::new(f.seed);
    let mut buf = vec![0u8; CHUNK];
    let mut bytes = 0;
    'chunks: while bytes < f.bytes {
        let n = (f.bytes - bytes).min(CHUNK as u64) as usize;
        rng.fill(&mut buf[..n.div_ceil(8) * 8]);
        let mut at = 0;
        while at < n {
            match out.write(&buf[at..n]) {
                Ok(0) => break 'chunks,
                Ok(k) => at += k,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let t = Instant::now();
                    let go_on = wait(&out);
                    waiting += t.elapsed();
                    if !go_on {
                        break 'chunks;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break 'chunks,
            }
        }
        bytes += n as u64;
    }
    FeedDone {
        bytes,
        busy: start.elapsed().saturating_sub(waiting),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_xoshiro256pp_and_depends_on_the_seed() {
        // the reference implementation's first outputs from the state
        // {1, 2, 3, 4} (xoshiro256plusplus.c; rand_xoshiro's test vector)
        let mut g = Xoshiro256pp { s: [1, 2, 3, 4] };
        assert_eq!(g.next_u64(), 41943041);
        assert_eq!(g.next_u64(), 58720359);
        assert_eq!(g.next_u64(), 3588806011781223);
        let a: Vec<u64> = {
            let mut g = Xoshiro256pp::new(1);
            (0..4).map(|_| g.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut g = Xoshiro256pp::new(2);
            (0..4).map(|_| g.next_u64()).collect()
        };
        assert_ne!(a, b);
        assert_ne!(
            Feed::seed_for(std::path::Path::new("/s/dd-write-bulk.r1/dd.dat")),
            Feed::seed_for(std::path::Path::new("/s/dd-write-bulk.r2/dd.dat"))
        );
    }

    #[test]
    fn a_feed_writes_exactly_its_bytes_and_stops_at_a_closed_reader() {
        let mut out = Vec::new();
        let done = feed(
            &Feed {
                bytes: 3 * CHUNK as u64 + 5,
                seed: 7,
            },
            &mut out,
            |_| true,
        );
        assert_eq!(done.bytes, 3 * CHUNK as u64 + 5);
        assert_eq!(out.len() as u64, done.bytes);
        // a reader that stops after 10 bytes: the feed stops too
        struct Closed(usize);
        impl Write for Closed {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Err(std::io::ErrorKind::BrokenPipe.into());
                }
                let n = buf.len().min(self.0);
                self.0 -= n;
                Ok(n)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let done = feed(
            &Feed {
                bytes: 1 << 30,
                seed: 7,
            },
            Closed(10),
            |_| true,
        );
        assert_eq!(done.bytes, 0);
    }

    #[test]
    fn every_byte_value_is_as_frequent_as_any_other() {
        let mut out = Vec::new();
        feed(
            &Feed {
                bytes: 1 << 20,
                seed: 42,
            },
            &mut out,
            |_| true,
        );
        let mut counts = [0u32; 256];
        for b in &out {
            counts[*b as usize] += 1;
        }
        // 4096 each expected, a standard deviation of 64: within 10% is 6 sigma
        for (value, &n) in counts.iter().enumerate() {
            assert!((3686..=4506).contains(&n), "byte {value}: {n} times");
        }
    }
}

//! The machine's instance type (`m5.large`, `n2-standard-4`,
//! `Standard_D2s_v3`): `run --instance TYPE`, else the cloud's metadata
//! service where the VM offers one. Volumes attached to a small VM are
//! capped by the VM, so the records name it.
//!
//! Only a machine whose firmware (DMI) names one of these clouds asks
//! ([`cloud_of`]), and only that cloud's service. It is asked in one short budget
//! ([`METADATA_BUDGET`], all providers together): AWS IMDSv2 (a session
//! token by `PUT /latest/api/token`, then `GET
//! /latest/meta-data/instance-type`), GCP (`GET
//! /computeMetadata/v1/instance/machine-type` with `Metadata-Flavor:
//! Google`; the last part of `projects/N/machineTypes/TYPE`) and Azure
//! (`GET /metadata/instance/compute/vmSize?api-version=2021-02-01&format=text`
//! with `Metadata: true`), all at 169.254.169.254:80. Plain HTTP over a
//! socket with a deadline: no proxy, no redirect, at most
//! [`MAX_RESPONSE`] bytes read. No answer is no instance type; a run never
//! fails or waits longer for it.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The metadata address of AWS, GCP and Azure.
pub const METADATA_ADDR: &str = "169.254.169.254:80";

/// Environment variable naming another metadata address (`host:port`), for
/// tests that stand a local server in for the cloud's.
pub const METADATA_ADDR_ENV: &str = "DISKDASH_METADATA_ADDR";

/// Time for all metadata requests together.
pub const METADATA_BUDGET: Duration = Duration::from_millis(1000);

/// The most of a response read: an instance type is a few bytes.
pub const MAX_RESPONSE: u64 = 16 * 1024;

/// The longest instance type kept (the longest Azure size names are about
/// 30 characters).
pub const MAX_TYPE_CHARS: usize = 64;

/// Where an instance type came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    Aws,
    Gcp,
    Azure,
}

impl Provider {
    pub fn name(self) -> &'static str {
        match self {
            Provider::Aws => "AWS",
            Provider::Gcp => "GCP",
            Provider::Azure => "Azure",
        }
    }
}

/// What the metadata service said: the instance type and whose it is, or
/// an answer that is no instance type (kept to be told, never recorded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    Type(String, Provider),
    /// A service answered with text that is no instance type name.
    NotAName(Provider, String),
}

/// Whether `s` reads as an instance type: 1 to [`MAX_TYPE_CHARS`]
/// letters, digits, `.`, `-` and `_` (AWS `m5.large`, GCP
/// `n2-standard-4`, Azure `Standard_D2s_v3`).
pub fn is_instance_type(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_TYPE_CHARS
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// The DMI strings that tell a cloud VM (`/sys/class/dmi/id/`).
#[derive(Clone, Debug, Default)]
pub struct Dmi {
    pub sys_vendor: Option<String>,
    pub product_name: Option<String>,
    pub bios_vendor: Option<String>,
    pub bios_version: Option<String>,
}

impl Dmi {
    /// This machine's.
    pub fn read() -> Dmi {
        let read = |n: &str| std::fs::read_to_string(format!("/sys/class/dmi/id/{n}")).ok();
        Dmi {
            sys_vendor: read("sys_vendor"),
            product_name: read("product_name"),
            bios_vendor: read("bios_vendor"),
            bios_version: read("bios_version"),
        }
    }
}

/// The cloud whose metadata service to ask, by what the firmware says:
/// `Amazon EC2` (or a Xen BIOS version naming `amazon`, older EC2 types),
/// `Google` / `Google Compute Engine`, `Microsoft Corporation` /
/// `Virtual Machine`. A machine none of these names is not asked: no
/// request leaves it.
pub fn cloud_of(dmi: &Dmi) -> Option<Provider> {
    let f = |v: &Option<String>| v.as_deref().unwrap_or("").trim().to_string();
    let (vendor, product, bios, version) = (
        f(&dmi.sys_vendor),
        f(&dmi.product_name),
        f(&dmi.bios_vendor),
        f(&dmi.bios_version),
    );
    if vendor.contains("Amazon EC2")
        || bios.contains("Amazon EC2")
        || version.to_lowercase().contains("amazon")
    {
        Some(Provider::Aws)
    } else if vendor == "Google" || product == "Google Compute Engine" {
        Some(Provider::Gcp)
    } else if vendor == "Microsoft Corporation" && product == "Virtual Machine" {
        Some(Provider::Azure)
    } else {
        None
    }
}

/// Which clouds' services to ask at which address: with
/// [`METADATA_ADDR_ENV`] set, all three at its address; else the one
/// [`cloud_of`] names at [`METADATA_ADDR`], or none.
pub fn what_to_ask(dmi: &Dmi) -> Option<(SocketAddr, Vec<Provider>)> {
    match std::env::var(METADATA_ADDR_ENV) {
        Ok(addr) => Some((
            addr.to_socket_addrs().ok()?.next()?,
            vec![Provider::Aws, Provider::Gcp, Provider::Azure],
        )),
        Err(_) => Some((METADATA_ADDR.parse().ok()?, vec![cloud_of(dmi)?])),
    }
}

/// What this machine's metadata service says, asked as [`what_to_ask`]
/// says, within [`METADATA_BUDGET`]; `None` where nothing is asked or
/// nothing answers.
pub fn lookup() -> Option<Found> {
    let (addr, providers) = what_to_ask(&Dmi::read())?;
    from_metadata(addr, METADATA_BUDGET, &providers)
}

/// Asks the metadata services of `providers` at `addr` for the instance
/// type, in that order, all within `budget`. `None` when nothing answers.
pub fn from_metadata(addr: SocketAddr, budget: Duration, providers: &[Provider]) -> Option<Found> {
    let deadline = Instant::now() + budget;
    providers.iter().find_map(|&p| ask(addr, deadline, p))
}

fn ask(addr: SocketAddr, deadline: Instant, provider: Provider) -> Option<Found> {
    match provider {
        Provider::Aws => aws(addr, deadline),
        Provider::Gcp => gcp(addr, deadline),
        Provider::Azure => azure(addr, deadline),
    }
}

fn aws(addr: SocketAddr, deadline: Instant) -> Option<Found> {
    // a session token first (IMDSv2; IMDSv1 is not asked)
    if let Some((200, token)) = request(
        addr,
        deadline,
        "PUT",
        "/latest/api/token",
        &["X-aws-ec2-metadata-token-ttl-seconds: 60"],
    ) {
        let token = token.trim();
        if is_token(token) {
            let header = format!("X-aws-ec2-metadata-token: {token}");
            if let Some((200, body)) = request(
                addr,
                deadline,
                "GET",
                "/latest/meta-data/instance-type",
                &[&header],
            ) {
                return Some(found(body.trim(), Provider::Aws));
            }
        }
    }
    None
}

fn gcp(addr: SocketAddr, deadline: Instant) -> Option<Found> {
    if let Some((200, body)) = request(
        addr,
        deadline,
        "GET",
        "/computeMetadata/v1/instance/machine-type",
        &["Metadata-Flavor: Google"],
    ) {
        // projects/123456789/machineTypes/n2-standard-4
        let body = body.trim();
        return Some(found(
            body.rsplit('/').next().unwrap_or(body),
            Provider::Gcp,
        ));
    }
    None
}

fn azure(addr: SocketAddr, deadline: Instant) -> Option<Found> {
    if let Some((200, body)) = request(
        addr,
        deadline,
        "GET",
        "/metadata/instance/compute/vmSize?api-version=2021-02-01&format=text",
        &["Metadata: true"],
    ) {
        return Some(found(body.trim(), Provider::Azure));
    }
    None
}

fn found(text: &str, provider: Provider) -> Found {
    if is_instance_type(text) {
        Found::Type(text.to_string(), provider)
    } else {
        Found::NotAName(provider, text.chars().take(80).collect())
    }
}

/// An IMDSv2 token as AWS gives it: base64 text of a sane length (it goes
/// into a header line, so nothing else is sent back).
fn is_token(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 1024
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
}

/// One HTTP/1.1 request (`Connection: close`) with `headers`; the status
/// and body (lossily decoded, a chunked body joined), or `None` when no
/// answer came before `deadline`.
fn request(
    addr: SocketAddr,
    deadline: Instant,
    method: &str,
    path: &str,
    headers: &[&str],
) -> Option<(u16, String)> {
    let left = |d: Instant| {
        d.checked_duration_since(Instant::now())
            .filter(|t| !t.is_zero())
    };
    let mut stream = TcpStream::connect_timeout(&addr, left(deadline)?).ok()?;
    stream.set_write_timeout(left(deadline)).ok()?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", addr.ip());
    for h in headers {
        req.push_str(h);
        req.push_str("\r\n");
    }
    if method == "PUT" {
        req.push_str("Content-Length: 0\r\n");
    }
    req.push_str("Connection: close\r\n\r\n");
    stream.write_all(req.as_bytes()).ok()?;
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        stream.set_read_timeout(left(deadline)).ok()?;
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                bytes.extend_from_slice(&buf[..n]);
                if bytes.len() as u64 > MAX_RESPONSE {
                    return None;
                }
                if complete(&bytes) {
                    break;
                }
            }
            Err(_) => return None,
        }
    }
    parse_response(&bytes)
}

/// Whether `bytes` hold a whole response by its `Content-Length`.
fn complete(bytes: &[u8]) -> bool {
    let Some(end) = find(bytes, b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&bytes[..end]);
    content_length(&head).is_some_and(|n| bytes.len() >= end + 4 + n)
}

fn content_length(head: &str) -> Option<usize> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse().ok())?
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Status and body of an HTTP/1.x response.
fn parse_response(bytes: &[u8]) -> Option<(u16, String)> {
    let end = find(bytes, b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&bytes[..end]);
    let status: u16 = head
        .lines()
        .next()?
        .strip_prefix("HTTP/1.")?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    let mut body = &bytes[end + 4..];
    if let Some(n) = content_length(&head) {
        body = &body[..n.min(body.len())];
    }
    let chunked = head.lines().any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("transfer-encoding")
                && v.trim().eq_ignore_ascii_case("chunked")
        })
    });
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_vec()
    };
    Some((status, String::from_utf8_lossy(&body).into_owned()))
}

/// A chunked body joined; `None` when it is cut short.
fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = find(b, b"\r\n")?;
        let size_text = String::from_utf8_lossy(&b[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        b = &b[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size + 2..)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    const ALL: [Provider; 3] = [Provider::Aws, Provider::Gcp, Provider::Azure];

    #[test]
    fn only_a_machine_whose_firmware_names_a_cloud_asks_it() {
        let dmi = |v: &str, p: &str, bv: &str| Dmi {
            sys_vendor: Some(format!("{v}\n")),
            product_name: Some(format!("{p}\n")),
            bios_vendor: None,
            bios_version: Some(format!("{bv}\n")),
        };
        assert_eq!(
            cloud_of(&dmi("Amazon EC2", "m5.large", "1.0")),
            Some(Provider::Aws)
        );
        assert_eq!(
            cloud_of(&dmi("Xen", "HVM domU", "4.11.amazon")),
            Some(Provider::Aws)
        );
        assert_eq!(
            cloud_of(&dmi("Google", "Google Compute Engine", "Google")),
            Some(Provider::Gcp)
        );
        assert_eq!(
            cloud_of(&dmi(
                "Microsoft Corporation",
                "Virtual Machine",
                "Hyper-V UEFI Release v4.1"
            )),
            Some(Provider::Azure)
        );
        assert_eq!(
            cloud_of(&dmi("QEMU", "Standard PC (i440FX + PIIX, 1996)", "1.16.3")),
            None
        );
        assert_eq!(cloud_of(&dmi("DigitalOcean", "Droplet", "20171212")), None);
        assert_eq!(cloud_of(&Dmi::default()), None);
    }

    /// A one-thread HTTP server answering each request with `answer(head)`
    /// (status and body; `None` for a connection closed without a word).
    fn serve(answer: fn(&str) -> Option<(u16, &'static str)>) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                let mut buf = [0u8; 4096];
                let mut got = Vec::new();
                while find(&got, b"\r\n\r\n").is_none() {
                    match s.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&got).into_owned();
                if let Some((code, body)) = answer(&head) {
                    let _ = write!(
                        s,
                        "HTTP/1.1 {code} X\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                }
            }
        });
        addr
    }

    #[test]
    fn aws_is_asked_with_an_imdsv2_token() {
        let addr = serve(|h| {
            if h.starts_with("PUT /latest/api/token ")
                && h.contains("X-aws-ec2-metadata-token-ttl-seconds: 60")
            {
                Some((200, "AQAEAFake-token=="))
            } else if h.starts_with("GET /latest/meta-data/instance-type ")
                && h.contains("X-aws-ec2-metadata-token: AQAEAFake-token==")
            {
                Some((200, "m5.large"))
            } else {
                Some((404, "not found"))
            }
        });
        assert_eq!(
            from_metadata(addr, METADATA_BUDGET, &ALL),
            Some(Found::Type("m5.large".into(), Provider::Aws))
        );
    }

    #[test]
    fn gcp_gives_the_last_part_of_its_machine_type_path() {
        let addr = serve(|h| {
            (h.starts_with("GET /computeMetadata/v1/instance/machine-type ")
                && h.contains("Metadata-Flavor: Google"))
            .then_some((200, "projects/123456789012/machineTypes/n2-standard-4"))
            .or(Some((404, "")))
        });
        assert_eq!(
            from_metadata(addr, METADATA_BUDGET, &ALL),
            Some(Found::Type("n2-standard-4".into(), Provider::Gcp))
        );
    }

    #[test]
    fn azure_is_asked_for_its_vm_size_as_text() {
        let addr = serve(|h| {
            (h.starts_with(
                "GET /metadata/instance/compute/vmSize?api-version=2021-02-01&format=text ",
            ) && h.contains("Metadata: true"))
            .then_some((200, "Standard_D2s_v3"))
            .or(Some((400, "Bad request")))
        });
        assert_eq!(
            from_metadata(addr, METADATA_BUDGET, &ALL),
            Some(Found::Type("Standard_D2s_v3".into(), Provider::Azure))
        );
    }

    #[test]
    fn an_answer_that_is_no_name_is_told_not_recorded() {
        let addr = serve(|h| {
            h.starts_with("GET /metadata/")
                .then_some((200, "<html>\u{1b}[31mproxy login</html>"))
                .or(Some((404, "")))
        });
        let Some(Found::NotAName(Provider::Azure, text)) =
            from_metadata(addr, METADATA_BUDGET, &ALL)
        else {
            panic!("expected an answer that is no name");
        };
        assert!(text.starts_with("<html>"), "{text}");
        assert!(is_instance_type("m7g.16xlarge"));
        assert!(!is_instance_type(""));
        assert!(!is_instance_type("a b"));
        assert!(!is_instance_type(&"x".repeat(65)));
    }

    #[test]
    fn no_metadata_is_none_within_the_budget() {
        // a server that accepts and never answers: the budget ends it
        let silent = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = silent.local_addr().unwrap();
        let start = Instant::now();
        assert_eq!(from_metadata(addr, Duration::from_millis(300), &ALL), None);
        assert!(
            start.elapsed() < Duration::from_millis(800),
            "{:?}",
            start.elapsed()
        );
        // nothing listening: refused at once
        drop(silent);
        let start = Instant::now();
        assert_eq!(from_metadata(addr, METADATA_BUDGET, &ALL), None);
        assert!(
            start.elapsed() < Duration::from_millis(500),
            "{:?}",
            start.elapsed()
        );
        // every provider says no
        let addr = serve(|_| Some((404, "")));
        assert_eq!(from_metadata(addr, METADATA_BUDGET, &ALL), None);
    }

    #[test]
    fn responses_are_read_by_length_or_chunks() {
        assert_eq!(
            parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef"),
            Some((200, "abc".into()))
        );
        assert_eq!(
            parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nm5\r\n6\r\n.large\r\n0\r\n\r\n"),
            Some((200, "m5.large".into()))
        );
        assert_eq!(
            parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nm5"),
            None
        );
        assert_eq!(parse_response(b"garbage"), None);
    }
}

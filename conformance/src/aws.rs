//! Requests to an implementation of an AWS API on loopback (dynalite, moto), signed
//! with Signature Version 4 as an SDK signs them, over the suite's plain HTTP/1.1 (http.rs). The servers here accept any key pair; the signature is
//! still the real algorithm (canonical request, string to sign, the derived key), so that a server
//! that checks it would accept it.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::http;
pub use crate::http::Response;
use crate::servers::Res;

/// The suite's throwaway credentials (the servers take any), and the region it names.
const ACCESS_KEY: &str = "LEASELABCONFORMANCE";
const SECRET_KEY: &str = "leaselab-conformance-secret";
const REGION: &str = "us-east-1";

/// One request: what SigV4 signs and what goes on the wire.
pub struct Request<'a> {
    pub port: u16,
    pub method: &'a str,
    /// The path, already URI-encoded (`/bucket/key`).
    pub path: &'a str,
    /// The query string, its parameters sorted and encoded (`` for none).
    pub query: &'a str,
    /// The API's signing name, as the SDK names the service (`s3`…).
    pub service: &'a str,
    /// Headers beyond `host`, `x-amz-date` and `x-amz-content-sha256`, lower-case names.
    pub headers: Vec<(&'a str, String)>,
    pub body: &'a [u8],
    pub within: Duration,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

fn hmac(key: &[u8], data: &str) -> Vec<u8> {
    // HMAC takes a key of any length: this cannot fail.
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(data.as_bytes());
    m.finalize().into_bytes().to_vec()
}

/// `(YYYYMMDD, YYYYMMDDTHHMMSSZ)` of a time (the civil calendar from days since 1970, Howard
/// Hinnant's algorithm).
fn amz_dates(t: SystemTime) -> (String, String) {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let date = format!("{y:04}{m:02}{d:02}");
    let time = format!(
        "{date}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    );
    (date, time)
}

/// The request's headers with SigV4's `authorization` added: every header is signed.
fn signed_headers(r: &Request, now: SystemTime) -> Vec<(String, String)> {
    let (date, stamp) = amz_dates(now);
    let payload = sha256_hex(r.body);
    let mut h: Vec<(String, String)> = vec![
        ("host".into(), format!("127.0.0.1:{}", r.port)),
        ("x-amz-content-sha256".into(), payload.clone()),
        ("x-amz-date".into(), stamp.clone()),
    ];
    h.extend(
        r.headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.trim().to_string())),
    );
    h.sort();
    let names: Vec<&str> = h.iter().map(|(n, _)| n.as_str()).collect();
    let names = names.join(";");
    let canonical_headers: String = h.iter().map(|(n, v)| format!("{n}:{v}\n")).collect();
    let canonical = format!(
        "{}\n{}\n{}\n{canonical_headers}\n{names}\n{payload}",
        r.method, r.path, r.query
    );
    let scope = format!("{date}/{REGION}/{}/aws4_request", r.service);
    let to_sign = format!(
        "AWS4-HMAC-SHA256\n{stamp}\n{scope}\n{}",
        sha256_hex(canonical.as_bytes())
    );
    let mut key = hmac(format!("AWS4{SECRET_KEY}").as_bytes(), &date);
    for part in [REGION, r.service, "aws4_request"] {
        key = hmac(&key, part);
    }
    let signature = hex(&hmac(&key, &to_sign));
    h.push((
        "authorization".into(),
        format!(
            "AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/{scope}, SignedHeaders={names}, Signature={signature}"
        ),
    ));
    h
}

/// Sends the request, signed, and reads the whole answer.
pub fn send(r: &Request) -> Res<Response> {
    let target = if r.query.is_empty() {
        r.path.to_string()
    } else {
        format!("{}?{}", r.path, r.query)
    };
    let what = format!("{} {} {}", r.service, r.method, r.path);
    let headers = signed_headers(r, SystemTime::now());
    http::exchange(r.port, (r.method, &target), &headers, r.body, r.within)
        .map_err(|e| format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_civil_calendar() {
        let t = UNIX_EPOCH + Duration::from_secs(1_440_938_160); // 2015-08-30T12:36:00Z
        assert_eq!(amz_dates(t), ("20150830".into(), "20150830T123600Z".into()));
        assert_eq!(amz_dates(UNIX_EPOCH).1, "19700101T000000Z");
    }

    #[test]
    fn the_signature_is_sigv4s() {
        // AWS's published example key derivation (General Reference, "Examples of how to derive a
        // signing key"): secret wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 20120215, us-east-1, iam.
        let mut key = hmac(b"AWS4wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215");
        for part in ["us-east-1", "iam", "aws4_request"] {
            key = hmac(&key, part);
        }
        assert_eq!(
            hex(&key),
            "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d"
        );
    }
}

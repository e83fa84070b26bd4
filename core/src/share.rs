//! Share links: a whole design in a URL fragment, `<base>/#d=1.<payload>`, so a link works
//! from a static host, needs no account, and the design never reaches a server.
//!
//! The payload is `<version>.` then base64url (no padding) of raw DEFLATE, primed with a
//! dictionary of common DynamoDB words, of the design in an explicit, positional byte layout
//! that only this module knows (see `share/v1.rs`): prose first, then the structure, where a
//! repeated name is one byte. Encoding is canonical: the same design always makes the same
//! link.
//!
//! Decoding trusts nothing and never panics. It refuses, in this order and before allocating
//! for them: a payload longer than [`MAX_LINK_CHARS`]; a missing or unknown version; bad
//! base64; DEFLATE data that is damaged, cut short, or unpacks to more than
//! [`MAX_DESIGN_BYTES`] (decompression stops at the limit, so a bomb costs milliseconds);
//! wire data that is damaged, followed by garbage, whose name references would expand past
//! [`MAX_DESIGN_BYTES`], or not a design the model can hold (a non-finite number, sample
//! values nested too deep). Each refusal is a [`LinkError`] that says
//! what is wrong.
//!
//! Versions: every version ever written keeps its reader, which reads into the current model
//! (filling what its version lacked with defaults); a newer version is refused by name.
//! Version 2 (written since issues 12 and 13) is version 1's wire bytes followed by the
//! patterns' orders (`order_by`, which version 1 cannot carry), then, inside the compressed
//! data, the CRC-32 (IEEE) of those bytes, little-endian: a link damaged in transit (a flipped
//! bit, a changed character) that still inflates is refused with "the link is damaged" instead
//! of opening as another design. CRC-32 rather than the Adler-32 of zlib's framing: Adler-32
//! is weak on short inputs (RFC 3309 replaced it in SCTP for that reason), and links are short;
//! zlib's header would also cost 6 more bytes. Version 1 links (no orders, no checksum) still
//! open. Version 3 (issue 17) adds the entities' volumes after the orders, with the same
//! checksum; version 4 (issue 16) the tables' replicas, the patterns' peak factors and their
//! filters after the volumes; version 5 (issue 40) what version 4 refused or dropped: a table's
//! auto scaling and its GSIs' capacities, vector indexes and searches, PartiQL statements and
//! the sample items written by hand, so every design the model holds travels whole.

mod v1;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use miniz_oxide::deflate::core::{CompressorOxide, TDEFLFlush, TDEFLStatus, compress_to_output};
use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

use crate::model::Design;

/// The link format this build writes (the newest it reads).
pub const LINK_VERSION: u32 = 5;
/// The longest payload (after `#d=`) a link may carry, in characters: 64 KiB of text. Browsers
/// and chat tools start truncating URLs somewhere past this.
pub const MAX_LINK_CHARS: usize = 64 * 1024;
/// The most bytes a payload may unpack to: 4 MiB, far above any real design's wire form and
/// low enough that a crafted link cannot exhaust a browser tab's memory.
pub const MAX_DESIGN_BYTES: usize = 4 * 1024 * 1024;
/// Where `keyplan serve` listens by default; the base of links made on the command line.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080";

/// Why a design could not be shared, or a link could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("the link is empty: expected `<address>/#d=1.…`")]
    Empty,
    #[error("the link has no design: expected `#d=1.…` after the address")]
    NoDesign,
    #[error("the link's design is {chars} characters long; keyplan opens at most {MAX_LINK_CHARS}")]
    TooLong { chars: usize },
    #[error(
        "the design takes {chars} characters as a link, more than the {MAX_LINK_CHARS} a link may carry: share the design file instead"
    )]
    DesignTooLarge { chars: usize },
    #[error(
        "the link has no version: it should start with a version such as `{LINK_VERSION}.`, not `{start}`"
    )]
    NoVersion { start: String },
    #[error(
        "the link was made by a newer keyplan (link version {found}, this one reads up to {LINK_VERSION}): upgrade keyplan"
    )]
    TooNew { found: u32 },
    #[error("`{found}` is not a link version: this keyplan reads versions 1 to {LINK_VERSION}")]
    UnknownVersion { found: String },
    #[error("the link is damaged: {problem}")]
    BadBase64 { problem: String },
    #[error("the link is damaged or cut short: its compressed design ends early")]
    Truncated,
    #[error("the link is damaged: its checksum does not match its design")]
    Checksum,
    #[error("the link is damaged: its compressed design is not valid DEFLATE data")]
    Corrupt,
    #[error("the link's design unpacks to more than {MAX_DESIGN_BYTES} bytes: refused")]
    TooBig,
    #[error("the link is damaged: {extra} unexpected bytes follow its design")]
    TrailingBytes { extra: usize },
    #[error("the link's design is damaged: {problem}")]
    Malformed { problem: String },
}

/// The payload for `design`: `5.` then base64url. Fails when the design is too large for a
/// link ([`LinkError::DesignTooLarge`]).
pub fn encode(design: &Design) -> Result<String, LinkError> {
    let mut wire = wire_bytes(design);
    let checksum = crc32(&wire);
    wire.extend_from_slice(&checksum.to_le_bytes());
    let packed = deflate(v1::dictionary(), &wire);
    let payload = format!("{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed));
    if payload.len() > MAX_LINK_CHARS {
        return Err(LinkError::DesignTooLarge {
            chars: payload.len(),
        });
    }
    Ok(payload)
}

/// The whole link: `base` (the app's address, e.g. [`DEFAULT_BASE`]) then `/#d=` and the
/// payload. A base that ends in `/` or `.html` gets the fragment directly.
pub fn link(base: &str, design: &Design) -> Result<String, LinkError> {
    let payload = encode(design)?;
    let base = base.trim();
    let separator = if base.ends_with('/') || base.ends_with(".html") {
        ""
    } else {
        "/"
    };
    Ok(format!("{base}{separator}#d={payload}"))
}

/// The design in a link. Takes a whole link (`http://…/#d=1.…`), a fragment (`#d=1.…`, what
/// `location.hash` gives) or the payload alone (`1.…`); surrounding whitespace is ignored.
pub fn decode(link: &str) -> Result<Design, LinkError> {
    let payload = payload_of(link)?;
    if payload.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong {
            chars: payload.len(),
        });
    }
    let Some((version, body)) = payload.split_once('.') else {
        return Err(LinkError::NoVersion {
            start: payload.chars().take(12).collect(),
        });
    };
    decode_version(version, body)
}

/// The uncompressed wire form of `design` (version 1's layout, which version 2 carries with
/// its checksum): what [`encode`] compresses.
/// Public for figures (`scripts/link-lengths`), not for storage.
pub fn wire_bytes(design: &Design) -> Vec<u8> {
    v1::write(design)
}

/// Whether `link` (a whole link or `location.hash`) carries a `d=` fragment parameter, so an app
/// can tell "no link here" from "a link that does not decode".
pub fn has_payload(link: &str) -> bool {
    let link = link.trim();
    let fragment = link.split_once('#').map_or(link, |(_, fragment)| fragment);
    fragment.split('&').any(|param| param.starts_with("d="))
}

/// Finds the payload in a link, a fragment or a bare payload.
fn payload_of(text: &str) -> Result<&str, LinkError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(LinkError::Empty);
    }
    let fragment = match text.find('#') {
        Some(hash) => &text[hash + 1..],
        None if text.contains("://") => return Err(LinkError::NoDesign),
        None => text,
    };
    for param in fragment.split('&') {
        if let Some(payload) = param.strip_prefix("d=") {
            return if payload.is_empty() {
                Err(LinkError::Empty)
            } else {
                Ok(payload)
            };
        }
    }
    if text.contains('#') {
        return Err(LinkError::NoDesign);
    }
    Ok(fragment)
}

/// Reads `body` as the payload of `version` (the text before the first `.`) into the current
/// model. Every version this build has ever written keeps its reader here; a reader of an older
/// version fills the fields its version lacked with their defaults, so migration is the
/// reader's job and a link never goes stale.
fn decode_version(version: &str, body: &str) -> Result<Design, LinkError> {
    // Canonical decimal only: no sign, no leading zero, at most nine digits.
    let number = if !version.is_empty()
        && !version.starts_with('0')
        && version.len() <= 9
        && version.bytes().all(|b| b.is_ascii_digit())
    {
        version.parse::<u32>().ok()
    } else {
        None
    };
    match number {
        Some(1) => {
            let bytes = inflate(v1::dictionary(), &unbase64(body)?)?;
            v1::read(&bytes, 1).map_err(|e| LinkError::Malformed {
                problem: format!("at byte {}: {}", e.at, e.problem),
            })
        }
        Some(n @ 2..=LINK_VERSION) => {
            let bytes = inflate(v1::dictionary(), &unbase64(body)?)?;
            let Some(split) = bytes.len().checked_sub(4) else {
                return Err(LinkError::Truncated);
            };
            let (wire, stored) = bytes.split_at(split);
            let mut checksum = [0u8; 4];
            checksum.copy_from_slice(stored);
            if crc32(wire) != u32::from_le_bytes(checksum) {
                return Err(LinkError::Checksum);
            }
            v1::read(wire, n).map_err(|e| LinkError::Malformed {
                problem: format!("at byte {}: {}", e.at, e.problem),
            })
        }
        Some(n) if n > LINK_VERSION => Err(LinkError::TooNew { found: n }),
        _ => Err(LinkError::UnknownVersion {
            found: version.chars().take(12).collect(),
        }),
    }
}

/// CRC-32 (IEEE 802.3, the polynomial of zip, gzip and PNG), bit by bit: links are at most
/// [`MAX_DESIGN_BYTES`] unpacked and usually a few kilobytes, so no table is worth its bytes
/// in the app's WebAssembly.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

fn unbase64(body: &str) -> Result<Vec<u8>, LinkError> {
    use base64::DecodeError;
    URL_SAFE_NO_PAD.decode(body).map_err(|e| LinkError::BadBase64 {
        problem: match e {
            DecodeError::InvalidByte(at, byte) | DecodeError::InvalidLastSymbol(at, byte) => {
                format!(
                    "{} at character {} after the version is not base64url",
                    describe_byte(byte),
                    at + 1
                )
            }
            DecodeError::InvalidLength(len) => {
                format!("{len} base64url characters do not make whole bytes: was the link cut short?")
            }
            DecodeError::InvalidPadding => "padding `=` does not belong in a link".to_string(),
        },
    })
}

fn describe_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("`{}`", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

/// Raw DEFLATE of `data` with `dictionary` as the window's history. The dictionary is
/// compressed first and flushed to a byte boundary; its output is dropped, so what remains is
/// a stream whose back-references may reach into the dictionary.
fn deflate(dictionary: &[u8], data: &[u8]) -> Vec<u8> {
    let mut compressor = CompressorOxide::with_format_and_level(
        miniz_oxide::DataFormat::Raw,
        miniz_oxide::deflate::CompressionLevel::UberCompression,
    );
    let mut out = Vec::new();
    let (status, _) = compress_to_output(&mut compressor, dictionary, TDEFLFlush::Sync, |c| {
        out.extend_from_slice(c);
        true
    });
    debug_assert_eq!(status, TDEFLStatus::Okay);
    let primed = out.len();
    let (status, _) = compress_to_output(&mut compressor, data, TDEFLFlush::Finish, |c| {
        out.extend_from_slice(c);
        true
    });
    debug_assert_eq!(status, TDEFLStatus::Done);
    out.split_off(primed)
}

/// Inflates `data` with `dictionary` as history, growing the output as needed and stopping
/// with [`LinkError::TooBig`] as soon as it passes [`MAX_DESIGN_BYTES`].
fn inflate(dictionary: &[u8], data: &[u8]) -> Result<Vec<u8>, LinkError> {
    inflate_with_limit(dictionary, data, MAX_DESIGN_BYTES)
}

fn inflate_with_limit(dictionary: &[u8], data: &[u8], limit: usize) -> Result<Vec<u8>, LinkError> {
    let start = dictionary.len();
    // One byte past the limit tells "exactly the limit" from "more".
    let max_len = start + limit + 1;
    let mut out = dictionary.to_vec();
    let first_guess = start + data.len().saturating_mul(4).max(1024);
    out.resize(first_guess.min(max_len), 0);
    let mut decompressor = Box::<DecompressorOxide>::default();
    let mut input = data;
    let mut pos = start;
    loop {
        let (status, consumed, produced) = decompress(
            &mut decompressor,
            input,
            &mut out,
            pos,
            inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
        );
        pos += produced;
        input = input.get(consumed..).unwrap_or_default();
        if pos - start > limit {
            return Err(LinkError::TooBig);
        }
        match status {
            TINFLStatus::Done if input.is_empty() => {
                out.truncate(pos);
                return Ok(out.split_off(start));
            }
            TINFLStatus::Done => return Err(LinkError::TrailingBytes { extra: input.len() }),
            TINFLStatus::HasMoreOutput => {
                let grown = out.len().saturating_mul(2).min(max_len);
                if grown <= out.len() {
                    return Err(LinkError::TooBig);
                }
                out.resize(grown, 0);
            }
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(LinkError::Truncated);
            }
            _ => return Err(LinkError::Corrupt),
        }
    }
}

#[cfg(test)]
mod tests;

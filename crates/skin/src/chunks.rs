//! The PNG container read by hand before the decoder sees it: the signature, the chunk
//! sequence and the header (`IHDR`).
//!
//! Walking the chunks costs no allocation and tells apart the refusals that depend only on
//! the file's structure: a truncated file (a chunk running past the end, no `IEND`), an
//! animated one (`acTL`), and the dimensions and bit depth the header claims, which the
//! limits are checked against before any pixel buffer exists. Checksums and the compressed
//! data are left to the decoder.

use crate::error::SkinError;

/// The eight bytes every PNG file starts with.
pub const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// What the header (`IHDR`) claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bits per channel (or per palette index).
    pub bit_depth: u8,
}

/// Checks the signature and the chunk sequence of `bytes` and returns the header.
pub fn read_header(bytes: &[u8]) -> Result<Header, SkinError> {
    let Some(rest) = bytes.strip_prefix(&SIGNATURE[..]) else {
        if bytes.len() < SIGNATURE.len() && SIGNATURE.starts_with(bytes) && !bytes.is_empty() {
            return Err(SkinError::Truncated(
                "the file ends inside the PNG signature",
            ));
        }
        return Err(SkinError::NotPng);
    };
    let mut chunks = Chunks { rest };
    let header = match chunks.next_chunk()? {
        Some(Chunk {
            kind: b"IHDR",
            data,
        }) => parse_ihdr(data)?,
        Some(Chunk { kind, .. }) => {
            return Err(SkinError::Malformed(format!(
                "the first chunk is {}, not IHDR",
                String::from_utf8_lossy(kind)
            )));
        }
        None => {
            return Err(SkinError::Truncated(
                "the file ends after the PNG signature",
            ));
        }
    };
    loop {
        match chunks.next_chunk()? {
            Some(Chunk { kind: b"acTL", .. }) => return Err(SkinError::Animated),
            Some(Chunk { kind: b"IEND", .. }) => return Ok(header),
            Some(_) => {}
            None => return Err(SkinError::Truncated("the file ends before the IEND chunk")),
        }
    }
}

/// One chunk's type and data.
struct Chunk<'a> {
    kind: &'a [u8; 4],
    data: &'a [u8],
}

/// The chunks after the signature: 4 bytes of length, 4 of type, the data, 4 of CRC.
struct Chunks<'a> {
    rest: &'a [u8],
}

impl<'a> Chunks<'a> {
    /// The next chunk's type and data, `None` at the end of the file.
    fn next_chunk(&mut self) -> Result<Option<Chunk<'a>>, SkinError> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        let Some((head, after)) = self.rest.split_first_chunk::<8>() else {
            return Err(SkinError::Truncated("the file ends inside a chunk header"));
        };
        let (len, kind) = head.split_at(4);
        let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]);
        if len > i32::MAX as u32 {
            return Err(SkinError::Malformed(format!(
                "a chunk claims {len} bytes (at most 2^31 - 1)"
            )));
        }
        let Some(kind) = kind.first_chunk::<4>() else {
            return Err(SkinError::Truncated("the file ends inside a chunk header"));
        };
        let len = len as usize;
        if after.len() < len.saturating_add(4) {
            return Err(SkinError::Truncated(
                "a chunk runs past the end of the file",
            ));
        }
        let (data, after) = after.split_at(len);
        self.rest = &after[4..];
        Ok(Some(Chunk { kind, data }))
    }
}

/// The header's fields that the limits need; the rest is checked by the decoder.
fn parse_ihdr(data: &[u8]) -> Result<Header, SkinError> {
    let Some(fields) = data.first_chunk::<13>().filter(|_| data.len() == 13) else {
        return Err(SkinError::Malformed(format!(
            "the IHDR chunk is {} bytes, not 13",
            data.len()
        )));
    };
    let width = u32::from_be_bytes([fields[0], fields[1], fields[2], fields[3]]);
    let height = u32::from_be_bytes([fields[4], fields[5], fields[6], fields[7]]);
    if width == 0 || height == 0 {
        return Err(SkinError::Malformed(format!(
            "the header claims {width}×{height} pixels"
        )));
    }
    Ok(Header {
        width,
        height,
        bit_depth: fields[8],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out.extend_from_slice(&[0; 4]);
        out
    }

    fn ihdr(width: u32, height: u32) -> Vec<u8> {
        let mut data = width.to_be_bytes().to_vec();
        data.extend_from_slice(&height.to_be_bytes());
        data.extend_from_slice(&[8, 6, 0, 0, 0]);
        chunk(b"IHDR", &data)
    }

    fn file(chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut out = SIGNATURE.to_vec();
        for c in chunks {
            out.extend_from_slice(c);
        }
        out
    }

    #[test]
    fn the_header_is_read_from_the_first_chunk() {
        let bytes = file(&[ihdr(270, 30), chunk(b"IDAT", &[1, 2]), chunk(b"IEND", &[])]);
        let header = read_header(&bytes).expect("read");
        assert_eq!(
            (header.width, header.height, header.bit_depth),
            (270, 30, 8)
        );
    }

    #[test]
    fn a_header_that_is_not_first_is_malformed() {
        let bytes = file(&[chunk(b"IDAT", &[]), ihdr(270, 30), chunk(b"IEND", &[])]);
        assert!(matches!(read_header(&bytes), Err(SkinError::Malformed(_))));
    }

    #[test]
    fn a_chunk_longer_than_the_file_is_truncation() {
        let mut bytes = file(&[ihdr(270, 30), chunk(b"IDAT", &[0; 100])]);
        bytes.truncate(bytes.len() - 50);
        assert_eq!(
            read_header(&bytes),
            Err(SkinError::Truncated(
                "a chunk runs past the end of the file"
            ))
        );
    }

    #[test]
    fn a_file_without_iend_is_truncation() {
        let bytes = file(&[ihdr(270, 30), chunk(b"IDAT", &[0; 10])]);
        assert_eq!(
            read_header(&bytes),
            Err(SkinError::Truncated("the file ends before the IEND chunk"))
        );
    }

    #[test]
    fn part_of_the_signature_is_truncation_and_other_bytes_are_not_a_png() {
        assert!(matches!(
            read_header(&SIGNATURE[..5]),
            Err(SkinError::Truncated(_))
        ));
        assert_eq!(read_header(b"GIF89a"), Err(SkinError::NotPng));
        assert_eq!(read_header(b""), Err(SkinError::NotPng));
    }

    #[test]
    fn zero_dimensions_are_malformed() {
        let bytes = file(&[ihdr(0, 30), chunk(b"IEND", &[])]);
        assert!(matches!(read_header(&bytes), Err(SkinError::Malformed(_))));
    }
}

//! Formats that cannot drift: committed bytes for every wire message variant and a version-1
//! replay file, decoded and re-encoded byte for byte. A reordered field, a changed enum or a
//! dependency bump that changes the encoding fails here instead of silently breaking older
//! clients and saved replays.
//!
//! `golden/messages.txt` holds one line per variant: `client|server Variant hex-bytes`.
//! Adding a variant (append it at the END of its enum, see docs/PROTOCOL.md):
//! 1. add a sample of it to `tests/samples/mod.rs` and its name to `client_name`/`server_name`;
//! 2. run `SEVENBAG_BLESS=1 cargo test -p sevenbag-protocol --test golden`: missing entries are
//!    appended to the file (and missing golden files written); existing entries are never
//!    rewritten, so a change to an existing variant's bytes always fails;
//! 3. commit the new line. Changing an existing entry means old peers break: bump
//!    `PROTOCOL_VERSION` (or `REPLAY_FORMAT_VERSION`) and say so in the commit.

mod samples;

use std::collections::BTreeMap;
use std::path::PathBuf;

use samples::{client_messages, client_name, server_messages, server_name};
use sevenbag_core::{Input, MatchHeader};
use sevenbag_protocol::replay::REPLAY_FORMAT_VERSION;
use sevenbag_protocol::*;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn blessing() -> bool {
    std::env::var_os("SEVENBAG_BLESS").is_some()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// Every sample, keyed `direction Variant`, with its encoding today.
fn samples() -> Vec<(String, Vec<u8>)> {
    let client = client_messages()
        .into_iter()
        .map(|m| (format!("client {}", client_name(&m)), encode(&m).unwrap()));
    let server = server_messages()
        .into_iter()
        .map(|m| (format!("server {}", server_name(&m)), encode(&m).unwrap()));
    client.chain(server).collect()
}

/// The committed entries, in file order.
fn committed() -> BTreeMap<String, Vec<u8>> {
    let text = std::fs::read_to_string(golden_dir().join("messages.txt")).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(' ');
        let (dir, name, bytes) = (parts.next(), parts.next(), parts.next());
        let (Some(dir), Some(name), Some(bytes)) = (dir, name, bytes) else {
            panic!("bad golden line: {line}");
        };
        let key = format!("{dir} {name}");
        assert!(
            out.insert(key.clone(), unhex(bytes)).is_none(),
            "{key} twice"
        );
    }
    out
}

#[test]
fn every_message_sample_is_a_distinct_variant() {
    let mut seen = std::collections::BTreeSet::new();
    for (key, _) in samples() {
        assert!(seen.insert(key.clone()), "two samples of {key}");
    }
}

#[test]
fn every_message_variant_encodes_to_its_golden_bytes() {
    let golden = committed();
    let mut missing = Vec::new();
    for (key, bytes) in samples() {
        match golden.get(&key) {
            Some(want) => assert_eq!(
                hex(&bytes),
                hex(want),
                "{key} encodes differently from its golden bytes: the wire format changed"
            ),
            None => missing.push(format!("{key} {}", hex(&bytes))),
        }
    }
    if missing.is_empty() {
        return;
    }
    if blessing() {
        use std::io::Write;
        let path = golden_dir().join("messages.txt");
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        for line in &missing {
            writeln!(f, "{line}").unwrap();
        }
    } else {
        panic!(
            "no golden bytes for:\n{}\nrun SEVENBAG_BLESS=1 cargo test -p sevenbag-protocol --test golden",
            missing.join("\n")
        );
    }
}

#[test]
fn golden_message_bytes_decode_to_the_samples_and_re_encode_identically() {
    let golden = committed();
    for m in client_messages() {
        let bytes = &golden[&format!("client {}", client_name(&m))];
        let back = decode_client(bytes, MAX_MESSAGE_BYTES).unwrap();
        assert_eq!(back, m);
        assert_eq!(&encode(&back).unwrap(), bytes);
    }
    for m in server_messages() {
        let bytes = &golden[&format!("server {}", server_name(&m))];
        let back = decode_server(bytes).unwrap();
        assert_eq!(back, m);
        assert_eq!(&encode(&back).unwrap(), bytes);
    }
}

/// The variant index one past the last golden entry is not a variant: a variant added without
/// a golden entry (and a sample) fails here even if nobody touched this file.
#[test]
fn no_variant_lacks_a_golden_entry() {
    let golden = committed();
    let count = |dir: &str| golden.keys().filter(|k| k.starts_with(dir)).count() as u8;
    let client = decode_client(&[count("client ")], MAX_MESSAGE_BYTES).unwrap_err();
    assert!(
        client.to_string().contains("variant"),
        "client variant {} exists but has no golden entry: {client}",
        count("client ")
    );
    let server = decode_server(&[count("server ")]).unwrap_err();
    assert!(
        server.to_string().contains("variant"),
        "server variant {} exists but has no golden entry: {server}",
        count("server ")
    );
}

/// A short recorded match: seat 0 hard-drops every 6 frames, seat 1 every 12 with some
/// movement, first to 1, so it holds changes, hashes, a round and a result.
fn sample_replay() -> Replay {
    let script = |period: u32, extra: Input| -> SeatInputs {
        let masks: Vec<Input> = (0..900)
            .map(|f| match f % period {
                0 => Input::HARD_DROP,
                1 | 2 => extra,
                _ => Input::NONE,
            })
            .collect();
        SeatInputs::from_masks(&masks)
    };
    let mut header = MatchHeader::versus(0x5EED_0001);
    header.rules.first_to = 1;
    header.rules.countdown_frames = 10;
    let inputs = [script(6, Input::NONE), script(12, Input::LEFT)];
    let names = ["ann".into(), "bob".into()];
    Replay::play_out(header, &inputs, names, EndReason::TopOut, 1_700_000_000)
        .expect("valid scripts")
}

#[test]
fn the_version_1_replay_file_decodes_verifies_and_re_encodes_byte_for_byte() {
    assert_eq!(
        REPLAY_FORMAT_VERSION, 1,
        "add a golden file for the new version"
    );
    let path = golden_dir().join("replay_v1.sbrp");
    if !path.exists() && blessing() {
        std::fs::write(&path, sample_replay().encode().unwrap()).unwrap();
    }
    let bytes = std::fs::read(&path).expect("golden replay_v1.sbrp (bless to create it)");
    let replay = Replay::decode(&bytes).unwrap();
    assert_eq!(
        replay,
        sample_replay(),
        "the v1 file no longer means the same match"
    );
    assert_eq!(
        replay.encode().unwrap(),
        bytes,
        "the v1 file re-encodes differently"
    );
    let report = verify(&replay).unwrap();
    assert_eq!(report.hashes_checked, replay.hashes.len());
    assert!(!replay.hashes.is_empty() && !replay.rounds.is_empty());
}

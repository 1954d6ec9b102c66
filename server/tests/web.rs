//! The browser game's files on the server's port (`--web-dir`), checked against a small
//! stand-in site in a temporary directory: content types, caching, the game's links
//! (`/room/CODE`, `/watch/CODE`, `/replay/ID`, `/puzzle/CODE`) and their error pages, gzip,
//! refused paths, the game's WebSocket still answering on every path, the page that says how to
//! build the game when there is none, and the binary finding its page by default (in
//! `target/web`, beside its own folder, in the source tree it was built from).

use std::path::{Path, PathBuf};
use std::time::Duration;

use sevenbag_netplay::{HeadlessClient, HeadlessConfig};
use sevenbag_server::{Config, ServerHandle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WAIT: Duration = Duration::from_secs(5);
const INDEX: &str = "<!doctype html><title>sevenbag</title><canvas id=glcanvas></canvas>\n";

/// A fresh temporary directory, removed on drop.
fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("sevenbag-web-{tag}-"))
        .tempdir()
        .expect("temp dir")
}

/// The stand-in site: `site/` (index.html, a fake .wasm, a script, a subdirectory) beside a
/// `secret.txt` that must never be served.
fn stand_in_site(base: &Path) -> PathBuf {
    let site = base.join("site");
    std::fs::create_dir_all(site.join("sub")).expect("site dir");
    std::fs::write(site.join("index.html"), INDEX).expect("index");
    // Compressible, like a real module: a header then repetitive bytes.
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend(std::iter::repeat_n(b"sevenbag ".as_slice(), 4000).flatten());
    std::fs::write(site.join("sevenbag.wasm"), &wasm).expect("wasm");
    std::fs::write(
        site.join("gl.js"),
        "function load(u) { return u; }\n".repeat(50),
    )
    .expect("js");
    std::fs::write(site.join("sub").join("a.js"), "// nested\n").expect("nested");
    std::fs::write(base.join("secret.txt"), "secret\n").expect("secret");
    site
}

async fn server(web_dir: Option<PathBuf>, base: &Path) -> ServerHandle {
    let config = Config {
        replay_dir: base.join("replays"),
        web_dir,
        ..Config::default()
    };
    sevenbag_server::spawn(config).await.expect("server")
}

/// An HTTP answer: status, lower-cased header lines, body.
struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.head.lines().find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix(&prefix)
                .map(|v| v.trim().to_string())
        })
    }
}

/// Sends `GET path` with `extra` header lines and `Connection: close`; reads the whole answer.
async fn get(addr: std::net::SocketAddr, path: &str, extra: &str) -> Reply {
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\n{extra}Connection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, tcp.read_to_end(&mut raw))
        .await
        .expect("answer in time")
        .expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("end of headers");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Reply { status, head, body }
}

/// Decodes a chunked body (enough for tests: no trailers).
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size");
        let size_text = String::from_utf8_lossy(&raw[..line_end]).to_string();
        let size = usize::from_str_radix(size_text.trim(), 16).expect("hex size");
        raw = &raw[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

#[tokio::test]
async fn the_page_and_its_files_have_the_content_types_browsers_need_and_no_cache() {
    let base = temp_dir("types");
    let server = server(Some(stand_in_site(base.path())), base.path()).await;
    let addr = server.addr();

    let index = get(addr, "/", "").await;
    assert_eq!(index.status, 200, "{}", index.head);
    assert_eq!(
        index.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(index.header("cache-control").as_deref(), Some("no-cache"));
    assert_eq!(index.body, INDEX.as_bytes());

    let wasm = get(addr, "/sevenbag.wasm", "").await;
    assert_eq!(wasm.status, 200, "{}", wasm.head);
    assert_eq!(
        wasm.header("content-type").as_deref(),
        Some("application/wasm")
    );
    assert_eq!(wasm.header("cache-control").as_deref(), Some("no-cache"));
    assert!(wasm.body.starts_with(b"\0asm"));

    let js = get(addr, "/gl.js", "").await;
    assert_eq!(
        js.header("content-type").as_deref(),
        Some("text/javascript")
    );
    assert_eq!(
        js.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );

    // Browsers ask for it by themselves: no icon is "no content", not an error.
    assert_eq!(get(addr, "/favicon.ico", "").await.status, 204);

    let nested = get(addr, "/sub/a.js", "").await;
    assert_eq!(nested.status, 200, "{}", nested.head);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn the_games_links_serve_the_same_page() {
    let base = temp_dir("links");
    let server = server(Some(stand_in_site(base.path())), base.path()).await;
    let addr = server.addr();
    for path in [
        "/watch/ACD34",
        "/room/ACD34",
        "/room/acd34/",
        "/replay/20261127-101500_ACD34",
        "/puzzle/p24n-2s",
        "/puzzle/T33H-ZZ",
    ] {
        let page = get(addr, path, "").await;
        assert_eq!(page.status, 200, "{path}: {}", page.head);
        assert_eq!(
            page.header("content-type").as_deref(),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        assert_eq!(page.header("cache-control").as_deref(), Some("no-cache"));
        assert_eq!(page.body, INDEX.as_bytes(), "{path}");
    }
    // The page may name its files relatively under /watch/.
    assert_eq!(get(addr, "/watch/gl.js", "").await.status, 200);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn a_malformed_link_gets_a_readable_page_saying_what_a_good_one_looks_like() {
    let base = temp_dir("bad-links");
    let server = server(Some(stand_in_site(base.path())), base.path()).await;
    let addr = server.addr();
    for (path, says) in [
        ("/watch/AB-CD", "a room code is 5 letters and digits"),
        ("/watch/ABCDE", "a room code is 5 letters and digits"),
        ("/watch/", "a room code is 5 letters and digits"),
        ("/room/ABCDEFGHIJKLMNOPQ", "not a room link"),
        ("/room", "not a room link"),
        ("/room/", "not a room link"),
        ("/replay/a.b", "a replay id is"),
        ("/replay/", "not a replay link"),
        ("/puzzle/hello", "a puzzle code looks like p24n-2s"),
        (
            "/room/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
            "/room/&lt;script&gt;alert(1)&lt;/script&gt;",
        ),
    ] {
        let page = get(addr, path, "").await;
        assert_eq!(page.status, 404, "{path}: {}", page.head);
        assert_eq!(
            page.header("content-type").as_deref(),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        let text = String::from_utf8_lossy(&page.body);
        assert!(text.contains(says), "{path}: {text}");
        assert!(text.contains("<a href=\"/\">Open the game</a>"), "{path}");
        assert!(!text.contains("<script>"), "{path}: markup is escaped");
    }
    // Under /watch/ a name with a dot is a file: `..` is refused as one.
    assert_eq!(get(addr, "/watch/%2e%2e", "").await.status, 404);
    // A long link is cut short on its page.
    let long = format!("/replay/{}", "x".repeat(300));
    let page = get(addr, &long, "").await;
    assert_eq!(page.status, 404);
    assert!(page.body.len() < 2000, "{} bytes", page.body.len());
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn an_unchanged_file_is_a_304_by_etag_or_date() {
    let base = temp_dir("etag");
    let server = server(Some(stand_in_site(base.path())), base.path()).await;
    let addr = server.addr();
    let first = get(addr, "/sevenbag.wasm", "").await;
    let etag = first.header("etag").expect("an ETag");
    let date = first.header("last-modified").expect("a Last-Modified");
    // Header values were lower-cased by `header`: take them from the raw head instead.
    let raw = |name: &str| {
        first
            .head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    assert_eq!(raw("etag").to_ascii_lowercase(), etag);
    assert_eq!(raw("last-modified").to_ascii_lowercase(), date);
    let by_etag = get(
        addr,
        "/sevenbag.wasm",
        &format!("If-None-Match: {}\r\n", raw("etag")),
    )
    .await;
    assert_eq!(by_etag.status, 304, "{}", by_etag.head);
    assert!(by_etag.body.is_empty());
    let by_date = get(
        addr,
        "/sevenbag.wasm",
        &format!("If-Modified-Since: {}\r\n", raw("last-modified")),
    )
    .await;
    assert_eq!(by_date.status, 304, "{}", by_date.head);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn the_wasm_is_gzipped_for_a_client_that_accepts_it() {
    let base = temp_dir("gzip");
    let site = stand_in_site(base.path());
    let server = server(Some(site.clone()), base.path()).await;
    let addr = server.addr();
    let plain = get(addr, "/sevenbag.wasm", "").await;
    assert_eq!(plain.header("content-encoding"), None);

    let zipped = get(
        addr,
        "/sevenbag.wasm",
        "Accept-Encoding: gzip, deflate, br\r\n",
    )
    .await;
    assert_eq!(zipped.status, 200, "{}", zipped.head);
    assert_eq!(zipped.header("content-encoding").as_deref(), Some("gzip"));
    assert_eq!(
        zipped.header("content-type").as_deref(),
        Some("application/wasm")
    );
    assert!(zipped.body.starts_with(&[0x1f, 0x8b]), "a gzip stream");
    assert!(zipped.body.len() * 10 < plain.body.len(), "compressed");

    // A precompressed file beside it is sent as it is.
    let precompressed = b"\x1f\x8bprecompressed".to_vec();
    std::fs::write(site.join("sevenbag.wasm.gz"), &precompressed).expect("gz");
    let sent = get(addr, "/sevenbag.wasm", "Accept-Encoding: gzip\r\n").await;
    assert_eq!(sent.header("content-encoding").as_deref(), Some("gzip"));
    assert_eq!(sent.body, precompressed);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn paths_out_of_the_directory_and_directories_are_refused() {
    let base = temp_dir("traversal");
    let site = stand_in_site(base.path());
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(base.path().join("secret.txt"), site.join("link.txt"))
            .expect("symlink");
        std::os::unix::fs::symlink(base.path(), site.join("up")).expect("dir symlink");
        // A precompressed variant may not lead out either.
        std::os::unix::fs::symlink(base.path().join("secret.txt"), site.join("gl.js.gz"))
            .expect("gz symlink");
    }
    let server = server(Some(site), base.path()).await;
    let addr = server.addr();
    for bad in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/..%5csecret.txt",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/link.txt",
        "/up/secret.txt",
        "/sub",
        "/sub/",
        "/.hidden",
        "/no-such-file.js",
    ] {
        let reply = get(addr, bad, "").await;
        assert!(
            reply.status == 404 || reply.status == 400,
            "{bad}: {}",
            reply.head
        );
        assert!(
            !String::from_utf8_lossy(&reply.body).contains("secret"),
            "{bad}"
        );
    }
    let js = get(addr, "/gl.js", "Accept-Encoding: gzip\r\n").await;
    assert_eq!(js.status, 200);
    assert!(!String::from_utf8_lossy(&js.body).contains("secret"));
    let absolute = get(addr, "http://test/../secret.txt", "").await;
    assert!(!String::from_utf8_lossy(&absolute.body).contains("secret"));
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn the_game_websocket_answers_on_every_path_beside_the_site() {
    let base = temp_dir("ws");
    let server = server(Some(stand_in_site(base.path())), base.path()).await;
    let addr = server.addr();
    for path in [
        "/",
        "/watch/ACD34",
        "/room/ACD34",
        "/sevenbag.wasm",
        "/anything/else",
    ] {
        let url = format!("ws://{addr}{path}");
        let client = tokio::time::timeout(
            WAIT,
            HeadlessClient::connect(&url, HeadlessConfig::new("webby")),
        )
        .await
        .expect("connects in time")
        .unwrap_or_else(|e| panic!("{url}: {e}"));
        drop(client);
    }
    // The operator routes and the API keep working.
    assert_eq!(get(addr, "/healthz", "").await.status, 200);
    assert_eq!(get(addr, "/readyz", "").await.status, 200);
    let metrics = get(addr, "/metrics", "").await;
    assert_eq!(metrics.status, 200);
    assert!(String::from_utf8_lossy(&metrics.body).contains("sevenbag_"));
    // No database in this config: the API answers, with its own 503.
    assert_eq!(get(addr, "/api/leaderboard", "").await.status, 503);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn without_a_build_the_root_and_the_links_say_how_to_build_it() {
    let base = temp_dir("none");
    let server = server(None, base.path()).await;
    for path in ["/", "/room/ACD34", "/watch/ACD34", "/puzzle/nonsense"] {
        let reply = get(server.addr(), path, "").await;
        assert_eq!(reply.status, 404, "{path}: {}", reply.head);
        assert_eq!(
            reply.header("content-type").as_deref(),
            Some("text/html; charset=utf-8")
        );
        let text = String::from_utf8_lossy(&reply.body);
        assert!(text.contains("bash client/web/build"), "{path}: {text}");
        assert!(text.contains("target/web"), "{path}: {text}");
    }
    // Files and other paths stay the API's JSON 404.
    let wasm = get(server.addr(), "/sevenbag.wasm", "").await;
    assert_eq!(wasm.status, 404);
    assert!(String::from_utf8_lossy(&wasm.body).contains("no such page"));
    assert_eq!(get(server.addr(), "/favicon.ico", "").await.status, 204);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn a_missing_or_empty_web_dir_stops_the_server_saying_how_to_build_it() {
    let base = temp_dir("empty");
    std::fs::create_dir_all(base.path().join("empty")).expect("dir");
    for dir in ["nothing-built-here", "empty"] {
        let config = Config {
            replay_dir: base.path().join("replays"),
            web_dir: Some(base.path().join(dir)),
            ..Config::default()
        };
        let error = sevenbag_server::spawn(config).await.expect_err("refused");
        let text = error.to_string();
        assert!(text.contains(dir), "{text}");
        assert!(text.contains("not built there"), "{text}");
        assert!(text.contains("bash client/web/build"), "{text}");
    }
}

/// Runs the server binary in `cwd` with `args` (and a free port, no database, JSON logs);
/// returns it and its address once it listens.
fn run_binary(cwd: &Path, args: &[&str]) -> (BinaryServer, std::net::SocketAddr) {
    run_binary_at(Path::new(env!("CARGO_BIN_EXE_sevenbag-server")), cwd, args)
}

/// [`run_binary`] with the server executable at `exe`.
fn run_binary_at(exe: &Path, cwd: &Path, args: &[&str]) -> (BinaryServer, std::net::SocketAddr) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(exe)
        .args(["--bind", "127.0.0.1:0", "--no-db", "--log-format", "json"])
        .args(["--replay-dir", "replays"])
        .args(args)
        .current_dir(cwd)
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the server binary");
    let stdout = child.stdout.take().expect("stdout");
    let server = BinaryServer(child);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.expect("a log line");
        let json: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        if json["message"] == "listening" {
            // Logged with `?`: `Some(127.0.0.1:PORT)`.
            let addr = json["addr"].as_str().unwrap_or_default();
            let addr = addr.trim_start_matches("Some(").trim_end_matches(')');
            return (server, addr.parse().expect("an address"));
        }
        assert!(std::time::Instant::now() < deadline, "not listening");
    }
    panic!("the server exited before listening");
}

/// Kills the server binary when dropped.
struct BinaryServer(std::process::Child);

impl Drop for BinaryServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_serves_target_web_without_being_told() {
    let base = temp_dir("default");
    let site = base.path().join("target").join("web");
    std::fs::create_dir_all(&site).expect("dir");
    std::fs::write(site.join("index.html"), INDEX).expect("index");
    let (_server, addr) = tokio::task::block_in_place(|| run_binary(base.path(), &[]));
    let page = get(addr, "/room/ACD34", "").await;
    assert_eq!(page.status, 200, "{}", page.head);
    assert_eq!(page.body, INDEX.as_bytes());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_started_from_another_folder_serves_the_page_beside_its_own_folder() {
    // An installed copy: `bin/sevenbag-server` with its page in `web/`, started from a folder
    // that has no `target/web`.
    let base = temp_dir("beside-exe");
    let bin = base.path().join("bin");
    let site = base.path().join("web");
    let elsewhere = base.path().join("elsewhere");
    for dir in [&bin, &site, &elsewhere] {
        std::fs::create_dir_all(dir).expect("dir");
    }
    let exe = bin.join("sevenbag-server");
    let built = Path::new(env!("CARGO_BIN_EXE_sevenbag-server"));
    if std::fs::hard_link(built, &exe).is_err() {
        std::fs::copy(built, &exe).expect("copy the server binary");
    }
    std::fs::write(site.join("index.html"), INDEX).expect("index");
    let (_server, addr) = tokio::task::block_in_place(|| run_binary_at(&exe, &elsewhere, &[]));
    let page = get(addr, "/", "").await;
    assert_eq!(page.status, 200, "{}", page.head);
    assert_eq!(page.body, INDEX.as_bytes());
}

#[test]
fn the_server_also_looks_in_the_source_tree_it_was_built_from() {
    let source_site = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join("web");
    assert_eq!(sevenbag_server::default_dirs().last(), Some(&source_site));
}

#[test]
fn the_binary_refuses_a_missing_web_dir_saying_how_to_build_it() {
    let base = temp_dir("bin-missing");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sevenbag-server"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--no-db",
            "--replay-dir",
            "replays",
        ])
        .args(["--web-dir", "no-such-dir"])
        .current_dir(base.path())
        .output()
        .expect("run");
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("no-such-dir does not exist") && text.contains("bash client/web/build"),
        "{text}"
    );
}

#[test]
fn the_binary_lists_web_dir_in_its_help() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sevenbag-server"))
        .arg("--help")
        .output()
        .expect("run --help");
    assert!(String::from_utf8_lossy(&out.stdout).contains("--web-dir <DIR>"));
}

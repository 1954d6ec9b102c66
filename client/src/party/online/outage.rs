//! `--screen party-reconnect`: the shown seat reaches the embedded server through a loopback
//! relay that goes down mid-match (every connection through it cut, new ones refused, as a
//! network that drops) and comes back later, so a capture shows the reconnecting banner and,
//! past the room's reconnect window, the seat played out and the screen watching.

use std::io;
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Seconds of a live match (countdown included) before the relay goes down.
const DOWN_AFTER: f32 = 7.0;
/// Seconds it stays down (longer than the capture room's window: the seat is played out).
const DOWN_FOR: f32 = 6.0;
/// The capture room's reconnect window, seconds.
pub const WINDOW_SECONDS: u8 = 3;

/// The relay and its schedule.
pub struct Outage {
    port: u16,
    down: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
    /// When the first match went live (real time: a capture renders faster than 60 Hz).
    since: Option<Instant>,
}

impl Outage {
    /// A relay on a free loopback port to `to`, up.
    pub fn start(to: SocketAddr) -> io::Result<Outage> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let port = listener.local_addr()?.port();
        let down = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (d, o) = (down.clone(), open.clone());
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if d.load(Ordering::SeqCst) {
                    continue; // dropped at once: refused
                }
                let Ok(server) = TcpStream::connect(to) else {
                    continue;
                };
                let clones = (client.try_clone(), server.try_clone());
                let (Ok(c2), Ok(s2)) = clones else { continue };
                if let (Ok(mut list), Ok(c3)) = (o.lock(), client.try_clone()) {
                    list.push(c3);
                }
                pipe(client, s2);
                pipe(server, c2);
            }
        });
        Ok(Outage {
            port,
            down,
            open,
            since: None,
        })
    }

    /// The address the shown seat connects to.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Follows the schedule: the relay is down from [`DOWN_AFTER`] seconds after the match
    /// first went `live`, for [`DOWN_FOR`] seconds.
    pub fn drive(&mut self, live: bool) {
        let now = Instant::now();
        if live && self.since.is_none() {
            self.since = Some(now);
        }
        let t = self.since.map_or(0.0, |s| (now - s).as_secs_f32());
        let down = t > DOWN_AFTER && t < DOWN_AFTER + DOWN_FOR;
        if down && !self.down.swap(true, Ordering::SeqCst) {
            if let Ok(mut list) = self.open.lock() {
                for s in list.drain(..) {
                    let _ = s.shutdown(Shutdown::Both);
                }
            }
        } else if !down {
            self.down.store(false, Ordering::SeqCst);
        }
    }
}

/// Copies `from` into `to` on a thread until either ends.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let _ = io::copy(&mut from, &mut to);
        let _ = to.shutdown(Shutdown::Both);
    });
}

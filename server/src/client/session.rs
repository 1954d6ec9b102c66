//! The session loop: reads the socket until the connection is cut or closed, with the
//! waits for shutdown, silence and control messages made once per connection.

use super::*;

use crate::gate::Gated;

impl Client {
    /// Reads and handles messages until the connection is cut or closed.
    pub(super) async fn run(&mut self, stream: &mut SplitStream<Ws>, shutdown: &mut Shutdown) {
        let limits = self.shared.config.limits.clone();
        let mut cut = self.outbox.watch_cut();
        let started = Instant::now();
        let mut last_heard = started;
        let mut ping = tokio::time::interval_at(
            (started + limits.ping_interval).into(),
            limits.ping_interval,
        );
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // The waits for shutdown, a cut and silence are made once and polled by every turn of
        // the loop: making them afresh per message (two watch registrations and a timer) was a
        // large share of the server's instructions (callgrind, docs/history). The
        // silence timer is moved only when it fires early or the deadline comes nearer.
        let deadline = |hello: bool, last_heard: Instant| {
            if hello {
                (last_heard + limits.idle_timeout, "nothing heard")
            } else {
                (started + limits.hello_timeout, "no Hello")
            }
        };
        // Gated: polled only when they woke the task, not on every message (`crate::gate`).
        let mut shutdown_wait = Gated::new(shutdown.recv());
        let mut cut_wait = Gated::new(relay::cut_happened(&mut cut));
        let silence = tokio::time::sleep_until(deadline(false, started).0.into());
        tokio::pin!(silence);
        loop {
            let (due, why) = deadline(self.hello.is_some(), last_heard);
            if due < silence.deadline().into_std() {
                silence.as_mut().reset(due.into());
            }
            tokio::select! {
                // Order matters: shutdown and cuts first, then control (so a quick-match seat
                // is known before the client's next message is handled), then the socket.
                biased;
                _ = &mut shutdown_wait => {
                    self.outbox.cut(Cut::shutdown("the server is shutting down"));
                    return;
                }
                _ = &mut cut_wait => return,
                Some(control) = self.control_rx.recv() => {
                    self.on_control(control);
                    self.publish_route();
                    self.publish_presence();
                }
                item = stream.next() => {
                    if let Some(Ok(Message::Binary(bytes))) = &item {
                        self.shared.metrics.messages_in.inc();
                        self.shared.metrics.bytes_in.inc_by(bytes.len() as u64);
                    }
                    let now = Instant::now();
                    last_heard = now;
                    match connection::classify(item, &limits, self.hello.is_some()) {
                        Ok(Incoming::Closed) => return,
                        Ok(incoming) => {
                            if !self.messages.take(now) {
                                self.outbox.cut(Cut::error(
                                    ErrorCode::RateLimited,
                                    format!(
                                        "more than {} messages per second (burst {})",
                                        limits.messages_per_second, limits.message_burst
                                    ),
                                ));
                                return;
                            }
                            if let Incoming::Message(message) = incoming {
                                // Compact inputs become plain `Inputs` before anything looks
                                // at them, so every check below sees what it always saw.
                                match self.inputs.unpack(message) {
                                    Ok(message) => {
                                        if self.identity.is_some()
                                            && social::shows_activity(&message)
                                        {
                                            self.shared.presence.heard_from(self.id, now);
                                        }
                                        self.handle(message).await;
                                        self.publish_route();
                                        self.publish_presence();
                                    }
                                    Err(e) => {
                                        self.outbox.cut(Cut::error(
                                            ErrorCode::BadInput,
                                            format!("bad inputs: {e}"),
                                        ));
                                        return;
                                    }
                                }
                            }
                        }
                        Err(cut) => {
                            self.outbox.cut(*cut);
                            return;
                        }
                    }
                }
                _ = ping.tick() => {
                    // Not before `Hello`: the answer would be a message before `Hello`.
                    if self.hello.is_some() {
                        self.next_nonce += 1;
                        self.outbox.send(&ServerMessage::Ping { nonce: self.next_nonce });
                        // The game's `Ping` measures the round trip, but only a running game
                        // answers it; the WebSocket's own ping is answered by the browser or
                        // library, so a page whose frame loop stopped (a background tab, a
                        // phone's dark screen on the result card) is not cut as silent.
                        self.outbox.send_websocket_ping();
                    }
                }
                _ = &mut silence => {
                    if Instant::now() < due {
                        // Heard from since the timer was set: wait on to the new deadline.
                        silence.as_mut().reset(due.into());
                        continue;
                    }
                    let secs = if self.hello.is_none() { limits.hello_timeout } else { limits.idle_timeout };
                    self.outbox.cut(Cut::error(
                        ErrorCode::Timeout,
                        format!("{why} for {:.1} s", secs.as_secs_f64()),
                    ));
                    return;
                }
            }
        }
    }
}

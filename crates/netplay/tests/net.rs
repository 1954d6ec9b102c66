//! The network task against a scripted WebSocket peer on 127.0.0.1:0: the handshake, automatic
//! `Pong`s, events polled without blocking, traffic counters and how a connection ends.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use sevenbag_netplay::{Hello, NetEvent, NetHandle, connect};
use sevenbag_protocol::{
    ClientMessage, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ServerMessage, decode_client, encode,
};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(5);

/// Accepts one connection and returns its WebSocket.
async fn peer() -> (
    String,
    tokio::task::JoinHandle<tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("ws://{}/", listener.local_addr().expect("addr"));
    let accept = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.expect("accept");
        tokio_tungstenite::accept_async(tcp)
            .await
            .expect("handshake")
    });
    (url, accept)
}

async fn next_client_message(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
) -> ClientMessage {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("frame");
        if let Message::Binary(bytes) = frame {
            return decode_client(&bytes, MAX_MESSAGE_BYTES).expect("decodes");
        }
    }
}

async fn send(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    message: &ServerMessage,
) {
    let bytes = encode(message).expect("encodes");
    ws.send(Message::binary(bytes)).await.expect("send");
}

async fn next_event(net: &mut NetHandle) -> NetEvent {
    tokio::time::timeout(WAIT, net.recv())
        .await
        .expect("an event in time")
        .expect("channel open")
}

#[tokio::test]
async fn hello_goes_first_and_pings_are_answered_by_the_task() {
    let (url, accept) = peer().await;
    let mut net = connect(&url, Hello::new("ann"));
    let mut ws = accept.await.expect("accepted");
    assert!(matches!(next_event(&mut net).await, NetEvent::Connected));
    match next_client_message(&mut ws).await {
        ClientMessage::Hello {
            version,
            name,
            resume,
            ..
        } => {
            assert_eq!(version, PROTOCOL_VERSION);
            assert_eq!(name, "ann");
            assert_eq!(resume, None);
        }
        other => panic!("first message was {other:?}"),
    }
    send(
        &mut ws,
        &ServerMessage::Welcome {
            version: PROTOCOL_VERSION,
            server: "test".into(),
        },
    )
    .await;
    assert!(
        matches!(next_event(&mut net).await, NetEvent::Welcome { server, .. } if server == "test")
    );
    // The server's ping is answered without the caller doing anything, and not reported.
    send(&mut ws, &ServerMessage::Ping { nonce: 77 }).await;
    assert_eq!(
        next_client_message(&mut ws).await,
        ClientMessage::Pong { nonce: 77 }
    );
    send(
        &mut ws,
        &ServerMessage::Shutdown {
            reason: "bye".into(),
        },
    )
    .await;
    assert!(matches!(
        next_event(&mut net).await,
        NetEvent::Message(ServerMessage::Shutdown { .. })
    ));
    // Messages from the caller go out in order.
    net.send(ClientMessage::Ready).expect("send");
    net.send(ClientMessage::LeaveRoom).expect("send");
    assert_eq!(next_client_message(&mut ws).await, ClientMessage::Ready);
    assert_eq!(next_client_message(&mut ws).await, ClientMessage::LeaveRoom);
    let stats = net.stats();
    assert_eq!(stats.messages_out, 4, "hello, pong, ready, leave");
    assert_eq!(stats.messages_in, 3, "welcome, ping, shutdown");
    assert!(stats.bytes_out > 4 * 6 && stats.bytes_in > 3 * 2);
}

#[tokio::test]
async fn a_render_loop_can_poll_without_blocking() {
    let (url, accept) = peer().await;
    let mut net = connect(&url, Hello::new("bo"));
    let mut ws = accept.await.expect("accepted");
    next_client_message(&mut ws).await;
    send(
        &mut ws,
        &ServerMessage::Welcome {
            version: PROTOCOL_VERSION,
            server: "s".into(),
        },
    )
    .await;
    // Poll as a frame loop would: try_recv never waits.
    let mut seen = Vec::new();
    for _ in 0..500 {
        while let Some(event) = net.try_recv() {
            seen.push(event);
        }
        if seen.len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert!(matches!(
        seen[..],
        [NetEvent::Connected, NetEvent::Welcome { .. }]
    ));
    assert!(net.try_recv().is_none());
}

#[tokio::test]
async fn text_frames_and_garbage_are_reported_without_ending_the_connection() {
    let (url, accept) = peer().await;
    let mut net = connect(&url, Hello::new("cy"));
    let mut ws = accept.await.expect("accepted");
    next_client_message(&mut ws).await;
    assert!(matches!(next_event(&mut net).await, NetEvent::Connected));
    ws.send(Message::text("hello?")).await.expect("send");
    assert!(matches!(next_event(&mut net).await, NetEvent::Error(_)));
    ws.send(Message::binary(vec![0xff, 0xff, 0xff]))
        .await
        .expect("send");
    assert!(matches!(next_event(&mut net).await, NetEvent::Error(_)));
    send(&mut ws, &ServerMessage::Ping { nonce: 1 }).await;
    assert_eq!(
        next_client_message(&mut ws).await,
        ClientMessage::Pong { nonce: 1 }
    );
}

#[tokio::test]
async fn the_server_closing_ends_with_disconnected() {
    let (url, accept) = peer().await;
    let mut net = connect(&url, Hello::new("di"));
    let mut ws = accept.await.expect("accepted");
    next_client_message(&mut ws).await;
    assert!(matches!(next_event(&mut net).await, NetEvent::Connected));
    ws.close(None).await.expect("close");
    assert!(matches!(
        next_event(&mut net).await,
        NetEvent::Disconnected(_)
    ));
    assert!(
        tokio::time::timeout(WAIT, net.recv())
            .await
            .expect("ends")
            .is_none()
    );
}

#[tokio::test]
async fn aborting_drops_the_socket() {
    let (url, accept) = peer().await;
    let mut net = connect(&url, Hello::new("ed"));
    let mut ws = accept.await.expect("accepted");
    next_client_message(&mut ws).await;
    net.abort();
    assert!(matches!(next_event(&mut net).await, NetEvent::Connected));
    assert!(matches!(
        next_event(&mut net).await,
        NetEvent::Disconnected(_)
    ));
    // The peer sees the connection end (an error or end of stream, no Close frame needed).
    let end = tokio::time::timeout(WAIT, ws.next()).await.expect("ends");
    assert!(!matches!(end, Some(Ok(Message::Binary(_)))));
}

#[tokio::test]
async fn a_refused_connection_is_reported() {
    // Bind and drop to find a port nobody listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let mut net = connect(&format!("ws://127.0.0.1:{port}/"), Hello::new("fi"));
    assert!(
        matches!(next_event(&mut net).await, NetEvent::Disconnected(reason) if reason.contains("connect"))
    );
    let mut bad = connect("not a url", Hello::new("fi"));
    assert!(
        matches!(next_event(&mut bad).await, NetEvent::Disconnected(reason) if reason.contains("bad server address"))
    );
}

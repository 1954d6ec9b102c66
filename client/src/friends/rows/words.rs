//! Friends' presence and notifications in words: the row tags, the side panel's sentences,
//! and what an invite or a message carries in its JSON content.

use sevenbag_protocol::social::{
    FriendEntry, MatchKind, Notification, NotificationKind, PresenceState,
};

/// The room a friend's presence can be watched in: their match's, or the one they watch.
pub fn room_of(presence: &PresenceState) -> Option<String> {
    match presence {
        PresenceState::InMatch { code, .. } | PresenceState::Spectating { code } => {
            Some(code.clone())
        }
        _ => None,
    }
}

/// A friend's presence as the row's tag.
pub fn presence_tag(presence: &PresenceState) -> String {
    match presence {
        PresenceState::Offline => "OFFLINE".to_owned(),
        PresenceState::Online => "ONLINE".to_owned(),
        PresenceState::Away => "AWAY".to_owned(),
        PresenceState::InMatch { kind, code } => format!("{} · {code}", kind_word(*kind)),
        PresenceState::Spectating { code } => format!("WATCHING · {code}"),
    }
}

fn kind_word(kind: MatchKind) -> &'static str {
    match kind {
        MatchKind::Versus => "VERSUS",
        MatchKind::Ranked => "RANKED",
        MatchKind::FreeForAll => "FREE-FOR-ALL",
    }
}

/// A friend's presence in a sentence, for the side panel.
pub fn presence_sentence(f: &FriendEntry) -> String {
    let name = &f.name;
    match &f.presence {
        PresenceState::Offline => format!("{name} is offline."),
        PresenceState::Online => format!("{name} is online."),
        PresenceState::Away => format!("{name} is away from the game."),
        PresenceState::InMatch { kind, code } => {
            let kind = match kind {
                MatchKind::Versus => "a versus match",
                MatchKind::Ranked => "a ranked match",
                MatchKind::FreeForAll => "a free-for-all",
            };
            format!("{name} is playing {kind} in room {code}.")
        }
        PresenceState::Spectating { code } => format!("{name} is watching room {code}."),
    }
}

/// A notification in a line.
pub fn notice_text(n: &Notification) -> String {
    let who = &n.subject;
    match n.kind {
        NotificationKind::FriendRequest => format!("{who} sent you a friend request"),
        NotificationKind::FriendAccepted => format!("{who} accepted your friend request"),
        NotificationKind::Invite => match invite_code(n) {
            Some(code) => format!("{who} invites you to room {code}"),
            None => format!("{who} invites you to a room"),
        },
        NotificationKind::DirectMessage => match json_string(&n.content, "text") {
            Some(text) => format!("{who}: {text}"),
            None => format!("{who} sent you a message"),
        },
        NotificationKind::TournamentMatchReady => "Your next tournament match is ready".to_owned(),
        NotificationKind::Other => who.clone(),
    }
}

/// A notification in a line as the game shows it: a direct message through the chat filter
/// when `filter` (the setting that masks room chat) is on.
pub fn shown_text(n: &Notification, filter: bool) -> String {
    let text = notice_text(n);
    if filter && n.kind == NotificationKind::DirectMessage {
        crate::net::online::chat::filtered(&text)
    } else {
        text
    }
}

/// A notification's tag.
pub fn notice_tag(n: &Notification) -> &'static str {
    match n.kind {
        NotificationKind::FriendRequest => "REQUEST",
        NotificationKind::FriendAccepted => "FRIENDS",
        NotificationKind::Invite => "INVITE",
        NotificationKind::DirectMessage => "MESSAGE",
        NotificationKind::TournamentMatchReady | NotificationKind::Other => "",
    }
}

/// The room code an invite carries (`content`: `{"code": ...}`); `None` for other kinds.
pub fn invite_code(n: &Notification) -> Option<String> {
    (n.kind == NotificationKind::Invite)
        .then(|| json_string(&n.content, "code"))
        .flatten()
        .filter(|c| !c.is_empty() && c.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The string value of `key` at the top of a small JSON object, as the server writes a
/// notification's content (escapes read; anything unexpected gives `None`).
pub fn json_string(json: &str, key: &str) -> Option<String> {
    let quoted = format!("\"{key}\"");
    let mut rest = &json[json.find(&quoted)? + quoted.len()..];
    rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let mut chars = rest.strip_prefix('"')?.chars();
    let mut out = String::new();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' | 'f' => {}
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    let c = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                    out.push(c.unwrap_or('\u{FFFD}'));
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
}

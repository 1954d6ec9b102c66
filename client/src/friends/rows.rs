//! What the Friends screen lists and what each row lets the player do, without a window: the
//! rows built from the lists the connection holds, their words, the actions a row offers (with
//! the key and the button of each), and the name "Add a friend" sends to.

use macroquad::input::KeyCode;
use sevenbag_protocol::social::{
    FriendEntry, MatchKind, Notification, NotificationKind, PendingEntry, PresenceState,
    RequestPolicy,
};

use crate::friends::social::{FriendList, You};
use crate::name_field::NameField;

/// One row of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// The name field: type a name, Enter sends the request.
    Add,
    /// The direct message being written (only while one is).
    Message,
    /// Whom you take friend requests from.
    Policy,
    /// Whether friends see you offline.
    Offline,
    /// A section's title (not selectable).
    Section(Section),
    /// Notification `i` of the connection's list.
    Notice(usize),
    /// Incoming request `i`.
    Incoming(usize),
    /// Outgoing request `i`.
    Outgoing(usize),
    /// Friend `i` of the list as loaded.
    Friend(usize),
    /// More friends than loaded: the next page is on its way (not selectable).
    Loading,
    /// No friends yet (not selectable).
    NoFriends,
    /// Leave the screen.
    Back,
}

/// The sections of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Your own settings.
    You,
    /// The direct message being written.
    Message,
    /// Notifications that arrived unseen.
    Notifications,
    /// Friend requests both ways.
    Requests,
    /// The friend list, with how many.
    Friends(usize),
}

impl Section {
    /// Its title.
    pub fn title(self) -> String {
        match self {
            Section::You => "YOU".to_owned(),
            Section::Message => "MESSAGE".to_owned(),
            Section::Notifications => "NEW".to_owned(),
            Section::Requests => "FRIEND REQUESTS".to_owned(),
            Section::Friends(n) => format!("FRIENDS · {n}"),
        }
    }
}

impl Row {
    /// Whether the cursor can stop on it.
    pub fn selectable(self) -> bool {
        !matches!(self, Row::Section(_) | Row::Loading | Row::NoFriends)
    }
}

/// What the lists of the connection hold now.
#[derive(Clone, Copy, Debug)]
pub struct Lists<'a> {
    /// Unseen notifications, oldest first.
    pub notifications: &'a [Notification],
    /// Requests to you.
    pub incoming: &'a [PendingEntry],
    /// Your requests.
    pub outgoing: &'a [PendingEntry],
    /// The friend list as loaded.
    pub friends: &'a FriendList,
    /// Your settings as the connection knows them.
    pub you: You,
    /// The friend a message is being written to.
    pub writing: Option<&'a str>,
}

/// The rows for `lists`: the name field, your settings, the message being written, the new
/// notifications, the requests, the friends (a loading row while pages remain), then Back.
pub fn build(lists: Lists) -> Vec<Row> {
    // A section follows the name field: its refusal is drawn in the section's space.
    let mut rows = vec![
        Row::Add,
        Row::Section(Section::You),
        Row::Policy,
        Row::Offline,
    ];
    if lists.writing.is_some() {
        rows.extend([Row::Section(Section::Message), Row::Message]);
    }
    // A request still waiting has its own row with its answers: its notification would say it
    // twice.
    let notices: Vec<Row> = (lists.notifications.iter().enumerate())
        .filter(|(_, n)| {
            n.kind != NotificationKind::FriendRequest
                || !lists.incoming.iter().any(|p| p.name == n.subject)
        })
        .map(|(i, _)| Row::Notice(i))
        .collect();
    if !notices.is_empty() {
        rows.push(Row::Section(Section::Notifications));
        rows.extend(notices);
    }
    if !lists.incoming.is_empty() || !lists.outgoing.is_empty() {
        rows.push(Row::Section(Section::Requests));
        rows.extend((0..lists.incoming.len()).map(Row::Incoming));
        rows.extend((0..lists.outgoing.len()).map(Row::Outgoing));
    }
    let friends = lists.friends;
    rows.push(Row::Section(Section::Friends(friends.total)));
    if friends.total == 0 {
        rows.push(Row::NoFriends);
    }
    rows.extend((0..friends.entries.len()).map(Row::Friend));
    if friends.entries.len() < friends.total {
        rows.push(Row::Loading);
    }
    rows.push(Row::Back);
    rows
}

/// What a row lets the player do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send a request to the name in the field.
    Send,
    /// Join room `code` (an invite).
    Join(String),
    /// Turn down the invite of notification `id` (it leaves the list).
    DeclineInvite(u64),
    /// Spectate room `code` (a friend's match).
    Watch(String),
    /// Accept `name`'s request.
    Accept(String),
    /// Decline `name`'s request.
    Decline(String),
    /// Take back the request to `name`.
    Cancel(String),
    /// Stop being friends with `name` (asked first).
    Remove(String),
    /// Write a direct message to friend `name`.
    Reply(String),
    /// Send the message being written.
    SendMessage,
    /// Drop the message being written.
    Discard,
    /// Take friend requests from these players only.
    Policy(RequestPolicy),
    /// Appear offline to friends (`true`) or be seen again.
    AppearOffline(bool),
    /// Leave the screen.
    Back,
}

impl Action {
    /// The key that does it on a desktop (Enter does a row's first action too).
    pub fn key(&self) -> KeyCode {
        match self {
            Action::Send => KeyCode::Enter,
            Action::Join(_) => KeyCode::J,
            Action::DeclineInvite(_) => KeyCode::D,
            Action::Watch(_) => KeyCode::W,
            Action::Accept(_) => KeyCode::A,
            Action::Decline(_) => KeyCode::D,
            Action::Cancel(_) => KeyCode::C,
            Action::Remove(_) => KeyCode::Delete,
            Action::Reply(_) => KeyCode::R,
            Action::SendMessage => KeyCode::Enter,
            Action::Discard => KeyCode::Escape,
            Action::Policy(RequestPolicy::Anyone) => KeyCode::Key1,
            Action::Policy(RequestPolicy::PlayedWith) => KeyCode::Key2,
            Action::Policy(RequestPolicy::Nobody) => KeyCode::Key3,
            Action::AppearOffline(_) => KeyCode::O,
            Action::Back => KeyCode::Escape,
        }
    }

    /// Its button's label on a touch screen.
    pub fn label(&self) -> &'static str {
        match self {
            Action::Send => "Send",
            Action::Join(_) => "Join",
            Action::DeclineInvite(_) => "Decline",
            Action::Watch(_) => "Watch",
            Action::Accept(_) => "Accept",
            Action::Decline(_) => "Decline",
            Action::Cancel(_) => "Cancel",
            Action::Remove(_) => "Remove",
            Action::Reply(_) => "Reply",
            Action::SendMessage => "Send",
            Action::Discard => "Discard",
            Action::Policy(p) => policy_word(*p),
            Action::AppearOffline(true) => "Appear offline",
            Action::AppearOffline(false) => "Be seen",
            Action::Back => "Back",
        }
    }

    /// Its hint in the desktop footer ("W watch").
    pub fn hint(&self) -> String {
        let key = match self {
            Action::Send => "Enter",
            Action::Join(_) => "J",
            Action::DeclineInvite(_) => "D",
            Action::Watch(_) => "W",
            Action::Accept(_) => "A",
            Action::Decline(_) => "D",
            Action::Cancel(_) => "C",
            Action::Remove(_) => "Del",
            Action::Reply(_) => "R",
            Action::SendMessage => "Enter",
            Action::Discard => "Esc",
            Action::Policy(RequestPolicy::Anyone) => "1",
            Action::Policy(RequestPolicy::PlayedWith) => "2",
            Action::Policy(RequestPolicy::Nobody) => "3",
            Action::AppearOffline(_) => "O",
            Action::Back => "Esc",
        };
        format!("{key} {}", self.label().to_lowercase())
    }
}

/// The actions of `row`, the one Enter (or a tap on the row) does first; destructive ones
/// (decline, cancel, remove) only by their own key or button.
pub fn actions(row: Row, lists: Lists) -> Vec<Action> {
    match row {
        Row::Add => vec![Action::Send],
        Row::Message => vec![Action::SendMessage, Action::Discard],
        Row::Policy => policy_choices(lists.you.policy)
            .into_iter()
            .map(Action::Policy)
            .collect(),
        Row::Offline => vec![Action::AppearOffline(!lists.you.hidden)],
        Row::Notice(i) => {
            lists
                .notifications
                .get(i)
                .map_or(Vec::new(), |n| match (invite_code(n), n.kind) {
                    (Some(code), _) => vec![Action::Join(code), Action::DeclineInvite(n.id)],
                    (None, NotificationKind::DirectMessage) => {
                        vec![Action::Reply(n.subject.clone())]
                    }
                    _ => Vec::new(),
                })
        }
        Row::Incoming(i) => lists.incoming.get(i).map_or(Vec::new(), |p| {
            vec![
                Action::Accept(p.name.clone()),
                Action::Decline(p.name.clone()),
            ]
        }),
        Row::Outgoing(i) => lists
            .outgoing
            .get(i)
            .map_or(Vec::new(), |p| vec![Action::Cancel(p.name.clone())]),
        Row::Friend(i) => lists.friends.entries.get(i).map_or(Vec::new(), |f| {
            let mut v: Vec<Action> = room_of(&f.presence)
                .map(Action::Watch)
                .into_iter()
                .collect();
            v.push(Action::Reply(f.name.clone()));
            v.push(Action::Remove(f.name.clone()));
            v
        }),
        Row::Back => vec![Action::Back],
        Row::Section(_) | Row::Loading | Row::NoFriends => Vec::new(),
    }
}

/// What Enter (or a tap on the row) does: the row's first action unless it undoes something.
pub fn primary(row: Row, lists: Lists) -> Option<Action> {
    actions(row, lists).into_iter().next().filter(|a| {
        !matches!(
            a,
            Action::Decline(_)
                | Action::DeclineInvite(_)
                | Action::Cancel(_)
                | Action::Remove(_)
                | Action::Discard
        )
    })
}

/// The policies the policy row offers, the one after `now` first (Enter steps through them);
/// all three while `now` is not known.
pub fn policy_choices(now: Option<RequestPolicy>) -> Vec<RequestPolicy> {
    use RequestPolicy::*;
    match now {
        None => vec![Anyone, PlayedWith, Nobody],
        Some(Anyone) => vec![PlayedWith, Nobody],
        Some(PlayedWith) => vec![Nobody, Anyone],
        Some(Nobody) => vec![Anyone, PlayedWith],
    }
}

/// A policy in a word or two (the policy row's value and its buttons).
pub fn policy_word(policy: RequestPolicy) -> &'static str {
    match policy {
        RequestPolicy::Anyone => "Anyone",
        RequestPolicy::PlayedWith => "Played with",
        RequestPolicy::Nobody => "Nobody",
    }
}

/// The policy row's value: the policy, or "…" until the server has said it.
pub fn policy_value(now: Option<RequestPolicy>) -> &'static str {
    now.map_or("…", policy_word)
}

/// The appear-offline row's value.
pub fn offline_value(you: You) -> &'static str {
    if you.hidden { "On" } else { "Off" }
}

/// The desktop footer for a row's actions (Esc leaves the screen unless an action takes it).
pub fn footer(actions: &[Action]) -> String {
    let mut parts = vec!["↑ ↓ choose".to_owned()];
    parts.extend(
        actions
            .iter()
            .filter(|a| **a != Action::Back)
            .map(Action::hint),
    );
    if !actions.iter().any(|a| a.key() == KeyCode::Escape) {
        parts.push("Esc back".to_owned());
    }
    parts.join("   ")
}

/// Every footer the screen shows, for the text-fit test.
#[cfg(test)]
pub fn footers() -> Vec<String> {
    let n = String::new;
    [
        vec![Action::Send],
        vec![Action::Join(n()), Action::DeclineInvite(0)],
        vec![Action::Accept(n()), Action::Decline(n())],
        vec![Action::Cancel(n())],
        vec![Action::Watch(n()), Action::Reply(n()), Action::Remove(n())],
        vec![Action::Reply(n()), Action::Remove(n())],
        vec![Action::Reply(n())],
        vec![Action::SendMessage, Action::Discard],
        policy_choices(None)
            .into_iter()
            .map(Action::Policy)
            .collect(),
        vec![Action::AppearOffline(true)],
        vec![Action::AppearOffline(false)],
        vec![],
    ]
    .iter()
    .map(|a| footer(a))
    .collect()
}

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

/// The name in "Add a friend" to send a request to, when it follows the name rules and is
/// not `me`; otherwise why not is kept in the field (the rules' words, as the welcome screen
/// gives them). A sent name empties the field.
pub fn request_name(field: &mut NameField, me: Option<&str>) -> Option<String> {
    let name = field.submit()?;
    if me.is_some_and(|me| me.eq_ignore_ascii_case(&name)) {
        field.refuse("That is your own name.");
        return None;
    }
    field.text.clear();
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::friends::social::FriendList;
    use sevenbag_protocol::identity::validate_name;

    fn pending(name: &str) -> PendingEntry {
        PendingEntry {
            name: name.into(),
            sent_unix: 0,
        }
    }

    fn friend(name: &str, presence: PresenceState) -> FriendEntry {
        FriendEntry {
            name: name.into(),
            since_unix: 0,
            presence,
        }
    }

    fn invite(id: u64, code: &str) -> Notification {
        Notification {
            id,
            kind: NotificationKind::Invite,
            subject: "ann".into(),
            content: format!(r#"{{"from":"ann","code":"{code}"}}"#),
            created_unix: 0,
        }
    }

    #[test]
    fn rows_list_the_field_notifications_requests_friends_and_back_in_that_order() {
        let notes = [invite(1, "K7Q2")];
        let incoming = [pending("eve")];
        let outgoing = [pending("fay"), pending("gus")];
        let friends = FriendList {
            entries: vec![
                friend("ann", PresenceState::Online),
                friend("ben", PresenceState::Offline),
            ],
            total: 250,
            asking: None,
        };
        let lists = Lists {
            notifications: &notes,
            incoming: &incoming,
            outgoing: &outgoing,
            friends: &friends,
            you: You::default(),
            writing: None,
        };
        assert_eq!(
            build(lists),
            [
                Row::Add,
                Row::Section(Section::You),
                Row::Policy,
                Row::Offline,
                Row::Section(Section::Notifications),
                Row::Notice(0),
                Row::Section(Section::Requests),
                Row::Incoming(0),
                Row::Outgoing(0),
                Row::Outgoing(1),
                Row::Section(Section::Friends(250)),
                Row::Friend(0),
                Row::Friend(1),
                Row::Loading,
                Row::Back,
            ]
        );
        assert_eq!(
            actions(Row::Incoming(0), lists),
            [Action::Accept("eve".into()), Action::Decline("eve".into())]
        );
        assert_eq!(
            actions(Row::Outgoing(1), lists),
            [Action::Cancel("gus".into())]
        );
        assert_eq!(
            primary(Row::Outgoing(1), lists),
            None,
            "Enter never cancels"
        );
        assert_eq!(
            primary(Row::Friend(0), lists),
            Some(Action::Reply("ann".into())),
            "Enter writes to a friend, never removes"
        );
        assert_eq!(
            actions(Row::Friend(1), lists),
            [Action::Reply("ben".into()), Action::Remove("ben".into())]
        );
    }

    #[test]
    fn a_request_notification_gives_way_to_the_request_it_announces() {
        let asked = |name: &str| Notification {
            id: 2,
            kind: NotificationKind::FriendRequest,
            subject: name.into(),
            content: format!(r#"{{"from":"{name}"}}"#),
            created_unix: 0,
        };
        let notes = [asked("eve"), asked("old")];
        let incoming = [pending("eve")];
        let friends = FriendList::default();
        let lists = Lists {
            notifications: &notes,
            incoming: &incoming,
            outgoing: &[],
            friends: &friends,
            you: You::default(),
            writing: None,
        };
        let rows = build(lists);
        assert!(!rows.contains(&Row::Notice(0)), "eve's request has its row");
        assert!(
            rows.contains(&Row::Notice(1)),
            "a request answered since still says so"
        );
        assert!(rows.contains(&Row::Incoming(0)));
    }

    #[test]
    fn no_friends_and_no_requests_leave_the_field_an_empty_list_line_and_back() {
        let friends = FriendList::default();
        let lists = Lists {
            notifications: &[],
            incoming: &[],
            outgoing: &[],
            friends: &friends,
            you: You::default(),
            writing: None,
        };
        assert_eq!(
            build(lists),
            [
                Row::Add,
                Row::Section(Section::You),
                Row::Policy,
                Row::Offline,
                Row::Section(Section::Friends(0)),
                Row::NoFriends,
                Row::Back
            ]
        );
    }

    #[test]
    fn a_friend_in_a_match_can_be_watched_by_its_room_code_and_a_presence_push_changes_the_row() {
        let mut friends = FriendList {
            entries: vec![friend("ann", PresenceState::Online)],
            total: 1,
            asking: None,
        };
        fn lists(f: &FriendList) -> Lists<'_> {
            Lists {
                notifications: &[],
                incoming: &[],
                outgoing: &[],
                friends: f,
                you: You::default(),
                writing: None,
            }
        }
        assert_eq!(
            primary(Row::Friend(0), lists(&friends)),
            Some(Action::Reply("ann".into()))
        );
        assert_eq!(presence_tag(&friends.entries[0].presence), "ONLINE");
        friends.set_presence(
            "ann",
            PresenceState::InMatch {
                kind: MatchKind::Ranked,
                code: "K7Q2".into(),
            },
        );
        assert_eq!(presence_tag(&friends.entries[0].presence), "RANKED · K7Q2");
        assert_eq!(
            primary(Row::Friend(0), lists(&friends)),
            Some(Action::Watch("K7Q2".into()))
        );
        friends.set_presence("ann", PresenceState::Spectating { code: "ZZ9".into() });
        assert_eq!(presence_tag(&friends.entries[0].presence), "WATCHING · ZZ9");
        assert_eq!(
            primary(Row::Friend(0), lists(&friends)),
            Some(Action::Watch("ZZ9".into()))
        );
        friends.set_presence("ann", PresenceState::Offline);
        assert_eq!(presence_tag(&friends.entries[0].presence), "OFFLINE");
    }

    #[test]
    fn an_invite_joins_the_room_code_it_carries_in_one_action() {
        let notes = [invite(4, "AB12")];
        let friends = FriendList::default();
        let lists = Lists {
            notifications: &notes,
            incoming: &[],
            outgoing: &[],
            friends: &friends,
            you: You::default(),
            writing: None,
        };
        assert_eq!(
            primary(Row::Notice(0), lists),
            Some(Action::Join("AB12".into()))
        );
        assert_eq!(Action::Join("AB12".into()).key(), KeyCode::J);
        assert_eq!(notice_text(&notes[0]), "ann invites you to room AB12");
        // A code that cannot be one is no action.
        let odd = [invite(5, "a b\\\"")];
        let lists = Lists {
            notifications: &odd,
            ..lists
        };
        assert_eq!(primary(Row::Notice(0), lists), None);
    }

    fn empty(friends: &FriendList) -> Lists<'_> {
        Lists {
            notifications: &[],
            incoming: &[],
            outgoing: &[],
            friends,
            you: You::default(),
            writing: None,
        }
    }

    #[test]
    fn the_policy_row_offers_every_policy_until_one_is_set_then_steps_to_the_next() {
        let friends = FriendList::default();
        let lists = empty(&friends);
        assert_eq!(policy_value(None), "…");
        assert_eq!(
            actions(Row::Policy, lists),
            [
                Action::Policy(RequestPolicy::Anyone),
                Action::Policy(RequestPolicy::PlayedWith),
                Action::Policy(RequestPolicy::Nobody)
            ]
        );
        let set = |policy| Lists {
            you: You {
                policy: Some(policy),
                hidden: false,
            },
            ..lists
        };
        assert_eq!(
            primary(Row::Policy, set(RequestPolicy::Anyone)),
            Some(Action::Policy(RequestPolicy::PlayedWith))
        );
        assert_eq!(
            primary(Row::Policy, set(RequestPolicy::Nobody)),
            Some(Action::Policy(RequestPolicy::Anyone))
        );
        assert!(
            !actions(Row::Policy, set(RequestPolicy::PlayedWith))
                .contains(&Action::Policy(RequestPolicy::PlayedWith)),
            "the policy in force is not offered"
        );
        assert_eq!(Action::Policy(RequestPolicy::Nobody).key(), KeyCode::Key3);
    }

    #[test]
    fn the_offline_row_turns_appearing_offline_on_and_off_as_the_server_last_said() {
        let friends = FriendList::default();
        let lists = empty(&friends);
        assert_eq!(offline_value(lists.you), "Off");
        assert_eq!(
            primary(Row::Offline, lists),
            Some(Action::AppearOffline(true))
        );
        let hidden = Lists {
            you: You {
                policy: None,
                hidden: true,
            },
            ..lists
        };
        assert_eq!(offline_value(hidden.you), "On");
        assert_eq!(
            primary(Row::Offline, hidden),
            Some(Action::AppearOffline(false))
        );
    }

    #[test]
    fn a_message_shows_its_sender_and_text_and_is_answered_by_reply() {
        let dm = Notification {
            id: 3,
            kind: NotificationKind::DirectMessage,
            subject: "dan".into(),
            content: r#"{"from":"dan","text":"gg!","message":7}"#.into(),
            created_unix: 0,
        };
        let notes = [dm];
        let friends = FriendList::default();
        let lists = Lists {
            notifications: &notes,
            ..empty(&friends)
        };
        assert_eq!(notice_text(&notes[0]), "dan: gg!");
        assert_eq!(notice_tag(&notes[0]), "MESSAGE");
        assert_eq!(
            primary(Row::Notice(0), lists),
            Some(Action::Reply("dan".into()))
        );
        assert_eq!(Action::Reply("dan".into()).key(), KeyCode::R);
    }

    #[test]
    fn writing_a_message_adds_its_field_under_your_settings_where_esc_discards_it() {
        let friends = FriendList::default();
        let lists = Lists {
            writing: Some("ann"),
            ..empty(&friends)
        };
        let rows = build(lists);
        assert_eq!(
            rows[..6],
            [
                Row::Add,
                Row::Section(Section::You),
                Row::Policy,
                Row::Offline,
                Row::Section(Section::Message),
                Row::Message
            ]
        );
        assert_eq!(
            actions(Row::Message, lists),
            [Action::SendMessage, Action::Discard]
        );
        assert_eq!(primary(Row::Message, lists), Some(Action::SendMessage));
        let footer = footer(&actions(Row::Message, lists));
        assert!(footer.ends_with("Esc discard"), "{footer}");
        assert!(!build(empty(&friends)).contains(&Row::Message));
    }

    #[test]
    fn notification_content_is_read_from_the_servers_json() {
        let dm = r#"{"from":"ann","text":"gg \"wp\" \u00e9","message":3}"#;
        assert_eq!(json_string(dm, "text").as_deref(), Some("gg \"wp\" é"));
        assert_eq!(json_string(dm, "from").as_deref(), Some("ann"));
        assert_eq!(json_string(dm, "code"), None);
        assert_eq!(json_string(dm, "message"), None, "not a string");
        assert_eq!(json_string(r#"{"text":"cut"#, "text"), None);
    }

    #[test]
    fn the_name_field_says_why_a_name_cannot_be_asked_as_the_welcome_screen_does() {
        let mut field = NameField::default();
        field.edit(&['a', 'b'], false);
        assert_eq!(request_name(&mut field, Some("me")), None);
        let short = field.error.clone().expect("a reason");
        assert!(short.starts_with("Not yet: "), "{short}");
        let rules = validate_name("ab").expect_err("too short");
        assert_eq!(
            short,
            format!("Not yet: {rules}."),
            "the welcome screen's words"
        );
        field.edit(&['c'], false);
        assert_eq!(field.error, None, "typing clears the reason");
        field.text = "a b c".into();
        assert!(request_name(&mut field, None).is_none());
        field.text = "Anna".into();
        assert_eq!(request_name(&mut field, Some("anna")), None);
        assert_eq!(field.error.as_deref(), Some("That is your own name."));
        field.text = " ann_1 ".into();
        assert_eq!(
            request_name(&mut field, Some("me")).as_deref(),
            Some("ann_1")
        );
        assert_eq!(field.text, "", "a sent name empties the field");
    }
}

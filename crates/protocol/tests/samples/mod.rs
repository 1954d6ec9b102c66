//! One sample of every wire message variant, shared by the codec tests and the golden bytes.
//!
//! Adding a variant to `ClientMessage` or `ServerMessage`: add a sample here and its name to
//! [`client_name`] / [`server_name`] (the compiler points there), then bless its golden bytes
//! (see `tests/golden.rs`).

// Each test binary uses a part of this module.
#![allow(dead_code)]

use sevenbag_core::{Handling, Input, MatchHeader, Seat, SoloEnd, SoloMode, SoloResult};
use sevenbag_protocol::*;

pub fn client_messages() -> Vec<ClientMessage> {
    vec![
        ClientMessage::Hello {
            // A literal, not PROTOCOL_VERSION: the golden bytes pin the layout, not the number.
            version: 1,
            name: "ann".into(),
            handling: Handling::default(),
            resume: Some(7),
        },
        ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        },
        ClientMessage::JoinRoom {
            code: "ACDEF".into(),
            role: JoinRole::Spectator,
        },
        ClientMessage::QuickMatch,
        ClientMessage::LeaveRoom,
        ClientMessage::Ready,
        ClientMessage::Inputs {
            changes: vec![InputChange {
                frame: 3,
                input: Input::LEFT,
            }],
            confirmed: 9,
        },
        ClientMessage::StateHash {
            frame: 60,
            hash: u64::MAX,
        },
        ClientMessage::Ping { nonce: 1 },
        ClientMessage::Pong { nonce: 2 },
        ClientMessage::ListReplays,
        ClientMessage::GetReplay { id: "x".into() },
        ClientMessage::Register {
            key: [7; 32],
            name: "ann".into(),
        },
        ClientMessage::Identify { key: [8; 32] },
        ClientMessage::Recover {
            code: "ABCD-EFGH".into(),
            key: [9; 32],
        },
        ClientMessage::Rename { name: "bo".into() },
        ClientMessage::RankedMatch,
        ClientMessage::Chat { text: "gg".into() },
        ClientMessage::GetLeaderboard { limit: 100 },
        ClientMessage::GetProfile { name: "bo".into() },
        ClientMessage::SubmitSolo {
            replay: b"SBSO\x01".to_vec(),
        },
        ClientMessage::InputsSince {
            steps: vec![InputStep {
                after: 1,
                input: Input::LEFT,
            }],
            frames: 4,
        },
        ClientMessage::ListReplayInfo,
        ClientMessage::GetSoloLeaderboard {
            mode: SoloMode::Blitz,
            limit: 100,
        },
        ClientMessage::GetSoloReplay {
            mode: SoloMode::Sprint,
            name: "ann".into(),
        },
        ClientMessage::DeclareBot,
        ClientMessage::Report {
            name: "bo".into(),
            replay: Some("1-ACDEF-1".into()),
            category: sevenbag_protocol::moderation::ReportCategory::Cheating,
            text: "t".into(),
        },
        ClientMessage::Block { name: "bo".into() },
        ClientMessage::Unblock { name: "bo".into() },
        ClientMessage::GetBlocks,
        ClientMessage::Datagrams { on: true },
        ClientMessage::InputsFrom {
            from: 600,
            changes: vec![InputChange {
                frame: 602,
                input: Input::LEFT,
            }],
            confirmed: 604,
        },
        ClientMessage::CreateBattleRoom {
            options: BattleRoomOptions::ffa(8),
        },
        ClientMessage::BattleInputs {
            changes: vec![InputChange {
                frame: 3,
                input: Input::LEFT,
            }],
            targets: vec![TargetChange {
                frame: 4,
                target: Some(5),
            }],
            confirmed: 9,
        },
        ClientMessage::BattleStateHash {
            frame: 120,
            hash: 0x0123_4567_89ab_cdef,
            seats: vec![1, 2, 3],
        },
        ClientMessage::LinkReport { rtt_ms: 48 },
        ClientMessage::BattleInputsSince {
            steps: vec![InputStep {
                after: 1,
                input: Input::LEFT,
            }],
            frames: 4,
            targets: vec![TargetStep {
                after: 2,
                target: Some(5),
            }],
        },
        ClientMessage::QuickBattle { on: true },
        ClientMessage::BattleInputsFrom {
            from: 600,
            changes: vec![InputChange {
                frame: 601,
                input: Input::LEFT,
            }],
            targets: vec![TargetChange {
                frame: 603,
                target: Some(2),
            }],
            confirmed: 610,
        },
        ClientMessage::BattleHash {
            frame: 120,
            hash: 0x0123_4567_89ab_cdef,
        },
        ClientMessage::BattleKeysSince {
            steps: vec![InputStep {
                after: 1,
                input: Input::LEFT,
            }],
            frames: 4,
        },
        ClientMessage::GetMatchDetail { id: 9 },
        ClientMessage::SendFriendRequest { name: "bo".into() },
        ClientMessage::AnswerFriendRequest {
            name: "bo".into(),
            answer: social::RequestAnswer::Decline,
        },
        ClientMessage::CancelFriendRequest { name: "bo".into() },
        ClientMessage::RemoveFriend { name: "bo".into() },
        ClientMessage::GetFriends {
            offset: 100,
            limit: 100,
        },
        ClientMessage::GetFriendRequests,
        ClientMessage::SetRequestPolicy {
            policy: social::RequestPolicy::PlayedWith,
        },
        ClientMessage::AppearOffline { on: true },
        ClientMessage::GetNotifications,
        ClientMessage::MarkNotificationsSeen { ids: vec![1, 300] },
        ClientMessage::DirectMessage {
            to: "bo".into(),
            text: "gg".into(),
        },
        ClientMessage::InviteFriend {
            name: "bo".into(),
            code: "ACDEF".into(),
        },
        ClientMessage::GetRequestPolicy,
        ClientMessage::MarkNotificationsShown { ids: vec![1, 300] },
        ClientMessage::PublishSkin {
            png: b"\x89PNG".to_vec(),
        },
        ClientMessage::ClearSkin,
        ClientMessage::GetSkin { id: skin_id() },
        ClientMessage::GetPlayerStats {
            name: "ann".into(),
            last: 20,
        },
    ]
}

/// A skin id of the right form.
fn skin_id() -> SkinId {
    SkinId::parse(&"0f".repeat(32)).expect("a skin id")
}

pub fn server_messages() -> Vec<ServerMessage> {
    let header = MatchHeader::versus(42);
    let seat = SeatInfo {
        name: "bo".into(),
        ready: true,
        status: SeatStatus::Reconnecting { seconds_left: 9 },
    };
    vec![
        ServerMessage::Welcome {
            version: 1,
            server: "s".into(),
        },
        ServerMessage::Error {
            code: ErrorCode::Version,
            message: "m".into(),
            fatal: true,
        },
        ServerMessage::Joined {
            code: "ACDEF".into(),
            seat: Some(Seat::Second),
            resume: 5,
            options: RoomOptions::default(),
        },
        ServerMessage::RoomState {
            seats: [Some(seat), None],
            spectators: 3,
        },
        ServerMessage::MatchStart {
            header,
            names: ["a".into(), "b".into()],
            start_in_ms: 3000,
        },
        ServerMessage::MatchLog {
            header,
            names: ["a".into(), "b".into()],
            changes: [
                vec![InputChange {
                    frame: 0,
                    input: Input::HOLD,
                }],
                vec![],
            ],
            confirmed: [10, 4],
            now_frame: 11,
        },
        ServerMessage::Inputs {
            seat: Seat::First,
            changes: vec![],
            confirmed: 100,
        },
        ServerMessage::SeatStatus {
            seat: Seat::First,
            status: SeatStatus::Forfeited,
        },
        ServerMessage::RoundOver {
            round: 1,
            winner: None,
            wins: [1, 1],
            frame: 900,
        },
        ServerMessage::MatchOver {
            winner: Seat::Second,
            reason: EndReason::Forfeit,
            replay: Some("r".into()),
        },
        ServerMessage::Desync {
            frame: 60,
            server_hash: 1,
            your_hash: 2,
        },
        ServerMessage::Ping { nonce: 3 },
        ServerMessage::Pong {
            nonce: 3,
            server_ms: 4,
        },
        ServerMessage::Replays {
            list: vec![("a".into(), "b".into())],
        },
        ServerMessage::Replay {
            id: "a".into(),
            bytes: vec![1, 2, 3],
        },
        ServerMessage::Shutdown {
            reason: "bye".into(),
        },
        ServerMessage::Identified { profile: profile() },
        ServerMessage::Registered {
            profile: profile(),
            recovery_code: "ABCD-EFGH".into(),
        },
        ServerMessage::Chat {
            from: "ann".into(),
            seat: Some(Seat::First),
            text: "gl hf".into(),
        },
        ServerMessage::Leaderboard {
            players: vec![profile()],
        },
        ServerMessage::PlayerProfile {
            profile: profile(),
            recent: vec![RecentMatch {
                id: 12,
                opponent: "bo".into(),
                won: Some(true),
                score: [3, 1],
                ranked: true,
                rating_change: Some(-14),
                ended_unix: 1_795_369_103,
                replay: Some("r".into()),
            }],
        },
        ServerMessage::SoloRecorded {
            result: SoloResult {
                mode: SoloMode::Sprint,
                end: SoloEnd::Cleared,
                frames: 3_000,
                lines: 40,
                pieces: 100,
                score: 12_345,
                splits: [Some(700), Some(1_500), Some(2_200), None],
            },
            personal_best: true,
            place: 3,
        },
        ServerMessage::Redirect {
            url: "wss://b.example.org/".into(),
        },
        ServerMessage::MatchVoid {
            reason: EndReason::Abandoned,
            replay: Some("r".into()),
        },
        ServerMessage::ReplayList {
            list: vec![ReplayListing {
                id: "1795369103-ACDEF-1-ranked".into(),
                names: ["ann".into(), "bo".into()],
                winner: Some(Seat::First),
                reason: EndReason::TopOut,
                score: [3, 1],
                frames: 7_265,
                created_unix: 1_795_369_103,
                ranked: true,
            }],
        },
        ServerMessage::SoloLeaderboard {
            mode: SoloMode::Sprint,
            rows: vec![solo_row()],
            you: Some(solo_row()),
        },
        ServerMessage::SoloRecordReplay {
            mode: SoloMode::Blitz,
            name: "ann".into(),
            bytes: b"SBSO\x01".to_vec(),
        },
        ServerMessage::SeatMarks {
            bots: vec![true, false],
        },
        ServerMessage::BotChat {
            from: "bo".into(),
            seat: None,
            text: "gg".into(),
        },
        ServerMessage::Reported,
        ServerMessage::Blocked {
            names: vec!["bo".into()],
        },
        ServerMessage::ProfileMarks {
            bot: false,
            opponents: vec![true],
        },
        ServerMessage::DatagramTicket {
            token: [7; 16],
            cert_hash: Some([9; 32]),
        },
        ServerMessage::InputsFrom {
            seat: Seat::Second,
            from: 600,
            changes: vec![InputChange {
                frame: 602,
                input: Input::LEFT,
            }],
            confirmed: 604,
        },
        ServerMessage::BattleJoined {
            code: "ACDEF".into(),
            seat: Some(5),
            resume: 11,
            options: BattleRoomOptions::ffa(8),
        },
        ServerMessage::BattleRoomState {
            seats: vec![
                Some(SeatInfo {
                    name: "ann".into(),
                    ready: true,
                    status: SeatStatus::Connected,
                }),
                None,
                None,
            ],
            spectators: 2,
        },
        ServerMessage::BattleStart {
            header: Box::new(sevenbag_core::BattleHeader::new(5, 3)),
            names: vec!["a".into(), "b".into(), "c".into()],
            room_seats: vec![0, 1, 4],
            start_in_ms: 3000,
        },
        ServerMessage::BattleLog {
            header: Box::new(sevenbag_core::BattleHeader::new(5, 3)),
            names: vec!["a".into(), "b".into(), "c".into()],
            room_seats: vec![0, 1, 4],
            changes: vec![vec![], vec![], vec![]],
            targets: vec![vec![], vec![], vec![]],
            confirmed: vec![6, 5, 4],
            now_frame: 9,
        },
        ServerMessage::BattleInputs {
            seat: 2,
            changes: vec![],
            targets: vec![TargetChange {
                frame: 1,
                target: None,
            }],
            confirmed: 3,
        },
        ServerMessage::BattleRoundOver {
            round: 0,
            winner: Some(1),
            wins: vec![0, 1, 0],
            placements: vec![3, 1, 2],
            frame: 700,
        },
        ServerMessage::BattleOver {
            winner: Some(1),
            reason: EndReason::TopOut,
            placements: vec![3, 1, 2],
            replay: Some("r".into()),
        },
        ServerMessage::BattleInputsGathered {
            frame: 300,
            seats: vec![SeatSteps {
                seat: 1,
                base: 0,
                steps: vec![InputStep {
                    after: 2,
                    input: Input(1),
                }],
                targets: vec![TargetStep {
                    after: 3,
                    target: Some(0),
                }],
                frames: 4,
            }],
        },
        ServerMessage::BattleDesync {
            frame: 120,
            server_hash: 7,
            your_hash: 8,
            seats: vec![2],
        },
        ServerMessage::BattleLinks {
            rtt_ms: vec![40, 0, 180],
        },
        ServerMessage::BattleInputsTight {
            frame: 300,
            seats: TightSeats(vec![
                SeatSteps {
                    seat: 1,
                    base: 0,
                    steps: vec![InputStep {
                        after: 2,
                        input: Input(1),
                    }],
                    targets: vec![TargetStep {
                        after: 3,
                        target: Some(0),
                    }],
                    frames: 4,
                },
                SeatSteps {
                    frames: 2,
                    ..SeatSteps::new(4, 1)
                },
            ]),
        },
        ServerMessage::QuickBattleQueue {
            waiting: 3,
            needed: 3,
            most: 8,
            starts_in_ms: Some(9_500),
        },
        ServerMessage::BattleDesyncBoards {
            frame: 120,
            server_hash: 7,
            your_hash: 8,
            boards: vec![1, 2, 3],
        },
        ServerMessage::MatchDetail {
            detail: Box::new(match_detail()),
        },
        ServerMessage::BattleInputsChained {
            seats: ChainedSeats(vec![
                ChainedEntry {
                    entry: SeatSteps {
                        seat: 1,
                        base: 300,
                        steps: vec![InputStep {
                            after: 2,
                            input: Input(1),
                        }],
                        targets: vec![TargetStep {
                            after: 3,
                            target: Some(0),
                        }],
                        frames: 4,
                    },
                    follows: false,
                },
                ChainedEntry {
                    entry: SeatSteps {
                        frames: 2,
                        ..SeatSteps::new(4, 0)
                    },
                    follows: true,
                },
            ]),
        },
        ServerMessage::FriendRequestSent {
            name: "bo".into(),
            result: social::RequestResult::BecameFriends,
        },
        ServerMessage::FriendRequestAnswered {
            name: "bo".into(),
            answer: social::RequestAnswer::Accept,
        },
        ServerMessage::FriendRequestCancelled { name: "bo".into() },
        ServerMessage::FriendRemoved { name: "bo".into() },
        ServerMessage::Friends {
            offset: 0,
            total: 2,
            friends: vec![
                social::FriendEntry {
                    name: "bo".into(),
                    since_unix: 1_700_000_000,
                    presence: social::PresenceState::InMatch {
                        kind: social::MatchKind::Ranked,
                        code: "ACDEF".into(),
                    },
                },
                social::FriendEntry {
                    name: "cy".into(),
                    since_unix: 1_700_000_001,
                    presence: social::PresenceState::Spectating {
                        code: "QRTUV".into(),
                    },
                },
            ],
        },
        ServerMessage::FriendRequests {
            incoming: vec![social::PendingEntry {
                name: "bo".into(),
                sent_unix: 5,
            }],
            outgoing: vec![],
        },
        ServerMessage::RequestPolicySet {
            policy: social::RequestPolicy::Nobody,
        },
        ServerMessage::AppearingOffline { on: false },
        ServerMessage::Notifications {
            list: vec![notification()],
        },
        ServerMessage::Notification {
            notification: notification(),
        },
        ServerMessage::NotificationsSeen { marked: 1 },
        ServerMessage::DirectMessageSent { to: "bo".into() },
        ServerMessage::Invited {
            name: "bo".into(),
            code: "ACDEF".into(),
        },
        ServerMessage::Presence {
            name: "bo".into(),
            state: social::PresenceState::Online,
        },
        ServerMessage::SkinPublished { id: skin_id() },
        ServerMessage::SkinFile {
            id: skin_id(),
            png: b"\x89PNG".to_vec(),
        },
        ServerMessage::SkinGone { id: skin_id() },
        ServerMessage::SeatSkins {
            skins: vec![Some(skin_id()), None],
        },
        ServerMessage::PlayerStats {
            stats: PlayerStats {
                name: "ann".into(),
                last: 20,
                averages: MatchAverages::from_sums(4, 3, [600, 12000, 13500], 130, 350),
                sprint: vec![ProgressRun {
                    frames: 2700,
                    score: 0,
                    lines: 40,
                    pieces: 100,
                    recorded_unix: 1_795_000_200,
                }],
                blitz: Vec::new(),
            },
        },
    ]
}

fn notification() -> social::Notification {
    social::Notification {
        id: 300,
        kind: social::NotificationKind::Invite,
        subject: "bo".into(),
        content: r#"{"code":"ACDEF"}"#.into(),
        created_unix: 1_700_000_002,
    }
}

fn match_detail() -> MatchDetail {
    let seat = |name: &str, placement: u8| SeatDetail {
        name: name.into(),
        guest: placement == 3,
        bot: false,
        team: None,
        placement,
        kos: u32::from(3 - placement),
        rounds_won: u8::from(placement == 1),
        pieces: 60,
        attack: 12,
        garbage_cleared: 4,
        t_spins: 1,
        pps_x100: 150,
        apm_x100: 4_000,
        rating_change: None,
    };
    MatchDetail {
        id: 9,
        battle: true,
        ranked: false,
        targeting: "even".into(),
        reason: "top_out".into(),
        winner: Some(1),
        duration_frames: 2_400,
        ended_unix: 1_795_432_841,
        replay: Some("b9".into()),
        seats: vec![seat("ann", 2), seat("bo", 1), seat("Guest 3", 3)],
    }
}

fn solo_row() -> SoloRow {
    SoloRow {
        place: 2,
        name: "ann".into(),
        frames: 2_472,
        score: 40_310,
        lines: 40,
        pieces: 100,
        recorded_unix: 1_795_432_841,
    }
}

fn profile() -> Profile {
    Profile {
        name: "ann".into(),
        rating: 1500,
        deviation: 350,
        games: 2,
        wins: 1,
        place: Some(9),
    }
}

/// The variant's name, as its golden entry is keyed (exhaustive: a new variant fails to compile).
pub fn client_name(m: &ClientMessage) -> &'static str {
    match m {
        ClientMessage::Hello { .. } => "Hello",
        ClientMessage::CreateRoom { .. } => "CreateRoom",
        ClientMessage::JoinRoom { .. } => "JoinRoom",
        ClientMessage::QuickMatch => "QuickMatch",
        ClientMessage::LeaveRoom => "LeaveRoom",
        ClientMessage::Ready => "Ready",
        ClientMessage::Inputs { .. } => "Inputs",
        ClientMessage::StateHash { .. } => "StateHash",
        ClientMessage::Ping { .. } => "Ping",
        ClientMessage::Pong { .. } => "Pong",
        ClientMessage::ListReplays => "ListReplays",
        ClientMessage::GetReplay { .. } => "GetReplay",
        ClientMessage::Register { .. } => "Register",
        ClientMessage::Identify { .. } => "Identify",
        ClientMessage::Recover { .. } => "Recover",
        ClientMessage::Rename { .. } => "Rename",
        ClientMessage::RankedMatch => "RankedMatch",
        ClientMessage::Chat { .. } => "Chat",
        ClientMessage::GetLeaderboard { .. } => "GetLeaderboard",
        ClientMessage::GetProfile { .. } => "GetProfile",
        ClientMessage::SubmitSolo { .. } => "SubmitSolo",
        ClientMessage::InputsSince { .. } => "InputsSince",
        ClientMessage::BattleInputsSince { .. } => "BattleInputsSince",
        ClientMessage::ListReplayInfo => "ListReplayInfo",
        ClientMessage::GetSoloLeaderboard { .. } => "GetSoloLeaderboard",
        ClientMessage::GetSoloReplay { .. } => "GetSoloReplay",
        ClientMessage::DeclareBot => "DeclareBot",
        ClientMessage::Report { .. } => "Report",
        ClientMessage::Block { .. } => "Block",
        ClientMessage::Unblock { .. } => "Unblock",
        ClientMessage::GetBlocks => "GetBlocks",
        ClientMessage::Datagrams { .. } => "Datagrams",
        ClientMessage::InputsFrom { .. } => "InputsFrom",
        ClientMessage::CreateBattleRoom { .. } => "CreateBattleRoom",
        ClientMessage::BattleInputs { .. } => "BattleInputs",
        ClientMessage::BattleStateHash { .. } => "BattleStateHash",
        ClientMessage::LinkReport { .. } => "LinkReport",
        ClientMessage::QuickBattle { .. } => "QuickBattle",
        ClientMessage::BattleInputsFrom { .. } => "BattleInputsFrom",
        ClientMessage::BattleHash { .. } => "BattleHash",
        ClientMessage::BattleKeysSince { .. } => "BattleKeysSince",
        ClientMessage::GetMatchDetail { .. } => "GetMatchDetail",
        ClientMessage::SendFriendRequest { .. } => "SendFriendRequest",
        ClientMessage::AnswerFriendRequest { .. } => "AnswerFriendRequest",
        ClientMessage::CancelFriendRequest { .. } => "CancelFriendRequest",
        ClientMessage::RemoveFriend { .. } => "RemoveFriend",
        ClientMessage::GetFriends { .. } => "GetFriends",
        ClientMessage::GetFriendRequests => "GetFriendRequests",
        ClientMessage::SetRequestPolicy { .. } => "SetRequestPolicy",
        ClientMessage::AppearOffline { .. } => "AppearOffline",
        ClientMessage::GetNotifications => "GetNotifications",
        ClientMessage::MarkNotificationsSeen { .. } => "MarkNotificationsSeen",
        ClientMessage::DirectMessage { .. } => "DirectMessage",
        ClientMessage::InviteFriend { .. } => "InviteFriend",
        ClientMessage::GetRequestPolicy => "GetRequestPolicy",
        ClientMessage::MarkNotificationsShown { .. } => "MarkNotificationsShown",
        ClientMessage::PublishSkin { .. } => "PublishSkin",
        ClientMessage::ClearSkin => "ClearSkin",
        ClientMessage::GetSkin { .. } => "GetSkin",
        ClientMessage::GetPlayerStats { .. } => "GetPlayerStats",
    }
}

/// The variant's name, as its golden entry is keyed (exhaustive: a new variant fails to compile).
pub fn server_name(m: &ServerMessage) -> &'static str {
    match m {
        ServerMessage::Welcome { .. } => "Welcome",
        ServerMessage::Error { .. } => "Error",
        ServerMessage::Joined { .. } => "Joined",
        ServerMessage::RoomState { .. } => "RoomState",
        ServerMessage::MatchStart { .. } => "MatchStart",
        ServerMessage::MatchLog { .. } => "MatchLog",
        ServerMessage::Inputs { .. } => "Inputs",
        ServerMessage::SeatStatus { .. } => "SeatStatus",
        ServerMessage::RoundOver { .. } => "RoundOver",
        ServerMessage::MatchOver { .. } => "MatchOver",
        ServerMessage::Desync { .. } => "Desync",
        ServerMessage::Ping { .. } => "Ping",
        ServerMessage::Pong { .. } => "Pong",
        ServerMessage::Replays { .. } => "Replays",
        ServerMessage::Replay { .. } => "Replay",
        ServerMessage::Shutdown { .. } => "Shutdown",
        ServerMessage::Identified { .. } => "Identified",
        ServerMessage::Registered { .. } => "Registered",
        ServerMessage::Chat { .. } => "Chat",
        ServerMessage::Leaderboard { .. } => "Leaderboard",
        ServerMessage::PlayerProfile { .. } => "PlayerProfile",
        ServerMessage::SoloRecorded { .. } => "SoloRecorded",
        ServerMessage::Redirect { .. } => "Redirect",
        ServerMessage::MatchVoid { .. } => "MatchVoid",
        ServerMessage::ReplayList { .. } => "ReplayList",
        ServerMessage::SoloLeaderboard { .. } => "SoloLeaderboard",
        ServerMessage::SoloRecordReplay { .. } => "SoloRecordReplay",
        ServerMessage::SeatMarks { .. } => "SeatMarks",
        ServerMessage::BotChat { .. } => "BotChat",
        ServerMessage::Reported => "Reported",
        ServerMessage::Blocked { .. } => "Blocked",
        ServerMessage::ProfileMarks { .. } => "ProfileMarks",
        ServerMessage::DatagramTicket { .. } => "DatagramTicket",
        ServerMessage::InputsFrom { .. } => "InputsFrom",
        ServerMessage::BattleJoined { .. } => "BattleJoined",
        ServerMessage::BattleRoomState { .. } => "BattleRoomState",
        ServerMessage::BattleStart { .. } => "BattleStart",
        ServerMessage::BattleLog { .. } => "BattleLog",
        ServerMessage::BattleInputs { .. } => "BattleInputs",
        ServerMessage::BattleRoundOver { .. } => "BattleRoundOver",
        ServerMessage::BattleOver { .. } => "BattleOver",
        ServerMessage::BattleInputsGathered { .. } => "BattleInputsGathered",
        ServerMessage::BattleDesync { .. } => "BattleDesync",
        ServerMessage::BattleLinks { .. } => "BattleLinks",
        ServerMessage::BattleInputsTight { .. } => "BattleInputsTight",
        ServerMessage::QuickBattleQueue { .. } => "QuickBattleQueue",
        ServerMessage::BattleDesyncBoards { .. } => "BattleDesyncBoards",
        ServerMessage::MatchDetail { .. } => "MatchDetail",
        ServerMessage::BattleInputsChained { .. } => "BattleInputsChained",
        ServerMessage::FriendRequestSent { .. } => "FriendRequestSent",
        ServerMessage::FriendRequestAnswered { .. } => "FriendRequestAnswered",
        ServerMessage::FriendRequestCancelled { .. } => "FriendRequestCancelled",
        ServerMessage::FriendRemoved { .. } => "FriendRemoved",
        ServerMessage::Friends { .. } => "Friends",
        ServerMessage::FriendRequests { .. } => "FriendRequests",
        ServerMessage::RequestPolicySet { .. } => "RequestPolicySet",
        ServerMessage::AppearingOffline { .. } => "AppearingOffline",
        ServerMessage::Notifications { .. } => "Notifications",
        ServerMessage::Notification { .. } => "Notification",
        ServerMessage::NotificationsSeen { .. } => "NotificationsSeen",
        ServerMessage::DirectMessageSent { .. } => "DirectMessageSent",
        ServerMessage::Invited { .. } => "Invited",
        ServerMessage::Presence { .. } => "Presence",
        ServerMessage::SkinPublished { .. } => "SkinPublished",
        ServerMessage::SkinFile { .. } => "SkinFile",
        ServerMessage::SkinGone { .. } => "SkinGone",
        ServerMessage::SeatSkins { .. } => "SeatSkins",
        ServerMessage::PlayerStats { .. } => "PlayerStats",
    }
}

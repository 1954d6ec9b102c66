//! The game's links: `/room/CODE` (join that room), `/watch/CODE` (spectate it), `/replay/ID`
//! (play a replay the server keeps) and `/puzzle/CODE` (play that puzzle). Each serves the page,
//! which reads its own address, when the part after the prefix can be what the link names;
//! anything else gets a page saying what such a link looks like. Whether a well-formed code
//! names a room, a replay or a puzzle that exists is for the game to ask the server and say.

/// What a link opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinkKind {
    /// `/room/CODE`: join room CODE as a player.
    Room,
    /// `/watch/CODE`: spectate room CODE.
    Watch,
    /// `/replay/ID`: play the server's replay ID.
    Replay,
    /// `/puzzle/CODE`: play the puzzle of share code CODE.
    Puzzle,
}

/// Longest puzzle share code: 4 letters, `-`, a seed of at most 13 base-36 digits (`u64::MAX`),
/// some slack (the puzzle crate's parser takes up to 24 characters).
const MAX_PUZZLE_CODE: usize = 24;

impl LinkKind {
    /// Every kind, with its path prefix (`/room/...`).
    pub(crate) const ALL: [LinkKind; 4] = [
        LinkKind::Room,
        LinkKind::Watch,
        LinkKind::Replay,
        LinkKind::Puzzle,
    ];

    /// The first part of the path: `room` for `/room/CODE`.
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            LinkKind::Room => "room",
            LinkKind::Watch => "watch",
            LinkKind::Replay => "replay",
            LinkKind::Puzzle => "puzzle",
        }
    }

    /// What a good link of this kind holds, for people.
    pub(crate) fn shape(self) -> &'static str {
        match self {
            LinkKind::Room | LinkKind::Watch => {
                "a room code is 5 letters and digits, such as ACD34 (no 0, 1, 2, 5, 8, B, I, L, O, S or Z)"
            }
            LinkKind::Replay => {
                "a replay id is up to 100 letters, digits, dashes and underscores, as the server's replay list shows them"
            }
            LinkKind::Puzzle => {
                "a puzzle code looks like p24n-2s: the kind (p, t or d), rows, pieces, h or n for hold, a dash and the seed"
            }
        }
    }

    /// Whether `part` (the path after `/prefix/`, percent-decoded, one trailing `/` allowed)
    /// can be what this link names.
    pub(crate) fn accepts(self, part: &str) -> bool {
        let part = part.strip_suffix('/').unwrap_or(part);
        match self {
            LinkKind::Room | LinkKind::Watch => crate::lobby::normalise_code(part).is_some(),
            LinkKind::Replay => crate::replay::valid_id(part),
            LinkKind::Puzzle => puzzle_code_shape(part),
        }
    }
}

/// The shape of a puzzle share code (kind, rows, pieces, hold, `-`, base-36 seed), in any case.
/// The game's own parser also checks that the options make a puzzle.
fn puzzle_code_shape(code: &str) -> bool {
    let Some((head, seed)) = code.split_once('-') else {
        return false;
    };
    let head = head.as_bytes();
    code.len() <= MAX_PUZZLE_CODE
        && head.len() == 4
        && matches!(head[0].to_ascii_lowercase(), b'p' | b't' | b'd')
        && head[1..3].iter().all(u8::is_ascii_alphanumeric)
        && matches!(head[3].to_ascii_lowercase(), b'h' | b'n')
        && !seed.is_empty()
        && seed.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_links_take_room_codes_in_any_case() {
        for kind in [LinkKind::Room, LinkKind::Watch] {
            assert!(kind.accepts("ACD34"));
            assert!(kind.accepts("acd34"));
            assert!(kind.accepts("ACD34/"));
            for bad in [
                "", "ACD3", "ACD345", "ACD3O", "AB0DE", "ACD34//", "ACD 4", "<b>x",
            ] {
                assert!(!kind.accepts(bad), "{kind:?} {bad:?}");
            }
        }
    }

    #[test]
    fn replay_links_take_the_servers_replay_ids() {
        assert!(LinkKind::Replay.accepts("20261127-101500_ACD34"));
        assert!(LinkKind::Replay.accepts("a-b_c"));
        for bad in ["", "a.b", "../x", "a b", &"x".repeat(101)] {
            assert!(!LinkKind::Replay.accepts(bad), "{bad:?}");
        }
    }

    #[test]
    fn puzzle_links_take_share_codes() {
        assert!(LinkKind::Puzzle.accepts("p24n-2s"));
        assert!(LinkKind::Puzzle.accepts("T33H-ZZZZ"));
        assert!(LinkKind::Puzzle.accepts("d46h-3w5e11264sgsf"));
        for bad in [
            "",
            "p24n",
            "p24n-",
            "x24n-2s",
            "p24q-2s",
            "p24n-+2",
            "p2n-2s",
            "p24n-2s-3",
        ] {
            assert!(!LinkKind::Puzzle.accepts(bad), "{bad:?}");
        }
        assert!(!LinkKind::Puzzle.accepts(&format!("p24n-{}", "1".repeat(20))));
    }
}

//! Command-line flags (clap derive).

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// Sevenbag: head-to-head block stacking.
#[derive(Parser, Debug, Default, PartialEq)]
#[command(name = "sevenbag", version, about)]
pub struct Args {
    /// Watch a match between two automatic players (offline).
    #[arg(long)]
    pub demo: bool,

    /// Exit after this many rendered frames. The simulation then advances exactly one 60 Hz
    /// frame per rendered frame, so captures are deterministic however fast the display runs.
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,

    /// Save the last rendered frame as a PNG (use with --frames).
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,

    /// Check a screenshot of a match without opening a window: print the colours found in each
    /// board area and exit non-zero unless both boards show at least 3 piece colours.
    #[arg(long, value_name = "PATH")]
    pub check_screenshot: Option<PathBuf>,

    /// Print frame-time percentiles (p50, p99, max), CPU time per frame and peak resident
    /// memory at exit (use with --frames, e.g. `--demo --frames 600 --bench`).
    #[arg(long)]
    pub bench: bool,

    /// Sample the resident memory while running and, at exit, fail (exit code 1) if it kept
    /// rising after the warm-up (use with --frames, e.g. `--demo --frames 3600 --memory-check`).
    #[arg(long)]
    pub memory_check: bool,

    /// Draw at most this many frames per second (0: no cap). The simulation keeps its own 60 Hz
    /// clock whatever this is; the cap saves CPU where the display has no vsync.
    #[arg(long, value_name = "N", default_value_t = crate::platform::pacer::DEFAULT_MAX_FPS)]
    pub max_fps: u32,

    /// Read and write settings here instead of the platform's config directory.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Trust this PEM certificate for wss:// servers, besides the public web's authorities
    /// (a LAN or test server's self-signed certificate). Overrides the settings file's
    /// `trust_cert`.
    #[arg(long, value_name = "PEM")]
    pub trust_cert: Option<PathBuf>,

    /// Draw the blocks with this skin for this session (not saved): a TETR.IO, Jstris or
    /// connected skin PNG's path, or a built-in's name (bevel, outline, connected, or default
    /// for none). Overrides the settings file's `skin`.
    #[arg(long, value_name = "PATH")]
    pub skin: Option<String>,

    /// Play this sound theme for this session: a folder (or a ZIP archive) of WAV files named
    /// after the sounds they replace (`lock.wav`, `clear4.wav`, ...); missing or refused ones
    /// stay built in.
    #[arg(long, value_name = "PATH")]
    pub sound_theme: Option<PathBuf>,

    /// With `--demo`: play the demo through an embedded server on 127.0.0.1, exercising the
    /// real online code (connection, rooms, rollback sessions, pacing).
    #[arg(long, requires = "demo")]
    pub online: bool,

    /// Play this replay file.
    #[arg(long, value_name = "PATH")]
    pub replay: Option<PathBuf>,

    /// Seed of the demo match (the default makes captures repeatable).
    #[arg(long, value_name = "N", default_value_t = 2024)]
    pub seed: u64,

    /// Exit after this many seconds of real time. With `--demo --online`, print at exit how
    /// many match frames ran in that time and how many players the server forfeited, e.g.
    /// `sevenbag --demo --online --max-fps 8 --seconds 30`.
    #[arg(long, value_name = "S")]
    pub seconds: Option<f64>,

    /// Initial window size in logical pixels, as WIDTHxHEIGHT (for screenshots and testing).
    #[arg(long, value_name = "WxH", value_parser = parse_size, hide = true)]
    pub window_size: Option<(i32, i32)>,

    /// Open the Puzzles mode on this puzzle: a share code (e.g. `p24n-2s`) or `daily`.
    #[arg(long, value_name = "CODE")]
    pub puzzle: Option<String>,

    /// Open this screen first (for screenshots and testing).
    #[arg(long, value_enum, hide = true)]
    pub screen: Option<StartScreen>,

    /// With `--screen party` or `party-online`: seats of the free-for-all, 2 to 8.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=8), hide = true)]
    pub seats: u8,

    /// With `--screen party` or `party-online`: teams, 2 to 4 (0: none).
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4), hide = true)]
    pub teams: u8,

    /// With `--screen leaderboard`: open this match of the server's history as its results
    /// table at once (for screenshots and testing).
    #[arg(long = "match", value_name = "ID", hide = true)]
    pub match_id: Option<u64>,
}

#[cfg(any(target_arch = "wasm32", test))]
impl Args {
    /// What no flags give, without parsing: the browser's arguments (it has no command line,
    /// and the parser is left out of its build, where it would cost about 5% of the page).
    pub fn no_flags() -> Args {
        Args {
            max_fps: crate::platform::pacer::DEFAULT_MAX_FPS,
            seed: 2024,
            seats: 4,
            ..Args::default()
        }
    }
}

/// Parses "1280x720".
fn parse_size(s: &str) -> Result<(i32, i32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got {s:?}"))?;
    let w: i32 = w.trim().parse().map_err(|e| format!("width: {e}"))?;
    let h: i32 = h.trim().parse().map_err(|e| format!("height: {e}"))?;
    if !(320..=8192).contains(&w) || !(240..=8192).contains(&h) {
        return Err(format!("{w}x{h} is not a usable window size"));
    }
    Ok((w, h))
}

/// Screens `--screen` can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StartScreen {
    /// The main menu.
    Menu,
    /// Settings.
    Settings,
    /// Practice setup.
    Practice,
    /// Local two-player setup.
    Local,
    /// The join-room form.
    Lobby,
    /// The create-room form.
    Create,
    /// A room created on an embedded server on 127.0.0.1 (the lobby with its code).
    Room,
    /// The replay list.
    Replays,
    /// A practice match against the random stacker, already running.
    Play,
    /// The fixed-sequence challenge, watching the solver's best record.
    Challenge,
    /// The leaderboard and your profile, from the server in Settings.
    Leaderboard,
    /// The Friends screen against an embedded server on 127.0.0.1 holding a few friends (in a
    /// match, watching it, online, offline), requests both ways, an invite and a message.
    Friends,
    /// Invite a friend's box for a room of that server, three of whose friends are in the
    /// room already (marked so) and one online.
    FriendPicker,
    /// A 40-line Sprint under way with a friend's invite toast (Join and Decline) showing.
    InviteToast,
    /// The same, after Join: the box asking whether to leave the match for the room.
    InviteAsk,
    /// The solo mode picker (40 lines, Blitz, Zen).
    Solo,
    /// A 40-line Sprint, counting down.
    Sprint,
    /// Watching the committed sample Sprint replay (a bot's run) at 1×.
    SoloWatch,
    /// The past 40-line runs kept in the data folder.
    SoloPast,
    /// A 40-line Sprint, paused.
    SoloPaused,
    /// The first-start name prompt.
    Welcome,
    /// The free-for-all practice setup.
    PartySetup,
    /// A free-for-all of bots (`--seats`, `--teams`, `--seed`), your seat played by a bot too.
    Party,
    /// An online free-for-all room on an embedded server on 127.0.0.1 (`--seats`, `--teams`),
    /// every seat played by a bot through its own connection.
    PartyOnline,
    /// The same room with a bot in every seat, watched as a spectator.
    PartyWatch,
    /// `party-online` with the shown seat's connection through a relay that drops mid-match
    /// for longer than the room's reconnect window: the reconnecting banner, then watching.
    PartyReconnect,
    /// `party-online` with every other seat's bot registered and wearing a built-in skin it
    /// publishes: the other boards in their players' skins.
    PartySkins,
    /// Quick play's waiting card: the free-for-all queue of an embedded server on 127.0.0.1,
    /// with `--seats` minus one bots queued beside you (a room starts after its countdown).
    PartyQueue,
    /// With `--replay PATH`: the replay's statistics screen over its playback (what G opens).
    MatchStats,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn no_flags_are_what_the_parser_makes_of_none() {
        assert_eq!(Args::no_flags(), Args::parse_from(["sevenbag"]));
    }

    #[test]
    fn flags_parse() {
        Args::command().debug_assert();
        let a = Args::parse_from([
            "sevenbag",
            "--demo",
            "--frames",
            "600",
            "--screenshot",
            "/tmp/x.png",
        ]);
        assert!(a.demo);
        assert_eq!(a.frames, Some(600));
        assert_eq!(a.screenshot, Some(PathBuf::from("/tmp/x.png")));
        let b = Args::parse_from(["sevenbag", "--check-screenshot", "/tmp/x.png"]);
        assert_eq!(b.check_screenshot, Some(PathBuf::from("/tmp/x.png")));
        let c = Args::parse_from([
            "sevenbag",
            "--screen",
            "settings",
            "--window-size",
            "800x600",
        ]);
        assert_eq!(c.screen, Some(StartScreen::Settings));
        assert_eq!(c.window_size, Some((800, 600)));
        assert!(Args::try_parse_from(["sevenbag", "--window-size", "12"]).is_err());
    }
}

//! A match of 2 to 8 seats on one seed (SPEC §10): every board, the garbage between them
//! routed by the room's targeting rule, knock-outs and their credit, placements, badges, teams,
//! rounds and the result.
//!
//! `Battle<CAP>` holds up to `CAP` seats in fixed arrays (heap-free, so a rollback snapshot is
//! one copy): [`crate::Match`] is a `Battle<2>` behind the two-seat API, and `Battle` (that is,
//! `Battle<8>`) plays any match of 2 to 8 seats. A two-seat match with the default options is the
//! versus match of SPEC §5: same play, same state hash. A capacity past 8 does not compile:
//!
//! ```compile_fail
//! let nine = sevenbag_core::Battle::<9>::new(sevenbag_core::BattleHeader::new(1, 2));
//! ```
//!
//! A frame of play: every seat steps in seat order (a seat that is out only has its keys
//! remembered); then, in seat order, each seat's attack (after cancelling its own queue) is
//! routed among its opponents alive at the start of the frame; then the frame's knock-outs are
//! settled (credit, badges, placements) and the round ends when at most one team is left.

mod header;
mod route;
mod standing;

pub use header::{BattleError, BattleHeader, BattleOptions, Targeting};

use header::Lineup;
use standing::Standing;

use crate::attack::AttackScale;
use crate::hash::StateHasher;
use crate::input::Input;
use crate::phase::{Frame, Phase};
use crate::player::{Player, StepContext};
use crate::seat::{MAX_SEATS, Seat, SeatSet, Team};

/// One seat's input for one frame: the keys held and the target it holds for manual targeting
/// (kept by sending it again every frame, like a held key; `None`: no choice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatInput {
    /// Keys held.
    pub keys: Input,
    /// The seat this seat chose to attack.
    pub target: Option<Seat>,
}

impl SeatInput {
    /// No key, no target.
    pub const NONE: SeatInput = SeatInput {
        keys: Input::NONE,
        target: None,
    };
}

impl From<Input> for SeatInput {
    fn from(keys: Input) -> SeatInput {
        SeatInput { keys, target: None }
    }
}

/// What the match as a whole did during the last frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BattleEvents<const CAP: usize> {
    /// Play began (end of a countdown).
    pub go: bool,
    /// A new round's countdown began.
    pub new_round: bool,
    /// A round ended with this winner (`Some(None)` for a drawn two-seat round).
    pub round_over: Option<Option<Team>>,
    /// The match ended with this winner.
    pub match_over: Option<Team>,
    /// Seats that went out.
    pub knocked_out: SeatSet,
    /// Lines sent, `sent[from][to]`, after cancelling.
    pub sent: [[u16; CAP]; CAP],
}

impl<const CAP: usize> Default for BattleEvents<CAP> {
    fn default() -> Self {
        BattleEvents {
            go: false,
            new_round: false,
            round_over: None,
            match_over: None,
            knocked_out: SeatSet::EMPTY,
            sent: [[0; CAP]; CAP],
        }
    }
}

/// The whole state of a match of 2 to `CAP` seats (`CAP` at most 8). `Copy`, heap-free: a
/// rollback snapshot is one copy (`size_of::<Battle>()` is about 7 KB for 8 seats).
///
/// ```
/// use sevenbag_core::{Battle, BattleHeader, MAX_SEATS, Seat, SeatInput, Targeting};
///
/// let mut header = BattleHeader::new(7, 3);
/// header.options.targeting = Targeting::Manual;
/// let mut battle: Battle = Battle::new(header)?;
/// let mut inputs = [SeatInput::NONE; MAX_SEATS];
/// inputs[1].target = Seat::new(2);
/// battle.step(&inputs);
/// assert_eq!(battle.target(Seat::Second), Seat::new(2));
/// # Ok::<(), sevenbag_core::BattleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battle<const CAP: usize = MAX_SEATS> {
    header: BattleHeader,
    lineup: Lineup,
    frame: Frame,
    phase: Phase<Team>,
    round: u32,
    play_start: u32,
    /// Rounds won by each team.
    wins: [u8; CAP],
    players: [Player; CAP],
    standings: [Standing; CAP],
    events: BattleEvents<CAP>,
}

impl<const CAP: usize> Battle<CAP> {
    /// Refuses, at compile time, a capacity outside 2 to [`MAX_SEATS`].
    const CAPACITY_FITS: () = assert!(CAP >= 2 && CAP <= MAX_SEATS, "2 to 8 seats");

    /// A match at frame 0, in the first round's countdown. Refuses a seat count outside
    /// `2..=CAP` and malformed teams; rules and handling are taken as given (see
    /// [`BattleHeader::validate`] for values from outside).
    pub fn new(header: BattleHeader) -> Result<Battle<CAP>, BattleError> {
        let lineup = Lineup::new(&header, CAP)?;
        Ok(Battle::with_lineup(header, lineup))
    }

    /// The two-seat versus match of `header`'s rules and seed: always fits.
    pub(crate) fn two_seats(header: BattleHeader) -> Battle<CAP> {
        let lineup = Lineup::two_seats();
        Battle::with_lineup(header, lineup)
    }

    fn with_lineup(header: BattleHeader, lineup: Lineup) -> Battle<CAP> {
        let () = Self::CAPACITY_FITS;
        let r = &header.rules;
        let players =
            std::array::from_fn(|i| Player::new(r, header.handling[i], header.seed, 0, i as u8));
        let standings = std::array::from_fn(|i| Standing::new(header.seed, 0, Seat::raw(i as u8)));
        let mut battle = Battle {
            header,
            lineup,
            frame: Frame(0),
            phase: Phase::Countdown {
                go_at: u32::from(header.rules.countdown_frames),
            },
            round: 0,
            play_start: 0,
            wins: [0; CAP],
            players,
            standings,
            events: BattleEvents::default(),
        };
        battle.fresh_round();
        battle
    }

    /// Fresh boards and standings for the seats of the current round, written in place.
    fn fresh_round(&mut self) {
        let h = &self.header;
        for (i, (p, s)) in self.players.iter_mut().zip(&mut self.standings).enumerate() {
            let seat = Seat::raw(i as u8);
            *p = Player::new(&h.rules, h.handling[i], h.seed, self.round, i as u8);
            p.set_attack_scale(self.lineup.boost(seat));
            *s = Standing::new(h.seed, self.round, seat);
        }
    }

    /// The header this match was built from.
    pub fn header(&self) -> &BattleHeader {
        &self.header
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        usize::from(self.lineup.seats)
    }

    /// How many teams play (the seat count without teams).
    pub fn teams(&self) -> usize {
        usize::from(self.lineup.teams)
    }

    /// The team `seat` plays for (without teams, the team numbered as the seat).
    pub fn team_of(&self, seat: Seat) -> Team {
        self.lineup.team_of(seat)
    }

    /// The seats of `team`.
    pub fn members(&self, team: Team) -> SeatSet {
        self.lineup.members(team)
    }

    /// The next frame to be simulated (frames simulated so far).
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// Where the match stands.
    pub fn phase(&self) -> Phase<Team> {
        self.phase
    }

    /// The current round, from 0.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Rounds won by each team.
    pub fn wins(&self) -> &[u8] {
        &self.wins[..self.teams()]
    }

    /// The board of `seat`, read-only.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// Test and tool hook: mutable access to a seat's board and piece.
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    /// What the match did during the last frame.
    pub fn events(&self) -> &BattleEvents<CAP> {
        &self.events
    }

    /// The winning team, once the match is over.
    pub fn winner(&self) -> Option<Team> {
        match self.phase {
            Phase::MatchOver { winner } => Some(winner),
            _ => None,
        }
    }

    /// Frames of play left in the countdown, if one is running.
    pub fn countdown_left(&self) -> Option<u32> {
        match self.phase {
            Phase::Countdown { go_at } => Some(go_at.saturating_sub(self.frame.0)),
            _ => None,
        }
    }

    /// Incoming garbage lines of `seat`: (queued in total, ready to rise now).
    pub fn incoming(&self, seat: Seat) -> (u32, u32) {
        let g = self.player(seat).garbage();
        (g.total(), g.ready(self.frame.0))
    }

    /// The seats still in this round.
    pub fn alive(&self) -> SeatSet {
        Seat::all(self.seats())
            .filter(|&s| self.player(s).topped_out().is_none())
            .collect()
    }

    /// `seat`'s place this round (1 is the winner), once decided: when it goes out, or for the
    /// seats left standing when the round ends.
    pub fn placement(&self, seat: Seat) -> Option<u8> {
        Some(self.standings[seat.index()].place).filter(|&p| p > 0)
    }

    /// Who knocked `seat` out this round (none if it went out with no garbage having risen).
    pub fn knocked_out_by(&self, seat: Seat) -> Option<Seat> {
        self.standings[seat.index()].knocked_out_by
    }

    /// Knock-outs credited to `seat` this round.
    pub fn kos(&self, seat: Seat) -> u8 {
        self.standings[seat.index()].kos
    }

    /// `seat`'s badge points this round (they count only with the badges option).
    pub fn badges(&self, seat: Seat) -> u8 {
        self.standings[seat.index()].badges
    }

    /// Lines routed to `seat` this round.
    pub fn received(&self, seat: Seat) -> u32 {
        self.standings[seat.index()].received
    }

    /// Lines thrown away from `seat`'s queue when it went out.
    pub fn discarded(&self, seat: Seat) -> u32 {
        self.standings[seat.index()].discarded
    }

    /// The target `seat` holds for manual targeting.
    pub fn target(&self, seat: Seat) -> Option<Seat> {
        self.standings[seat.index()].target
    }

    /// The multiplier on `seat`'s attack now (badges × team boost).
    pub fn attack_scale(&self, seat: Seat) -> AttackScale {
        self.player(seat).attack_scale()
    }

    /// The seats whose garbage waits on `seat`'s board ("who attacks you").
    pub fn attackers_of(&self, seat: Seat) -> SeatSet {
        self.player(seat).garbage().senders()
    }

    /// The seats `seat`'s next attack would reach if it locked now, large enough to reach every
    /// seat a split would ("who you attack"). Exact for every rule, `random` included (its next
    /// draw is read without being used); for `attackers`, as if the lock found the garbage
    /// now queued.
    pub fn targets_of(&self, seat: Seat) -> SeatSet {
        let live = matches!(self.phase, Phase::Playing | Phase::Countdown { .. });
        if !live || self.player(seat).topped_out().is_some() {
            return SeatSet::EMPTY;
        }
        let opponents = self.opponents(seat, self.alive());
        let route = self.route(seat, MAX_SEATS as u16, opponents, self.attackers_of(seat));
        Seat::all(self.seats())
            .filter(|s| route.lines[s.index()] > 0)
            .collect()
    }

    /// Simulates one frame with every seat's input (entries past the seat count are ignored).
    pub fn step(&mut self, inputs: &[SeatInput; CAP]) {
        let f = self.frame.0;
        let n = self.seats();
        self.events = BattleEvents::default();
        if self.header.options.targeting == Targeting::Manual {
            for (standing, input) in self.standings.iter_mut().zip(inputs).take(n) {
                standing.target = input.target.filter(|t| t.index() < n);
            }
        }
        let keys = inputs.map(|i| i.keys);
        match self.phase {
            Phase::Countdown { go_at } if f < go_at => {
                for (p, &k) in self.players.iter_mut().zip(&keys).take(n) {
                    p.countdown(k);
                }
            }
            Phase::Countdown { .. } => {
                self.phase = Phase::Playing;
                self.play_start = f;
                self.events.go = true;
                self.play(&keys);
            }
            Phase::Playing => self.play(&keys),
            Phase::RoundOver { next_at, .. } if f >= next_at => {
                self.round += 1;
                self.fresh_round();
                let go_at = f + u32::from(self.header.rules.countdown_frames);
                self.phase = Phase::Countdown { go_at };
                self.events.new_round = true;
                self.idle(&keys);
            }
            Phase::RoundOver { .. } | Phase::MatchOver { .. } => self.idle(&keys),
        }
        self.frame = Frame(f + 1);
    }

    fn idle(&mut self, keys: &[Input; CAP]) {
        let n = self.seats();
        for (p, &k) in self.players.iter_mut().zip(keys).take(n) {
            p.idle(k);
        }
    }

    /// The alive seats of `alive` that are not on `seat`'s team.
    fn opponents(&self, seat: Seat, alive: SeatSet) -> SeatSet {
        alive.without(self.members(self.team_of(seat)))
    }

    fn play(&mut self, keys: &[Input; CAP]) {
        let f = self.frame.0;
        let n = self.seats();
        let ctx = StepContext {
            rules: &self.header.rules,
            frame: f,
            play_frame: f - self.play_start,
        };
        // One pass: who was in at the start of the frame, who went out, whether anyone sent.
        let (mut alive, mut out, mut sending) = (SeatSet::EMPTY, SeatSet::EMPTY, false);
        for (seat, (p, &k)) in Seat::all(n).zip(self.players.iter_mut().zip(keys)) {
            let was_in = p.topped_out().is_none();
            p.step(k, ctx);
            if was_in {
                alive.insert(seat);
                if p.topped_out().is_some() {
                    out.insert(seat);
                }
            }
            sending |= p.outgoing() > 0;
        }
        if sending {
            self.route_attacks(alive);
        }
        if !out.is_empty() {
            self.knock_out(alive, out);
        }
    }

    /// Routes every seat's attack of this frame, in seat order, among its opponents `alive` at
    /// the start of the frame.
    fn route_attacks(&mut self, alive: SeatSet) {
        let f = self.frame.0;
        let n = self.seats();
        let travel = self.header.rules.garbage_travel;
        for from in Seat::all(n) {
            let lines = self.players[from.index()].outgoing();
            if lines == 0 {
                continue;
            }
            let attackers = self.players[from.index()].attackers_at_lock();
            let route = self.route(from, lines, self.opponents(from, alive), attackers);
            let sender = &mut self.standings[from.index()];
            sender.last_attacked = route.last_attacked;
            sender.aim = route.aim;
            for to in Seat::all(n) {
                let lines = route.lines[to.index()];
                if lines > 0 {
                    self.players[to.index()].receive_from(lines, f, travel, from);
                    self.standings[to.index()].received += u32::from(lines);
                    self.events.sent[from.index()][to.index()] += lines;
                }
            }
        }
    }

    /// Settles the seats of `out` going out this frame (of the `alive` at its start): credit,
    /// badges, places, and the end of the round when at most one team is left.
    fn knock_out(&mut self, alive: SeatSet, out: SeatSet) {
        let badges_before = self.standings.map(|s| s.badges);
        for victim in out.iter() {
            let by = self.players[victim.index()].garbage().last_from();
            self.standings[victim.index()].knocked_out_by = by;
            if let Some(k) = by {
                let credited = &mut self.standings[k.index()];
                credited.kos = credited.kos.saturating_add(1);
                if self.header.options.badges {
                    let earned = badges_before[victim.index()].saturating_add(1);
                    credited.badges = credited.badges.saturating_add(earned);
                }
            }
        }
        // Same frame: the higher seat counts as out first, so it takes the worse place.
        let mut place = alive.len() as u8;
        for victim in out.iter().rev() {
            self.standings[victim.index()].place = place;
            place -= 1;
        }
        self.events.knocked_out = out;
        if self.header.options.badges {
            for seat in Seat::all(self.seats()) {
                let scale = self.seat_scale(seat);
                self.players[seat.index()].set_attack_scale(scale);
            }
        }
        let left = alive.without(out);
        let teams_left = left
            .iter()
            .fold(0u8, |m, s| m | 1 << self.team_of(s).index());
        if teams_left.count_ones() >= 2 {
            for victim in out.iter() {
                let lines = self.players[victim.index()].discard_garbage();
                self.standings[victim.index()].discarded += lines;
            }
            return;
        }
        let winner = if let Some(seat) = left.lowest() {
            for s in left.iter() {
                self.standings[s.index()].place = 1;
            }
            Some(self.team_of(seat))
        } else if self.seats() == 2 {
            // Versus: a two-seat round whose seats go out together is drawn.
            for s in out.iter() {
                self.standings[s.index()].place = 1;
            }
            None
        } else {
            out.lowest().map(|s| self.team_of(s))
        };
        self.end_round(winner);
    }

    /// The multiplier on `seat`'s attack: badge bonus × team boost, as one fraction.
    fn seat_scale(&self, seat: Seat) -> AttackScale {
        let (bn, bd) = self.standings[seat.index()].badge_scale().ratio();
        let (tn, td) = self.lineup.boost(seat).ratio();
        AttackScale::new(bn * tn, bd * td).unwrap_or(AttackScale::ONE)
    }

    fn end_round(&mut self, winner: Option<Team>) {
        let f = self.frame.0;
        self.events.round_over = Some(winner);
        if let Some(w) = winner {
            self.wins[w.index()] += 1;
            if self.wins[w.index()] >= self.header.rules.first_to {
                self.phase = Phase::MatchOver { winner: w };
                self.events.match_over = Some(w);
                return;
            }
        }
        let next_at = f + 1 + u32::from(self.header.rules.round_break_frames);
        self.phase = Phase::RoundOver { winner, next_at };
    }

    /// The state hash: FNV-1a 64 (see [`crate::hash`]) over these canonical bytes, in order:
    /// frame (u32); phase tag (u8: 0 countdown, 1 playing, 2 round over, 3 match over) and its
    /// data (go_at u32 | winner u8 and next_at u32 | winner u8; a winner is the team number,
    /// the seat count for a drawn round); round (u32); play start (u32); rounds won by each
    /// team (u8 each); then each seat's player (see [`crate::Match::state_hash`]). With more than
    /// two seats, each player's garbage bytes end with each entry's sender and the last riser,
    /// and after the players come each seat's standing: place, knocked out by, knock-outs,
    /// badge points, lines received, lines discarded, last attacked, target, `random` stream
    /// position. With two seats the bytes are exactly the versus match's.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        h.u32(self.frame.0);
        let winner_byte = |t: Option<Team>| t.map_or(self.lineup.seats, |t| t.index() as u8);
        match self.phase {
            Phase::Countdown { go_at } => {
                h.u8(0);
                h.u32(go_at);
            }
            Phase::Playing => h.u8(1),
            Phase::RoundOver { winner, next_at } => {
                h.u8(2);
                h.u8(winner_byte(winner));
                h.u32(next_at);
            }
            Phase::MatchOver { winner } => {
                h.u8(3);
                h.u8(winner_byte(Some(winner)));
            }
        }
        h.u32(self.round);
        h.u32(self.play_start);
        for &w in self.wins() {
            h.u8(w);
        }
        let more = self.seats() > 2;
        for p in &self.players[..self.seats()] {
            p.write_canonical(&mut h, more);
        }
        if more {
            for s in &self.standings[..self.seats()] {
                s.write_canonical(&mut h);
            }
        }
        h.finish()
    }

    /// One seat's state hash, for finding which seat's inputs diverged: FNV-1a 64 over the
    /// seat's player bytes (as in [`Battle::state_hash`]) and its standing bytes.
    pub fn seat_hash(&self, seat: Seat) -> u64 {
        let mut h = StateHasher::new();
        self.players[seat.index()].write_canonical(&mut h, self.seats() > 2);
        self.standings[seat.index()].write_canonical(&mut h);
        h.finish()
    }
}

//! Toasts: short lines that say something arrived (a friend request, an accepted request, an
//! invite, a message) over whatever screen is open, one at a time, each for
//! [`SHOW_SECONDS`] (an invite, which has Join and Decline to act on, for [`INVITE_SECONDS`]),
//! fading out over its last [`FADE_SECONDS`]; more wait their turn in a queue of at most
//! [`MOST_WAITING`]. Nothing here reads a clock: the caller passes the time
//! (seconds since any fixed start, such as `Ctx::time`), so the tests drive it frame by frame.

use std::collections::VecDeque;

/// The invite a toast offers Join and Decline for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    /// The notification's id (marked seen on either answer).
    pub id: u64,
    /// The room's code.
    pub code: String,
}

/// One toast: its words and, for an invite, what Join and Decline act on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Toast {
    text: String,
    invite: Option<Invite>,
}

impl Toast {
    fn seconds(&self) -> f32 {
        if self.invite.is_some() {
            INVITE_SECONDS
        } else {
            SHOW_SECONDS
        }
    }
}

/// How long one toast shows.
pub const SHOW_SECONDS: f32 = 4.0;
/// How long an invite's toast shows: long enough to read it and reach for Join.
pub const INVITE_SECONDS: f32 = 10.0;
/// The end of that time over which it fades out.
pub const FADE_SECONDS: f32 = 0.6;
/// Toasts kept waiting behind the one shown; past that the oldest waiting one is dropped
/// (the Friends screen still lists every notification).
pub const MOST_WAITING: usize = 5;

/// The toast on screen now and how opaque it is (1 fully shown, towards 0 fading out).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown<'a> {
    /// Its words.
    pub text: &'a str,
    /// Its opacity, 0 to 1.
    pub alpha: f32,
    /// The invite it offers Join and Decline for, if it is one.
    pub invite: Option<&'a Invite>,
}

/// The queue of toasts and the one showing (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Toasts {
    waiting: VecDeque<Toast>,
    /// The toast showing and when it started.
    current: Option<(Toast, f32)>,
}

impl Toasts {
    /// Queues `text` (shown once those before it are done).
    pub fn push(&mut self, text: impl Into<String>) {
        self.push_toast(text.into(), None);
    }

    /// Queues an invite's toast, which offers Join and Decline for `invite`.
    pub fn push_invite(&mut self, text: impl Into<String>, invite: Invite) {
        self.push_toast(text.into(), Some(invite));
    }

    fn push_toast(&mut self, text: String, invite: Option<Invite>) {
        self.waiting.push_back(Toast { text, invite });
        while self.waiting.len() > MOST_WAITING {
            self.waiting.pop_front();
        }
    }

    /// Ends the toast showing now (its invite was answered).
    pub fn close(&mut self) {
        self.current = None;
    }

    /// Moves the queue on to time `now`: the toast showing ends after its time and the next
    /// waiting one starts at `now`. Returns the toast to draw, if any.
    pub fn at(&mut self, now: f32) -> Option<Shown<'_>> {
        if let Some((toast, since)) = &self.current
            && now - *since >= toast.seconds()
        {
            self.current = None;
        }
        if self.current.is_none()
            && let Some(next) = self.waiting.pop_front()
        {
            self.current = Some((next, now));
        }
        let (toast, since) = self.current.as_ref()?;
        let left = toast.seconds() - (now - since);
        Some(Shown {
            text: &toast.text,
            alpha: (left / FADE_SECONDS).clamp(0.0, 1.0),
            invite: toast.invite.as_ref(),
        })
    }

    /// How many wait behind the one showing.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Whether nothing shows or waits.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.current.is_none() && self.waiting.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toast_shows_from_its_first_frame_and_is_gone_after_its_time() {
        let mut t = Toasts::default();
        t.push("ann invites you to room ABCDE");
        let shown = t.at(10.0).expect("shown at once");
        assert_eq!(shown.text, "ann invites you to room ABCDE");
        assert_eq!(shown.alpha, 1.0);
        assert!(t.at(10.0 + SHOW_SECONDS - 0.01).is_some());
        assert_eq!(t.at(10.0 + SHOW_SECONDS), None);
        assert!(t.is_empty());
    }

    #[test]
    fn a_toast_fades_out_over_its_last_moments() {
        let mut t = Toasts::default();
        t.push("x");
        t.at(0.0);
        let half = t.at(SHOW_SECONDS - FADE_SECONDS / 2.0).map(|s| s.alpha);
        assert!(half.is_some_and(|a| (a - 0.5).abs() < 1e-4), "{half:?}");
    }

    #[test]
    fn toasts_show_one_at_a_time_in_the_order_they_came() {
        let mut t = Toasts::default();
        t.push("first");
        t.push("second");
        assert_eq!(
            t.at(0.0).map(|s| s.text.to_owned()).as_deref(),
            Some("first")
        );
        assert_eq!(t.waiting(), 1);
        assert_eq!(
            t.at(1.0).map(|s| s.text.to_owned()).as_deref(),
            Some("first")
        );
        // The second starts when the first ends, for its own full time.
        let next = t.at(SHOW_SECONDS).map(|s| (s.text.to_owned(), s.alpha));
        assert_eq!(next, Some(("second".to_owned(), 1.0)));
        assert!(t.at(2.0 * SHOW_SECONDS - 0.01).is_some());
        assert_eq!(t.at(2.0 * SHOW_SECONDS), None);
    }

    #[test]
    fn a_long_queue_keeps_the_newest_waiting() {
        let mut t = Toasts::default();
        for n in 0..MOST_WAITING + 3 {
            t.push(format!("{n}"));
        }
        assert_eq!(t.waiting(), MOST_WAITING);
        assert_eq!(t.at(0.0).map(|s| s.text.to_owned()), Some("3".to_owned()));
    }

    #[test]
    fn an_invite_shows_longer_and_carries_its_room() {
        let mut t = Toasts::default();
        let invite = Invite {
            id: 7,
            code: "ABCDE".into(),
        };
        t.push_invite("ann invites you to room ABCDE", invite.clone());
        assert_eq!(t.at(0.0).and_then(|s| s.invite.cloned()), Some(invite));
        assert!(t.at(SHOW_SECONDS + 1.0).is_some());
        assert_eq!(t.at(INVITE_SECONDS), None);
    }

    #[test]
    fn an_answered_toast_closes_and_the_next_one_shows() {
        let mut t = Toasts::default();
        t.push("first");
        t.push("second");
        t.at(0.0);
        t.close();
        let next = t.at(0.5).map(|s| s.text.to_owned());
        assert_eq!(next.as_deref(), Some("second"));
    }

    #[test]
    fn nothing_shows_without_a_toast() {
        let mut t = Toasts::default();
        assert_eq!(t.at(5.0), None);
    }
}

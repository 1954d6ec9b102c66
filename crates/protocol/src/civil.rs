//! Calendar dates of the Unix times that replays, records and matches carry, in UTC: one
//! conversion for the server's JSON and the game's lists.

/// A Unix time as a UTC calendar date and time of day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CivilUtc {
    /// Year (1970 or later).
    pub year: i64,
    /// Month, 1-12.
    pub month: u8,
    /// Day of the month, 1-31.
    pub day: u8,
    /// Hour, 0-23.
    pub hour: u8,
    /// Minute, 0-59.
    pub minute: u8,
    /// Second, 0-59.
    pub second: u8,
}

impl CivilUtc {
    /// The date and time `unix` seconds after 1970-01-01 00:00 UTC (H. Hinnant's days-to-civil).
    pub fn from_unix(unix: u64) -> CivilUtc {
        let days = (unix / 86_400) as i64;
        let secs = unix % 86_400;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        CivilUtc {
            year: yoe + era * 400 + i64::from(month <= 2),
            month: month as u8,
            day: day as u8,
            hour: (secs / 3600) as u8,
            minute: (secs / 60 % 60) as u8,
            second: (secs % 60) as u8,
        }
    }

    /// `2026-11-22T17:38:23Z` (RFC 3339), for JSON.
    pub fn rfc3339(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `2026-11-22 17:38`, for lists a person reads.
    pub fn to_minute(&self) -> String {
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute
        )
    }
}

#[cfg(test)]
mod tests {
    use super::CivilUtc;

    #[test]
    fn the_epoch_a_leap_day_and_today_read_as_calendar_dates() {
        assert_eq!(CivilUtc::from_unix(0).rfc3339(), "1970-01-01T00:00:00Z");
        assert_eq!(
            CivilUtc::from_unix(951_782_400).rfc3339(),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            CivilUtc::from_unix(1_795_369_103).rfc3339(),
            "2026-11-22T17:38:23Z"
        );
        assert_eq!(
            CivilUtc::from_unix(1_795_369_103).to_minute(),
            "2026-11-22 17:38"
        );
    }

    #[test]
    fn the_largest_time_does_not_panic() {
        assert!(CivilUtc::from_unix(u64::MAX).year > 1970);
    }
}

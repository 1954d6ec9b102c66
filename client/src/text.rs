//! Short texts of numbers the screens share: a place ("3rd"), a day ("2026-11-23") and a time
//! of day ("2026-11-23 10:31"). They sit below every screen so that any of them may print one.

/// "1st", "2nd", "3rd", "4th" ...
pub fn ordinal(place: u8) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// "2026-11-23" for a day number (days since 1970-01-01), by the civil calendar.
pub fn date_text(day: u64) -> String {
    // Howard Hinnant's days-to-civil, on non-negative days.
    let z = day as i64 + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// "2026-11-23 10:31" (UTC) of a Unix time in seconds.
pub fn utc_stamp(unix: u64) -> String {
    sevenbag_protocol::civil::CivilUtc::from_unix(unix).to_minute()
}

/// `m:ss` of a frame count (60 frames a second).
pub fn mmss(frames: u32) -> String {
    let s = frames / 60;
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_people_write_them() {
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(20_415), "2025-11-23");
        assert_eq!(date_text(11_016), "2000-02-29");
    }

    #[test]
    fn places_read_as_people_say_them() {
        assert_eq!(
            [1, 2, 3, 4, 11].map(ordinal),
            ["1st", "2nd", "3rd", "4th", "11th"]
        );
    }
}

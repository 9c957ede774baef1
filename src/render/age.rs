//! AGE as kubectl prints it (apimachinery's HumanDuration), from RFC 3339 stamps.

/// Seconds since the Unix epoch for an RFC 3339 timestamp (`2026-02-03T09:00:00Z`,
/// fractions and `+hh:mm` offsets allowed), read by jiff. None when it does not parse.
pub(crate) fn parse_rfc3339(s: &str) -> Option<i64> {
    crate::model::parse_timestamp(s).map(|t| t.as_second())
}

/// kubectl's short duration: `45s`, `5m30s`, `3h`, `5d`, `2y37d`.
pub(crate) fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = hours / 24 % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// AGE for a creationTimestamp, `<unknown>` as kubectl prints for none.
pub(crate) fn age(ts: Option<&str>, now: i64) -> String {
    match ts.and_then(parse_rfc3339) {
        Some(t) => human_duration(now - t),
        None => "<unknown>".into(),
    }
}

/// Now, or `KUBECTL_POLICIES_NOW` (RFC 3339) so snapshots of AGE stay stable.
pub(crate) fn now() -> i64 {
    if let Some(t) = std::env::var("KUBECTL_POLICIES_NOW")
        .ok()
        .and_then(|s| parse_rfc3339(&s))
    {
        return t;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2026-01-01T00:00:00Z"), Some(1_767_225_600));
        assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_rfc3339("1970-01-01T00:00:01.5Z"), Some(1));
        assert_eq!(parse_rfc3339("yesterday"), None);
        // Not ASCII where digits belong: no panic, no time.
        assert_eq!(parse_rfc3339("2024-01-01T00:00:0é"), None);
        assert_eq!(parse_rfc3339("２０２４-01-01T00:00:00Z"), None);
    }

    #[test]
    fn durations_read_like_kubectl() {
        assert_eq!(human_duration(45), "45s");
        assert_eq!(human_duration(330), "5m30s");
        assert_eq!(human_duration(3 * 3600), "3h");
        assert_eq!(human_duration(3 * 3600 + 120), "3h2m");
        assert_eq!(human_duration(30 * 3600), "30h");
        assert_eq!(human_duration(3 * 86400 + 3600), "3d1h");
        assert_eq!(human_duration(100 * 86400), "100d");
        assert_eq!(human_duration(800 * 86400), "2y70d");
        assert_eq!(human_duration(10 * 365 * 86400), "10y");
    }
}

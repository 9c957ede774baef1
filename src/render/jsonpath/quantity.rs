//! A Kubernetes resource quantity (`500m`, `2Gi`, `1e3`) as `--sort-by` compares two
//! strings that both are one: kubectl sorts them by amount, not as text
//! (apimachinery's `resource.ParseQuantity` grammar:
//! `<sign><digits>[.<digits>]<suffix>`, the suffix one of `Ki Mi Gi Ti Pi Ei`,
//! `n u m k M G T P E`, none, or `e`/`E` and a signed integer).

/// The amount a quantity's text stands for, or None if it is not one.
pub(super) fn amount(text: &str) -> Option<f64> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1.0, text.get(1..)?),
        b'-' => (-1.0, text.get(1..)?),
        _ => (1.0, text),
    };
    let number_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'.')
        .count();
    let (number, suffix) = rest.split_at_checked(number_len)?;
    // Digits with at most one point, and at least one digit.
    let digits = number.bytes().filter(u8::is_ascii_digit).count();
    if digits == 0 || number.len() - digits > 1 {
        return None;
    }
    let mantissa: f64 = match number {
        _ if number.ends_with('.') => number.strip_suffix('.')?.parse().ok()?,
        _ if number.starts_with('.') => format!("0{number}").parse().ok()?,
        _ => number.parse().ok()?,
    };
    Some(sign * mantissa * scale(suffix)?)
}

/// What a suffix multiplies by.
fn scale(suffix: &str) -> Option<f64> {
    let binary = |power: i32| Some(2f64.powi(power));
    let decimal = |power: i32| Some(10f64.powi(power));
    match suffix {
        "" => decimal(0),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        _ => {
            let exponent = suffix
                .strip_prefix('e')
                .or_else(|| suffix.strip_prefix('E'))?;
            let unsigned = exponent.trim_start_matches(['+', '-']);
            if unsigned.is_empty()
                || exponent.len() - unsigned.len() > 1
                || !unsigned.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            decimal(exponent.parse().ok()?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::amount;

    #[test]
    fn quantities_read_as_their_amounts_and_other_text_is_none() {
        for (text, value) in [
            ("2Gi", 2.0 * 1024.0 * 1024.0 * 1024.0),
            ("100Mi", 100.0 * 1024.0 * 1024.0),
            ("500m", 0.5),
            ("1.5", 1.5),
            ("-3k", -3000.0),
            ("+.5", 0.5),
            ("7.", 7.0),
            ("1e3", 1000.0),
            ("25E-1", 2.5),
            ("0", 0.0),
        ] {
            assert_eq!(amount(text), Some(value), "{text}");
        }
        for text in [
            "",
            "-",
            ".",
            "1..2",
            "Gi",
            "2gi",
            "1e",
            "1e+-2",
            "2026-02-03T09:00:00Z",
            "Enforced",
            "1 Gi",
        ] {
            assert_eq!(amount(text), None, "{text}");
        }
    }
}

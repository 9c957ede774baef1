//! Terminal safety: text that came from input or a server (names, labels, status
//! messages, error bodies) never reaches a terminal with a control character in it.
//!
//! A policy named `a\x1b[2J` would clear the user's screen, a status message with
//! `\x1b]0;…\x07` would retitle the terminal, a `\r` would overwrite what was printed
//! before it, and a bidirectional override would show a name other than the one there.
//! kubectl escapes `ESC` and `CR` since 1.26; this escapes every C0 control but the line
//! feed and the tab, DEL, the C1 controls and the bidirectional controls, in the
//! notation `cat -v` and kubectl use for the common ones (`^[`, `\r`), `\u{…}` for the
//! others. JSON and YAML are written exact, never through this.

use std::borrow::Cow;
use std::io::{self, Write};

/// What one character is written as, or None when it is written as it is.
fn escaped(c: char) -> Option<String> {
    match c {
        '\n' | '\t' => None,
        '\r' => Some("\\r".into()),
        // ^@ … ^_ : the caret notation of the C0 controls, ESC as ^[.
        '\0'..='\x1f' => Some(format!("^{}", char::from(c as u8 + 0x40))),
        '\x7f' => Some("^?".into()),
        '\u{80}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
            Some(format!("\\u{{{:x}}}", c as u32))
        }
        _ => None,
    }
}

/// Whether `bytes` are printable ASCII, line feeds and tabs only: told eight bytes at a
/// time (a table of every policy of a large cluster is megabytes of such text). False
/// only means "look closer".
fn plain(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let word_plain = |w: u64| {
        // A byte below 0x20, a byte with its top bit set, or 0x7f.
        let low = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        let del = (w ^ (ONES * 0x7f)).wrapping_sub(ONES) & !(w ^ (ONES * 0x7f)) & HIGH;
        low | (w & HIGH) | del == 0
    };
    let byte_plain = |b: &u8| (b' '..=b'~').contains(b) || *b == b'\n' || *b == b'\t';
    for chunk in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if !word_plain(u64::from_le_bytes(word)) && !chunk.iter().all(byte_plain) {
            return false;
        }
    }
    words.remainder().iter().all(byte_plain)
}

/// `s` with every control character escaped; borrowed when it has none (nearly always).
pub fn terminal_safe(s: &str) -> Cow<'_, str> {
    if plain(s.as_bytes()) || !s.chars().any(|c| escaped(c).is_some()) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match escaped(c) {
            Some(e) => out.push_str(&e),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `s` on one line: each line feed written `\n`, so text from a server (a status
/// message, a reason) cannot start a line of output that seems the tool's own. Every
/// other control character is left to [`SafeWriter`].
pub(crate) fn one_line(s: &str) -> Cow<'_, str> {
    match s.contains('\n') {
        true => Cow::Owned(s.replace('\n', "\\n")),
        false => Cow::Borrowed(s),
    }
}

/// The SGR sequences the renderers' own colours are made of (`Style::paint_into`): set
/// bold, dim, red, green, yellow; reset intensity, foreground, all. With colour on,
/// these and only these pass through [`SafeWriter`] unescaped.
const OWN_COLOURS: [&[u8]; 8] = [
    b"\x1b[1m",
    b"\x1b[2m",
    b"\x1b[22m",
    b"\x1b[31m",
    b"\x1b[32m",
    b"\x1b[33m",
    b"\x1b[39m",
    b"\x1b[0m",
];

/// A writer for human output that escapes every control character on its way to the
/// terminal, whatever wrote it: the net under every renderer, present and future. With
/// `colour`, the renderers' own colour sequences pass (and nothing else that starts
/// with ESC). A character split across two writes is held until it is whole.
pub struct SafeWriter<W: Write> {
    inner: W,
    colour: bool,
    /// The start of a character or colour sequence the last write ended inside.
    pending: Vec<u8>,
}

impl<W: Write> SafeWriter<W> {
    /// Writes what is held (an incomplete sequence at the very end, escaped) and hands
    /// back the inner writer.
    #[cfg(test)]
    pub(crate) fn into_inner(mut self) -> io::Result<W> {
        self.flush_pending()?;
        Ok(self.inner)
    }

    pub fn new(inner: W, colour: bool) -> Self {
        SafeWriter {
            inner,
            colour,
            pending: Vec::new(),
        }
    }

    fn flush_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let held = std::mem::take(&mut self.pending);
        let text = String::from_utf8_lossy(&held);
        self.inner.write_all(terminal_safe(&text).as_bytes())
    }

    /// Escapes `bytes` (whole characters and sequences, the tail held back) to `out`.
    fn filter(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        let mut i = 0;
        while i < bytes.len() {
            let rest = &bytes[i..];
            if rest[0] == 0x1b && self.colour {
                if let Some(own) = OWN_COLOURS.iter().find(|c| rest.starts_with(c)) {
                    out.extend_from_slice(own);
                    i += own.len();
                    continue;
                }
                // Could still become one of ours in the next write.
                if rest.len() < 5 && OWN_COLOURS.iter().any(|c| c.starts_with(rest)) {
                    self.pending.extend_from_slice(rest);
                    return;
                }
            }
            let len = utf8_len(rest[0]);
            if rest.len() < len {
                self.pending.extend_from_slice(rest);
                return;
            }
            let piece = &rest[..len];
            match std::str::from_utf8(piece) {
                Ok(s) => out.extend_from_slice(terminal_safe(s).as_bytes()),
                // Not UTF-8: written as the replacement character, as a lossy read would.
                Err(_) => out.extend_from_slice("\u{fffd}".as_bytes()),
            }
            i += len;
        }
    }
}

/// How many bytes the UTF-8 character that starts with `b` takes (1 for a stray byte).
fn utf8_len(b: u8) -> usize {
    match b {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 1,
    }
}

impl<W: Write> Write for SafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        // Nearly all output is printable text, written as it is.
        if plain(&bytes) {
            self.inner.write_all(&bytes)?;
        } else {
            let mut out = Vec::with_capacity(bytes.len() + 16);
            self.filter(&bytes, &mut out);
            self.inner.write_all(&out)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_pending()?;
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(colour: bool, writes: &[&[u8]]) -> String {
        let mut w = SafeWriter::new(Vec::new(), colour);
        for chunk in writes {
            w.write_all(chunk).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    /// The eight-at-a-time check agrees with the byte-at-a-time one on every byte, in
    /// every position of a word.
    #[test]
    fn plain_text_is_told_a_word_at_a_time_as_a_byte_at_a_time() {
        let byte_plain = |b: u8| (b' '..=b'~').contains(&b) || b == b'\n' || b == b'\t';
        for b in 0..=255u8 {
            for at in 0..17 {
                let mut text = vec![b'a'; 17];
                text[at] = b;
                assert_eq!(plain(&text), byte_plain(b), "byte {b:#x} at {at}");
            }
        }
        assert!(plain(b""));
    }

    #[test]
    fn control_characters_are_escaped_as_kubectl_does() {
        assert_eq!(terminal_safe("plain name"), "plain name");
        assert!(matches!(terminal_safe("plain"), Cow::Borrowed(_)));
        assert_eq!(terminal_safe("a\x1b[2Jb"), "a^[[2Jb");
        assert_eq!(terminal_safe("x\ry"), "x\\ry");
        assert_eq!(terminal_safe("\x1b]0;pwned\x07"), "^[]0;pwned^G");
        assert_eq!(terminal_safe("del\x7f"), "del^?");
        assert_eq!(terminal_safe("c1\u{9b}2J"), "c1\\u{9b}2J");
        assert_eq!(terminal_safe("evil\u{202e}txt"), "evil\\u{202e}txt");
        // Lines and tabs are layout, and wide text is text.
        assert_eq!(terminal_safe("a\n\tb 日本"), "a\n\tb 日本");
    }

    #[test]
    fn the_writer_lets_only_its_own_colours_through() {
        let painted = b"\x1b[32mEnforced\x1b[39m";
        assert_eq!(through(true, &[painted]), "\x1b[32mEnforced\x1b[39m");
        assert_eq!(through(false, &[painted]), "^[[32mEnforced^[[39m");
        // Anything else that starts with ESC is escaped even with colour on.
        assert_eq!(through(true, &[b"\x1b[2J\x1b]0;t\x07"]), "^[[2J^[]0;t^G");
        assert_eq!(through(true, &[b"\x1b[8m"]), "^[[8m");
    }

    #[test]
    fn sequences_split_across_writes_are_read_whole() {
        // A colour sequence cut in two is still ours; a character cut in two is still
        // one character; a C1 control cut in two is still escaped.
        assert_eq!(through(true, &[b"\x1b[3", b"2mok"]), "\x1b[32mok");
        assert_eq!(
            through(
                false,
                &["日".as_bytes()[..1].as_ref(), &"日".as_bytes()[1..]]
            ),
            "日"
        );
        assert_eq!(through(false, &[b"\xc2", b"\x9b"]), "\\u{9b}");
        // An ESC left at the very end is escaped when the writer is done.
        assert_eq!(through(true, &[b"end\x1b"]), "end^[");
    }
}

//! The tests' pseudo-language: a text accented and bracketed, its placeholders kept.

/// The pseudo-language's form of a text: accented and bracketed, placeholders kept.
pub fn pseudo_text(text: &str) -> String {
    let mut out = String::from("[");
    let mut in_placeholder = false;
    for ch in text.chars() {
        match ch {
            '{' => in_placeholder = true,
            '}' => in_placeholder = false,
            _ => {}
        }
        out.push(if in_placeholder { ch } else { accent(ch) });
    }
    out.push(']');
    out
}

fn accent(ch: char) -> char {
    match ch {
        'a' => 'à',
        'e' => 'é',
        'i' => 'î',
        'o' => 'ö',
        'u' => 'ü',
        'c' => 'ç',
        'n' => 'ñ',
        's' => 'š',
        'y' => 'ý',
        'A' => 'Å',
        'E' => 'É',
        'I' => 'Î',
        'O' => 'Ö',
        'U' => 'Ü',
        'C' => 'Ç',
        'N' => 'Ñ',
        'S' => 'Š',
        other => other,
    }
}

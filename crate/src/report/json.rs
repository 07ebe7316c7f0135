//! A tiny JSON writer, hand-written so the wasm build carries no serde: enough for objects of numbers,
//! strings, booleans and arrays.

use std::fmt::Write as _;

use crate::time::Millis;

/// The writer: values in order, separators added where they belong.
pub struct Json {
    out: String,
    first: Vec<bool>,
}

impl Default for Json {
    fn default() -> Self {
        Json::new()
    }
}

impl Json {
    pub fn new() -> Json {
        Json {
            out: String::with_capacity(4096),
            first: Vec::new(),
        }
    }

    fn sep(&mut self) {
        if let Some(first) = self.first.last_mut() {
            if !*first {
                self.out.push(',');
            }
            *first = false;
        }
    }

    pub fn key(&mut self, k: &str) -> &mut Json {
        self.sep();
        write_str(&mut self.out, k);
        self.out.push(':');
        // The value that follows must not add another separator.
        if let Some(first) = self.first.last_mut() {
            *first = true;
        }
        self
    }

    pub fn begin_obj(&mut self) -> &mut Json {
        self.sep();
        self.out.push('{');
        self.first.push(true);
        self
    }

    pub fn end_obj(&mut self) -> &mut Json {
        self.first.pop();
        self.out.push('}');
        self.mark();
        self
    }

    pub fn begin_arr(&mut self) -> &mut Json {
        self.sep();
        self.out.push('[');
        self.first.push(true);
        self
    }

    pub fn end_arr(&mut self) -> &mut Json {
        self.first.pop();
        self.out.push(']');
        self.mark();
        self
    }

    fn mark(&mut self) {
        if let Some(first) = self.first.last_mut() {
            *first = false;
        }
    }

    pub fn str(&mut self, v: &str) -> &mut Json {
        self.sep();
        write_str(&mut self.out, v);
        self
    }

    pub fn int(&mut self, v: i64) -> &mut Json {
        self.sep();
        let _ = write!(self.out, "{v}");
        self
    }

    /// Microseconds as a JSON number of milliseconds (`300`, `0.5`).
    pub fn ms(&mut self, us: u64) -> &mut Json {
        self.sep();
        let _ = write!(self.out, "{}", Millis(us));
        self
    }

    /// A number already formatted as JSON.
    pub fn raw(&mut self, v: &str) -> &mut Json {
        self.sep();
        self.out.push_str(v);
        self
    }

    pub fn bool(&mut self, v: bool) -> &mut Json {
        self.sep();
        self.out.push_str(if v { "true" } else { "false" });
        self
    }

    pub fn null(&mut self) -> &mut Json {
        self.sep();
        self.out.push_str("null");
        self
    }

    pub fn finish(self) -> String {
        self.out
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_writer_escapes_and_separates() {
        let mut j = Json::new();
        j.begin_obj();
        j.key("a").str("x\"y\n");
        j.key("b")
            .begin_arr()
            .int(1)
            .int(2)
            .begin_obj()
            .key("c")
            .bool(true)
            .end_obj()
            .end_arr();
        j.key("d").ms(1500);
        j.end_obj();
        assert_eq!(j.finish(), r#"{"a":"x\"y\n","b":[1,2,{"c":true}],"d":1.5}"#);
    }
}

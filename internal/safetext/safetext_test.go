package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		multiline bool
		want      string
	}{
		{"plain text is unchanged", "alias \"web\" has 25 characters", false, "alias \"web\" has 25 characters"},
		{"non-ASCII text is unchanged", "服务器别名 🙂", false, "服务器别名 🙂"},
		{"a screen clear", "\x1b[2J\x1b[HPASS", false, `\x1b[2J\x1b[HPASS`},
		{"an OSC title", "\x1b]0;owned\x07", false, `\x1b]0;owned\x07`},
		{"a carriage return", "FAIL\rPASS", true, `FAIL\rPASS`},
		{"NUL and DEL", "a\x00b\x7fc", false, `a\x00b\x7fc`},
		{"an invalid byte", "a\xffb\xc3", false, `a\xffb\xc3`},
		{"a C1 CSI", "a\u009b2Jb", false, `a\u009b2Jb`},
		{"a right-to-left override", "abc\u202edcba", false, `abc\u202edcba`},
		{"newlines and tabs in multiline text", "one\n\ttwo", true, "one\n\ttwo"},
		{"newlines and tabs on one line", "one\n\ttwo", false, `one\n\ttwo`},
		{"an escape after non-ASCII text", "é\x1b", true, `é\x1b`},
		{"a newline after non-ASCII text on one line", "é\n", false, `é\n`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Escape(tt.in, tt.multiline)
			if got != tt.want {
				t.Errorf("Escape(%q, %v)\n  Expected: %q\n  Actual:   %q", tt.in, tt.multiline, tt.want, got)
			}
			if !utf8.ValidString(got) {
				t.Errorf("Escape(%q) is not valid UTF-8: %q", tt.in, got)
			}
			for _, c := range []byte(got) {
				if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
					t.Errorf("Escape(%q) still holds byte %#x: %q", tt.in, c, got)
				}
			}
		})
	}
}

func TestCap(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string
	}{
		{"short text is unchanged", "hello", 5, "hello"},
		{"long text is cut with its length", "hello world", 5, "hello… [6 bytes elided; 11 in all]"},
		{"a cut never splits a character", "ab服务", 4, "ab… [6 bytes elided; 8 in all]"},
		{"empty", "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cap(tt.in, tt.n); got != tt.want {
				t.Errorf("Cap(%q, %d)\n  Expected: %q\n  Actual:   %q", tt.in, tt.n, tt.want, got)
			}
		})
	}
}

func TestCapBytes(t *testing.T) {
	b := []byte("ab服务cd")
	if got, want := CapBytes(b, 4), "ab… [8 bytes elided; 10 in all]"; got != want {
		t.Errorf("CapBytes\n  Expected: %q\n  Actual:   %q", want, got)
	}
	if got := CapBytes(b, 10); got != "ab服务cd" {
		t.Errorf("CapBytes of a short text: %q", got)
	}
}

func TestTextCapsBeforeEscaping(t *testing.T) {
	in := strings.Repeat("\x1b", 100)
	got := Text(in, 10)
	if want := strings.Repeat(`\x1b`, 10) + "… [90 bytes elided; 100 in all]"; got != want {
		t.Errorf("Text\n  Expected: %q\n  Actual:   %q", want, got)
	}
	if got := Line("a\nb", 10); got != `a\nb` {
		t.Errorf("Line kept a newline: %q", got)
	}
}

func BenchmarkEscapeClean(b *testing.B) {
	s := strings.Repeat("a clean line of evidence, nothing to escape; ", 100)
	for b.Loop() {
		Escape(s, true)
	}
}

// TestShorten: the runner's own text is cut on a character boundary with a
// bare ellipsis.
func TestShorten(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer sentence", 8, "a longer…"},
		{"日本語", 4, "日…"},
	}
	for _, tt := range tests {
		if got := Shorten(tt.in, tt.n); got != tt.want {
			t.Errorf("Shorten(%q, %d)\n  Expected: %q\n  Actual:   %q", tt.in, tt.n, tt.want, got)
		}
	}
}

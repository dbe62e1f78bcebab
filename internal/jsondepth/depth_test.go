package jsondepth

import (
	"strings"
	"testing"
)

func TestExceeds(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name  string
		text  string
		limit int
		want  bool
	}{
		{"flat", `{"a":1}`, 1, false},
		{"at the limit", nest(5), 5, false},
		{"past the limit", nest(6), 5, true},
		{"objects and arrays", `{"a":[{"b":[1]}]}`, 3, true},
		{"many, none deep", strings.Repeat("[]", 50), 5, false},
		{"brackets in a string", `["` + strings.Repeat("[", 50) + `"]`, 5, false},
		{"an escaped quote in a string", `["\"` + strings.Repeat("[", 50) + `"]`, 5, false},
		{"an escaped backslash ends the string", `["\\"` + nest(6) + `]`, 5, true},
		{"unbalanced closers", strings.Repeat("]", 20) + nest(5), 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Exceeds([]byte(tc.text), tc.limit); got != tc.want {
				t.Errorf("Exceeds(%.40q, %d) = %v, want %v", tc.text, tc.limit, got, tc.want)
			}
		})
	}
}

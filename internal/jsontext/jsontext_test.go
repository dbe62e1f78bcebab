package jsontext

import (
	"math"
	"testing"
)

func TestMarshal(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    any
		want string
		err  bool
	}{
		{"HTML characters as they are", map[string]string{"a": "<b> & c"}, `{"a":"<b> & c"}`, false},
		{"no trailing newline", []int{1, 2}, `[1,2]`, false},
		{"a string", "x\"y", `"x\"y"`, false},
		{"what json.Marshal refuses", math.Inf(1), "", true},
	} {
		got, err := Marshal(tt.v)
		if (err != nil) != tt.err || string(got) != tt.want {
			t.Errorf("%s: Marshal(%v)\nExpected: %q (error %v)\nActual:   %q (%v)", tt.name, tt.v, tt.want, tt.err, got, err)
		}
	}
}

package transcript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMatch shows what a transcript's adapter line accepts: the same JSON,
// "…" for any present value, "…?" for any value or none, and any id on a
// request the adapter sends.
func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		name, want, got, diff string // diff: "" for a match, else a part of the difference
	}{
		{"equal", `{"id":1,"result":{"a":[1,2]}}`, `{"result":{"a":[1,2]},"id":1}`, ""},
		{"another value", `{"id":1,"result":{"a":1}}`, `{"id":1,"result":{"a":2}}`, "result.a: Expected 1, Actual 2"},
		{"a missing member", `{"id":1,"result":{"a":1}}`, `{"id":1,"result":{}}`, `Expected member "a"`},
		{"an extra member", `{"id":1,"result":{}}`, `{"id":1,"result":{"b":1}}`, `Expected no member "b"`},
		{"a shorter array", `{"r":[1,2]}`, `{"r":[1]}`, "r: Expected [1,2], Actual [1]"},
		{"an element differs", `{"r":[1,2]}`, `{"r":[1,3]}`, "r[1]: Expected 2"},
		{"a wildcard takes any value", `{"r":{"name":"…"}}`, `{"r":{"name":{"x":1}}}`, ""},
		{"a wildcard needs the member", `{"r":{"name":"…"}}`, `{"r":{}}`, `Expected member "name"`},
		{"an optional wildcard, absent", `{"r":{"c":"…?"}}`, `{"r":{}}`, ""},
		{"an optional wildcard, present", `{"r":{"c":"…?"}}`, `{"r":{"c":[1]}}`, ""},
		{"the adapter's own request id", `{"id":1,"method":"host/model","params":{}}`, `{"id":"x7","method":"host/model","params":{}}`, ""},
		{"a response's id is compared", `{"id":1,"result":{}}`, `{"id":2,"result":{}}`, "id: Expected 1, Actual 2"},
		{"not JSON", `{}`, `{"a":`, "not one JSON value"},
		{"another type", `{"r":{}}`, `{"r":[]}`, "r: Expected an object, Actual []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Match(tc.want, tc.got)
			if tc.diff == "" && got != "" || tc.diff != "" && !strings.Contains(got, tc.diff) {
				t.Errorf("Match(%s, %s):\nExpected: %q\nActual:   %q", tc.want, tc.got, tc.diff, got)
			}
		})
	}
}

// TestParse shows the shape of a transcript and the errors of a bad one.
func TestParse(t *testing.T) {
	good := "prose\n-- transcript --\n# a note\n→ {\"id\":1}\n\n← {\"id\":1}\n"
	tr, err := Parse([]byte(good))
	if err != nil || tr.Comment != "prose\n" || len(tr.Lines) != 2 || tr.Lines[0].Dir != Runner || tr.Lines[1].Dir != Adapter || tr.Lines[1].Num != 4 {
		t.Fatalf("Expected: the comment and two lines, the second at line 4\nActual:   %+v, %v", tr, err)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"no exchange", "prose\n", `exactly one file, "transcript"`},
		{"two files", "-- transcript --\n-- more --\n", `exactly one file`},
		{"no direction", "-- transcript --\n{\"id\":1}\n", "line 1: starts with neither"},
		{"not JSON", "-- transcript --\n→ {\"id\":\n", "line 1: not one JSON value"},
	} {
		if _, err := Parse([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\nExpected: an error with %q\nActual:   %v", tc.name, tc.want, err)
		}
	}
}

// TestFormatKeepsWildcards shows that -update writes the adapter's lines
// but keeps the transcript's wildcards, optional ones included.
func TestFormatKeepsWildcards(t *testing.T) {
	tr, err := Parse([]byte("prose\n-- transcript --\n→ {\"id\":1,\"method\":\"initialize\"}\n← {\"id\":1,\"result\":{\"adapter\":\"…\",\"toolNames\":\"…?\"}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := tr.Format([]string{`{"result":{"adapter":{"name":"x"},"version":"1"},"id":1,"jsonrpc":"2.0"}`})
	want := "prose\n-- transcript --\n→ {\"id\":1,\"method\":\"initialize\"}\n← {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"adapter\":\"…\",\"toolNames\":\"…?\",\"version\":\"1\"}}\n"
	if err != nil || string(out) != want {
		t.Fatalf("Expected: %q\nActual:   %q, %v", want, out, err)
	}
	if _, err := tr.Format(nil); err == nil {
		t.Fatal("Expected: an error for a missing adapter line\nActual:   none")
	}
}

// adapterMode makes the test binary a scripted adapter for TestReplay.
const adapterMode = "__transcript-adapter"

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == adapterMode {
		os.Exit(scripted(os.Args[2]))
	}
	wait = 2 * time.Second // the mute adapter's case waits it out
	os.Exit(m.Run())
}

// scripted is an adapter that answers {"id":N} lines in one way:
// "echo" with {"id":N,"result":{}}, "wrong" with another result, "mute"
// not at all, "chatty" with one more message once stdin ends, "fails"
// by exiting 3 at its end, "host" by first asking the runner host/model
// with its own id 77 and answering with the runner's result.
func scripted(mode string) int {
	var id int
	for {
		if _, err := fmt.Scanf("{\"id\":%d", &id); err != nil {
			break
		}
		var rest string
		fmt.Scanln(&rest)
		switch mode {
		case "echo", "chatty", "fails":
			fmt.Printf("{\"id\":%d,\"result\":{}}\n", id)
		case "wrong":
			fmt.Printf("{\"id\":%d,\"result\":{\"x\":1}}\n", id)
		case "host":
			if id == 77 {
				fmt.Printf("{\"id\":1,\"result\":{\"answered\":true}}\n")
			} else {
				fmt.Printf("{\"id\":77,\"method\":\"host/model\",\"params\":{}}\n")
			}
		}
	}
	switch mode {
	case "chatty":
		fmt.Println(`{"method":"host/event","params":{}}`)
	case "fails":
		fmt.Fprintln(os.Stderr, "adapter: \x1b[2Jbroken")
		return 3
	}
	return 0
}

// TestReplay shows a replay that matches and each way one fails, with the
// transcript's line, Expected and Actual.
func TestReplay(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	one := "-- transcript --\n→ {\"id\":1,\"method\":\"x\"}\n← {\"id\":1,\"result\":{}}\n"
	host := "-- transcript --\n→ {\"id\":1,\"method\":\"x\"}\n← {\"id\":5,\"method\":\"host/model\",\"params\":{}}\n→ {\"id\":5,\"result\":{}}\n← {\"id\":1,\"result\":{\"answered\":true}}\n"
	for _, tc := range []struct{ mode, transcript, want string }{
		{"echo", one, ""},
		{"host", host, ""}, // the runner's answer gets the adapter's id 77
		{"wrong", one, `transcript line 2: result: Expected no member "x"`},
		{"mute", one, "transcript line 2: the adapter wrote nothing"},
		{"chatty", one, "the adapter wrote more"},
		{"fails", one, `exit status 3`},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			tr, err := Parse([]byte(tc.transcript))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Replay(context.Background(), tr, []string{exe, adapterMode, tc.mode}, t.TempDir())
			var m *Mismatch
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Expected: a match\nActual:   %v", err)
			case tc.want != "" && (!errors.As(err, &m) || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Expected: a mismatch with %q\nActual:   %v", tc.want, err)
			case tc.mode == "fails" && !strings.Contains(err.Error(), `adapter: \x1b[2Jbroken`):
				t.Fatalf("Expected: the adapter's stderr, escaped\nActual:   %v", err)
			}
		})
	}
}

package conformance

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// The events a "these happened in this order" table can name.
var (
	orderApproval  = regexp.MustCompile(`^the approval handler was asked for "([^"]*)" of "([^"]*)"$`)
	orderHandshake = regexp.MustCompile(`^"([^"]*)" received its handshake$`)
	orderLast      = regexp.MustCompile(`^"([^"]*)" received its last "([^"]*)"$`)
	orderModel     = regexp.MustCompile(`^the model received its first request$`)
	orderHook      = regexp.MustCompile(`^the "([^"]*)" hook was called for "([^"]*)"$`)
)

// eventSeq returns the sequence number of the event a table row names, or
// 0 when it never happened.
func eventSeq(rs []record.Record, text string) (int64, error) {
	first := func(match func(record.Record) bool) int64 {
		for _, r := range rs {
			if match(r) {
				return r.Seq
			}
		}
		return 0
	}
	switch {
	case orderApproval.MatchString(text):
		m := orderApproval.FindStringSubmatch(text)
		return first(func(r record.Record) bool {
			var a struct{ Name, Server string }
			_ = json.Unmarshal(r.Params, &a)
			return r.Kind == record.KindHost && r.Method == "approval" && a.Name == m[1] && a.Server == m[2]
		}), nil
	case orderHandshake.MatchString(text):
		m := orderHandshake.FindStringSubmatch(text)
		return first(func(r record.Record) bool {
			return r.Server == m[1] && r.IsRequest() && contains(handshakeMethods, r.Method)
		}), nil
	case orderLast.MatchString(text):
		m := orderLast.FindStringSubmatch(text)
		got := requestsOf(rs, m[1], m[2])
		if len(got) == 0 {
			return 0, nil
		}
		return got[len(got)-1].Seq, nil
	case orderHook.MatchString(text):
		m := orderHook.FindStringSubmatch(text)
		return first(func(r record.Record) bool {
			var h struct{ Type, Name string }
			_ = json.Unmarshal(r.Params, &h)
			return r.Kind == record.KindHost && r.Method == "hook" && h.Type == m[1] && h.Name == m[2]
		}), nil
	case orderModel.MatchString(text):
		return first(func(r record.Record) bool { return r.Kind == record.KindHost && r.Method == "model" }), nil
	}
	return 0, fmt.Errorf("the order table names an unknown event %q", text)
}

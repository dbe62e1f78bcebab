package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/servereference"
)

// parseTarget turns a --target value into a target:
//
//	reference                      the built-in reference, in-process
//	reference+mutate=M[,M...]      the reference with deliberate breakage
//	cmd:<command line>             an adapter program (spec/adapter-protocol.md)
//	file:<adapter.json>            the same, described by a file:
//	                               {"command": ["node", "a.mjs"], "env": {"K": "V"}}
func parseTarget(s string) (adapter.Target, error) {
	if line, ok := strings.CutPrefix(s, "cmd:"); ok {
		argv, err := splitCommandLine(line)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		if len(argv) == 0 {
			return nil, fmt.Errorf("%q: the command line is empty", s)
		}
		cwd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		return &rpcadapter.Target{Command: resolvePaths(argv, cwd)}, nil
	}
	if path, ok := strings.CutPrefix(s, "file:"); ok {
		return targetFile(path)
	}
	name, params, _ := strings.Cut(s, "+")
	switch name {
	case "reference":
		if params == "" {
			return refadapter.Target{}, nil
		}
		list, ok := strings.CutPrefix(params, "mutate=")
		if !ok {
			return nil, fmt.Errorf("%q: the reference takes only +mutate=FAULT[,...]", s)
		}
		t, err := referenceTarget(list)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		return t, nil
	}
	return nil, fmt.Errorf("unknown target %q: use \"reference\", \"cmd:<command line>\" or \"file:<adapter.json>\"", s)
}

// targetFile reads an adapter description.
func targetFile(path string) (adapter.Target, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Command json.RawMessage   `json:"command"`
		Env     map[string]string `json:"env"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %v (expected {\"command\": [...], \"env\": {...}})", path, err)
	}
	var argv []string
	if err := json.Unmarshal(f.Command, &argv); err != nil {
		var line string
		if json.Unmarshal(f.Command, &line) != nil {
			return nil, fmt.Errorf("%s: \"command\" must be an array of strings or a command line", path)
		}
		if argv, err = splitCommandLine(line); err != nil {
			return nil, fmt.Errorf("%s: command: %v", path, err)
		}
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("%s: \"command\" is empty", path)
	}
	// Relative paths are relative to the file, so the file can live beside
	// its adapter.
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	return &rpcadapter.Target{Command: resolvePaths(argv, dir), Env: f.Env}, nil
}

// resolvePaths makes the relative paths of an adapter's command line
// absolute against dir: the runner starts the adapter in each scenario's
// own scratch directory, where "node ./my-adapter.mjs" would find nothing.
// A word is a path when it starts with "./" or "../", when it is the
// program and holds a "/", or when it names a file that exists in dir;
// anything else ("node", "--flag", "lite-agent") is left alone.
func resolvePaths(argv []string, dir string) []string {
	out := slices.Clone(argv)
	for i, a := range out {
		if a == "" || filepath.IsAbs(a) || strings.HasPrefix(a, "-") {
			continue
		}
		p := filepath.Join(dir, a)
		explicit := strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || (i == 0 && strings.Contains(a, "/"))
		if info, err := os.Stat(p); explicit || (err == nil && info.Mode().IsRegular()) {
			out[i] = p
		}
	}
	return out
}

// splitCommandLine splits a command line into words the way a POSIX shell
// would for plain words, single quotes, double quotes and backslashes; it
// expands nothing.
func splitCommandLine(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote at byte %d", i)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// referenceTarget is the reference broken by the faults of a comma
// separated list (none when it is empty): a name that is not a fault is an
// error naming it and the faults of its rule.
func referenceTarget(list string) (refadapter.Target, error) { return servereference.Target(list) }

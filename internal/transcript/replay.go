package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/internal/tailbuf"
)

// wait bounds every wait of a replay: for each adapter line, and for the
// adapter's exit after its stdin is closed.
var wait = 15 * time.Second

// maxLine caps one message the adapter writes.
const maxLine = 1 << 20

// Mismatch is a replay that went otherwise than its transcript.
type Mismatch struct {
	Line   int    // the transcript's line
	Want   string // what the transcript says
	Got    string // what the adapter did (capped)
	Reason string // how they differ
	Stderr string // the tail of the adapter's stderr
}

func (m *Mismatch) Error() string {
	s := fmt.Sprintf("transcript line %d: %s\nExpected: %s\nActual:   %s", m.Line, m.Reason, m.Want, m.Got)
	if m.Stderr != "" {
		s += "\nadapter stderr (tail):\n" + m.Stderr
	}
	return s
}

// Replay starts the adapter command argv with its working directory dir,
// plays the transcript against it (see the package doc) with $WORKDIR
// standing for dir, and returns the adapter's lines, $WORKDIR put back,
// in order: what [Transcript.Format] takes. The error is a [*Mismatch] when
// the adapter answered otherwise than the transcript says.
func Replay(ctx context.Context, tr *Transcript, argv []string, dir string) ([]string, error) {
	return replay(ctx, tr, argv, dir, true)
}

// Record is [Replay] without comparing: it plays the runner's lines and
// collects the adapter's, for -update. It still fails when the adapter
// writes too few lines, too many, or does not exit.
func Record(ctx context.Context, tr *Transcript, argv []string, dir string) ([]string, error) {
	return replay(ctx, tr, argv, dir, false)
}

func replay(ctx context.Context, tr *Transcript, argv []string, dir string, compare bool) ([]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	stderr := tailbuf.New(2 << 10)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the adapter %q: %w", argv, err)
	}
	lines := make(chan string)
	readDone := make(chan error, 1)
	go func() { readDone <- readLines(stdout, lines, ctx.Done()) }()
	exited := make(chan error, 1)
	go func() { <-readDone; exited <- cmd.Wait() }()
	stop := func() error { // once, on the way out
		cancel()
		return <-exited
	}

	mismatch := func(line int, want, got, reason string) error {
		return &Mismatch{Line: line, Want: want, Got: got, Reason: reason, Stderr: safetext.Escape(stderr.String(), true)}
	}

	quoted, _ := json.Marshal(dir)
	inDir := strings.Trim(string(quoted), `"`)
	ids := map[string]json.RawMessage{} // the transcript's id of an adapter request -> the adapter's
	var got []string
	for _, l := range tr.Lines {
		if l.Dir == Runner {
			msg := answerID(strings.ReplaceAll(l.JSON, WorkdirVar, inDir), ids)
			if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
				_ = stop()
				return got, mismatch(l.Num, l.JSON, "the adapter's stdin is closed: "+err.Error(), "the adapter stopped reading")
			}
			continue
		}
		line, ok, timedOut := next(lines)
		if !ok {
			what := fmt.Sprintf("no message within %s", wait)
			err := stop()
			if !timedOut {
				what = fmt.Sprintf("the adapter closed its stdout (%v)", err)
			}
			return got, mismatch(l.Num, l.JSON, what, "the adapter wrote nothing")
		}
		line = strings.ReplaceAll(line, inDir, WorkdirVar)
		got = append(got, line)
		if d := Match(l.JSON, line); compare && d != "" {
			_ = stop()
			return got, mismatch(l.Num, l.JSON, safetext.Line(line, 400), d)
		}
		rememberID(l.JSON, line, ids)
	}
	_ = stdin.Close()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-lines:
			if ok {
				_ = stop()
				return got, mismatch(lastLine(tr), "no message after the transcript's last line, then exit", safetext.Line(line, 400), "the adapter wrote more")
			}
			lines = nil // all read: wait for the exit
		case err := <-exited:
			if err != nil {
				return got, mismatch(lastLine(tr), "exit status 0 once stdin is closed", err.Error(), "the adapter failed")
			}
			return got, nil
		case <-timer.C:
			_ = stop()
			return got, mismatch(lastLine(tr), "an exit once stdin is closed", fmt.Sprintf("still running after %s", wait), "the adapter did not exit")
		}
	}
}

// readLines sends every line of r to lines until r ends or done closes,
// then closes lines.
func readLines(r io.Reader, lines chan<- string, done <-chan struct{}) error {
	defer close(lines)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		select {
		case lines <- sc.Text():
		case <-done:
			return nil
		}
	}
	return sc.Err()
}

// rememberID notes the adapter's id for a request the transcript shows it
// sending.
func rememberID(want, got string, ids map[string]json.RawMessage) {
	var w, g struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal([]byte(want), &w) != nil || json.Unmarshal([]byte(got), &g) != nil {
		return
	}
	if w.Method != "" && w.ID != nil && g.ID != nil {
		ids[string(w.ID)] = g.ID
	}
}

// answerID gives a runner's answer to an adapter request the adapter's id.
func answerID(msg string, ids map[string]json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(msg), &m) != nil || m["method"] != nil || m["id"] == nil {
		return msg
	}
	id, ok := ids[string(m["id"])]
	if !ok {
		return msg
	}
	m["id"] = id
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return string(out)
}

func lastLine(tr *Transcript) int {
	if len(tr.Lines) == 0 {
		return 0
	}
	return tr.Lines[len(tr.Lines)-1].Num
}

// next waits at most wait for the adapter's next line: ok is false when
// there is none, timedOut whether the wait ran out (else stdout ended).
func next(lines <-chan string) (line string, ok, timedOut bool) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case line, ok = <-lines:
		return line, ok, false
	case <-t.C:
		return "", false, true
	}
}

package procs

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

func TestSelfAndAChild(t *testing.T) {
	me, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	if me.PID != os.Getpid() || me.PPID != os.Getppid() || !me.Running() || me.Start == 0 {
		t.Errorf("Self() = %+v; want pid %d, ppid %d, running, a start time", me, os.Getpid(), os.Getppid())
	}
	if !Alive(me.PID, me.Start) || Alive(me.PID, me.Start+1) {
		t.Errorf("Alive: this process with its start time must be alive, and with another start time not")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("sleep", "30")
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep: %v", err)
	}
	w.Close()
	defer cmd.Wait()
	defer cmd.Process.Kill()
	child, err := Stat(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if child.PPID != me.PID || child.PGID != child.PID {
		t.Errorf("the child: %+v; want ppid %d and a group of its own", child, me.PID)
	}
	if argv := Argv(child.PID); !slices.Equal(argv, []string{"sleep", "30"}) {
		t.Errorf("Argv = %q", argv)
	}
	st, _ := r.Stat()
	ino := st.Sys().(*syscall.Stat_t).Ino
	if !slices.Contains(Pipes(child.PID), ino) {
		t.Errorf("the child holds pipes %v, not its stdout %d", Pipes(child.PID), ino)
	}
	if !slices.ContainsFunc(All(), func(p Proc) bool { return p.PID == child.PID }) {
		t.Error("All() does not list the child")
	}
}

// TestCPUGrows shows that CPU counts this process's work and a waited-for
// child's.
func TestCPUGrows(t *testing.T) {
	self0, children0 := CPU()
	// Spin until this process's CPU time has grown (on a busy machine 20 ms
	// of wall time can pass unscheduled), bounded.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		if s, _ := CPU(); s > self0 {
			break
		}
	}
	if err := exec.Command("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done").Run(); err != nil {
		t.Fatal(err)
	}
	self1, children1 := CPU()
	if self1 <= self0 || children1 <= children0 {
		t.Errorf("Expected: both to grow\nActual:   self %v → %v, children %v → %v", self0, self1, children0, children1)
	}
}

// TestParseStat reads the fields the package uses, whatever the command
// holds.
func TestParseStat(t *testing.T) {
	rest := " 5 6 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 123 456\n"
	tests := []struct {
		name, line string
		want       Proc
		ok         bool
	}{
		{"plain", "42 (sleep) S 1 42" + rest, Proc{PID: 42, PPID: 1, PGID: 42, State: 'S', Start: 987654, CPU: 30 * time.Millisecond}, true},
		{"spaces and parentheses", "42 (a (b) c) R 7 9" + rest, Proc{PID: 42, PPID: 7, PGID: 9, State: 'R', Start: 987654, CPU: 30 * time.Millisecond}, true},
		{"no command", "42 sleep S 1 42", Proc{}, false},
		{"truncated", "42 (sleep) S 1 42 5 6", Proc{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStat("42", []byte(tt.line))
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parseStat(%q) = %+v, %v; want %+v, ok %v", tt.line, got, err, tt.want, tt.ok)
			}
		})
	}
}

// TestAbove lists the processes above a PID: this one above its parent's,
// not above its own.
func TestAbove(t *testing.T) {
	self := os.Getpid()
	has := func(ps []Proc) bool { return slices.ContainsFunc(ps, func(p Proc) bool { return p.PID == self }) }
	if !has(Above(0)) || has(Above(self)) {
		t.Errorf("Above(0) holds this process: %v; Above(self) does not: %v", has(Above(0)), !has(Above(self)))
	}
	if LastPID() < 1 {
		t.Errorf("LastPID() = %d", LastPID())
	}
}

// TestSpentCountsARunningChild: the CPU of a child that is still running
// is counted, which getrusage's RUSAGE_CHILDREN does only once it is
// waited for.
func TestSpentCountsARunningChild(t *testing.T) {
	spent := Spent()
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(time.Minute)
	for {
		p, err := Stat(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if p.CPU >= 100*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the child used %v of CPU in a minute", p.CPU)
		}
		runtime.Gosched()
	}
	if got := spent(); got < 100*time.Millisecond {
		t.Errorf("Spent() = %v while the child had used at least 100ms", got)
	}
}

// TestAboveStartsAtTheBound: a listing of the processes above a PID
// starts there in the kernel (seekWorks holds on Linux), lists a child
// started after the bound, and nothing at or below it.
func TestAboveStartsAtTheBound(t *testing.T) {
	if !seekWorks() {
		t.Fatal("a listing of /proc seeked to this process's PID does not start with it: Above lists every process")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep: %v", err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	child := cmd.Process.Pid
	above := Above(child - 1)
	if !slices.ContainsFunc(above, func(p Proc) bool { return p.PID == child }) {
		t.Errorf("Above(%d) does not list the child %d: %v", child-1, child, above)
	}
	for _, bound := range []int{child - 1, child, os.Getpid()} {
		for _, p := range Above(bound) {
			if p.PID <= bound {
				t.Errorf("Above(%d) lists %d", bound, p.PID)
			}
		}
	}
	if slices.ContainsFunc(Above(child), func(p Proc) bool { return p.PID == child }) {
		t.Errorf("Above(%d) lists the child itself", child)
	}
	if all := All(); !slices.ContainsFunc(all, func(p Proc) bool { return p.PID == 1 || p.PID == os.Getpid() }) {
		t.Errorf("All() lists neither init nor this process: %d processes", len(all))
	}
}

package procs

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
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

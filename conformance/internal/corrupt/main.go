package corrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
)

// Main runs the proxy as an adapter program: args are a corruption's name,
// "--" and the adapter command line it sits in front of. It relays the
// process's stdin and stdout and returns the exit code: 2 for a usage
// error, 1 when the relay failed. SIGTERM and SIGINT end the adapter's
// process group too.
func Main(args []string, stderr io.Writer) int {
	sep := slices.Index(args, "--")
	if sep != 1 || len(args) < 3 {
		fmt.Fprintln(stderr, "usage: <corruption> -- <adapter command> [args...]")
		return 2
	}
	c, ok := Lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "corrupt: no corruption %q\n", args[0])
		return 2
	}
	fmt.Fprintf(stderr, "corrupt: %s: %s\n", c.Name, c.Breaks)
	// The tally is the harness's, not the adapter's: it is not passed on.
	tally := os.Getenv(TallyEnv)
	os.Unsetenv(TallyEnv)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	p := &Proxy{Command: args[2:], Hook: c.New(), Stderr: stderr}
	err := p.Run(ctx, os.Stdin, os.Stdout)
	if tally != "" {
		writeTally(tally, p.Effects)
	}
	if err != nil {
		fmt.Fprintf(stderr, "corrupt: %v\n", err)
		return 1
	}
	return 0
}

// TallyEnv names a file to which [Main] appends, when it ends, one line
// with the number of messages its corruption changed ([Proxy.Effects]):
// how a test tells a corruption that survived the scenarios it changed
// from one that never had a chance to show.
const TallyEnv = "MCPCONFORM_CORRUPT_TALLY"

// writeTally appends one line with n to the tally file, in one write.
func writeTally(path string, n int) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = fmt.Fprintf(f, "%d\n", n)
}

//go:build !linux

package scratch

// isTmpfs reports whether dir is on a tmpfs: never, off Linux.
func isTmpfs(string) bool { return false }

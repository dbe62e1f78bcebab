//go:build !linux

package scratch

// ramFit reports whether dir is a RAM file system fit for scratch
// directories: only Linux's tmpfs is recognised.
func ramFit(dir string, free uint64) bool { return false }

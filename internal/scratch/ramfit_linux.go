package scratch

import "golang.org/x/sys/unix"

// ramFit reports whether dir is a tmpfs that this process can write and
// run programs from, with at least free bytes available.
func ramFit(dir string, free uint64) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return false
	}
	if st.Type != unix.TMPFS_MAGIC || st.Flags&(unix.ST_NOEXEC|unix.ST_RDONLY) != 0 {
		return false
	}
	if st.Bavail*uint64(st.Bsize) < free {
		return false
	}
	return unix.Access(dir, unix.W_OK|unix.X_OK) == nil
}

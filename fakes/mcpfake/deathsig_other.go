//go:build !linux

package mcpfake

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal; the record connection's watchdog remains.
func setParentDeathSignal() {}

package conformance

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one part of a run split over several machines (a CI job
// matrix): scenario IDs are hashed, so every scenario falls in exactly one
// of Count shards, the same one on every machine and in every run, and a
// scenario added to the suite moves no other. Index counts from 1; the
// zero Shard is the whole selection.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n", e.g. "2/3".
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, &UsageError{Msg: fmt.Sprintf("the shard %q is not i/n, e.g. 2/3", s)}
	}
	sh := Shard{Index: index, Count: count}
	return sh, sh.check()
}

// check validates a shard.
func (s Shard) check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Count > 1000 || s.Index < 1 || s.Index > s.Count {
		return &UsageError{Msg: fmt.Sprintf("the shard %d/%d is out of range: i/n with 1 <= i <= n <= 1000", s.Index, s.Count)}
	}
	return nil
}

// has reports whether the scenario with that ID is in the shard.
func (s Shard) has(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32()%uint32(s.Count)) == s.Index-1
}

// String is "i/n", or "" for the whole selection.
func (s Shard) String() string {
	if s == (Shard{}) {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

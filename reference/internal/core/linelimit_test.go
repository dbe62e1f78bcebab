package core

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// chunks is a reader that hands out its data in the given sizes.
type chunks struct {
	data  []byte
	sizes []int
}

func (c *chunks) Read(b []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(c.data), len(b))
	if len(c.sizes) > 0 {
		n = min(n, c.sizes[0])
		c.sizes = c.sizes[1:]
	}
	copy(b, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// TestLineLimitTripsAtTheFirstBytePastTheLimit: lineLimit passes every
// byte of lines of at most max bytes and stops exactly before the first
// byte past max of a longer line (LA-LIM-06), whatever the reads' sizes:
// it agrees with a byte-by-byte count on random lines and chunkings.
func TestLineLimitTripsAtTheFirstBytePastTheLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		max := 1 + rng.IntN(40)
		var data []byte
		for range 1 + rng.IntN(6) {
			data = append(data, bytes.Repeat([]byte{'x'}, rng.IntN(max+3))...)
			if rng.IntN(4) > 0 {
				data = append(data, '\n')
			}
		}
		// What a byte-by-byte count passes before it trips, if it does.
		want, trips, cur := len(data), false, 0
		for i, c := range data {
			if c == '\n' {
				cur = 0
				continue
			}
			if cur++; cur > max {
				want, trips = i, true
				break
			}
		}
		var sizes []int
		for range 20 {
			sizes = append(sizes, 1+rng.IntN(12))
		}
		l := &lineLimit{r: &chunks{data: data, sizes: sizes}, max: max}
		var got []byte
		buf := make([]byte, 64)
		var err error
		for {
			var n int
			n, err = l.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if !bytes.Equal(got, data[:want]) || errors.Is(err, errLineTooLong) != trips || l.tripped.Load() != trips {
			t.Fatalf("round %d, max %d, data %q: passed %q (err %v, tripped %v); want %q, tripped %v",
				round, max, data, got, err, l.tripped.Load(), data[:want], trips)
		}
	}
}

// Package fakes holds the digest of the sources of what a fake process
// runs: packages mcpfake, record and internal/waits. The runner and a
// mcpconform-fake binary beside it compare theirs ([mcpfake.Dispatch]
// answers DigestSubcommand with it), so that the runner hands
// implementations the small binary only when it runs the very fakes the
// runner's own binary would.
package fakes

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"strconv"
	"sync"
)

//go:embed mcpfake/*.go record/*.go internal/waits/*.go
var sources embed.FS

// Digest is the SHA-256, in hex, of the fakes' sources: every file's path,
// length and bytes, in lexical order of the paths.
var Digest = sync.OnceValue(func() string {
	h := sha256.New()
	_ = fs.WalkDir(sources, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := sources.ReadFile(path)
		if err != nil {
			return err
		}
		h.Write([]byte(path + "\x00" + strconv.Itoa(len(data)) + "\x00"))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
})

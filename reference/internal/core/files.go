package core

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// ProjectConfigPath returns the project configuration file of workdir:
// <workdir>/.lite-agent/mcps.json (LA-CFG-02).
func ProjectConfigPath(workdir string) string {
	return filepath.Join(workdir, ".lite-agent", "mcps.json")
}

// GlobalConfigPath returns the global configuration file of home, the
// lite-agent <home> directory: <home>/mcps.json (LA-CFG-03).
func GlobalConfigPath(home string) string {
	return filepath.Join(home, "mcps.json")
}

// readConfigFile reads and decodes one mcps.json. A missing file declares
// nothing; a file over [MaxConfigFileBytes] is refused without being read
// further (LA-LIM-05).
func (d *decoder) readConfigFile(path string) ([]NamedServer, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Kind: KindConfig, Rule: "LA-CFG-10", Source: path, Msg: "cannot open the configuration file", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, &Error{Kind: KindConfig, Rule: "LA-CFG-10", Source: path, Msg: "cannot read the configuration file", Err: err}
	}
	if !info.Mode().IsRegular() {
		return nil, &Error{Kind: KindConfig, Rule: "LA-CFG-10", Source: path, Msg: fmt.Sprintf("is not a regular file (%v)", info.Mode().Type())}
	}
	limit := int64(MaxConfigFileBytes)
	// LA-LIM-05: at most 256 KiB per configuration file.
	if d.faults.Has(fault.ConfigFileLimit) {
		limit++
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &Error{Kind: KindConfig, Rule: "LA-CFG-10", Source: path, Msg: "cannot read the configuration file", Err: err}
	}
	if int64(len(data)) > limit {
		size := info.Size()
		if size < int64(len(data)) {
			size = int64(len(data))
		}
		return nil, &Error{Kind: KindLimit, Rule: "LA-LIM-05", Source: path, Msg: fmt.Sprintf("the file has %d bytes; a configuration file may have at most %d (256 KiB)", size, MaxConfigFileBytes)}
	}
	d.source = path
	return d.file(data)
}

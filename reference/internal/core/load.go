package core

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// loadConfig reads the global file, the project file and the mcpServers
// option, validates every entry and merges them into one registry
// (LA-REG-01..04). It starts nothing.
func (a *Host) loadConfig() ([]*server, error) {
	d := decoder{faults: a.faults, environ: a.opts.Environ}
	var declared []*server
	add := func(source Source, where string, list []NamedServer) {
		for _, ns := range list {
			declared = append(declared, &server{name: ns.Name, cfg: ns.Config, source: source, where: where, status: StatusConfigured})
		}
	}
	// LA-CFG-15: strictMcpConfig leaves both files unread.
	if !a.opts.StrictMCPConfig || a.faults.Has(fault.IgnoreStrict) {
		if a.opts.Home != "" {
			path := GlobalConfigPath(a.opts.Home)
			list, err := d.readConfigFile(path)
			if err != nil {
				return nil, err
			}
			add(SourceGlobal, path, list)
		}
		// LA-CFG-02: the project file is <workdir>/.lite-agent/mcps.json.
		if !a.faults.Has(fault.ProjectFile) {
			path := ProjectConfigPath(a.opts.Workdir)
			list, err := d.readConfigFile(path)
			if err != nil {
				return nil, err
			}
			add(SourceProject, path, list)
		}
		// LA-CFG-05: Claude's .mcp.json is not a source.
		if a.faults.Has(fault.ReadDotMCPJSON) {
			path := filepath.Join(a.opts.Workdir, ".mcp.json")
			list, err := d.readConfigFile(path)
			if err != nil {
				return nil, err
			}
			add(SourceProject, path, list)
		}
	}
	// LA-REG-02: the option's servers merge with the files'.
	if len(a.opts.MCPServers) > 0 && a.faults.Has(fault.OptionReplacesFiles) {
		declared = nil
	}
	option := a.opts.MCPServers
	// LA-CFG-08: values are used literally, never interpolated.
	if a.faults.Has(fault.Interpolate) {
		option = slices.Clone(option)
		for i := range option {
			option[i].Config = interpolate(option[i].Config, a.opts.Environ)
		}
	}
	add(SourceOption, "mcpServers option", option)

	// LA-CFG-10: every entry is validated at construction.
	if !a.faults.Has(fault.LateValidation) {
		for _, s := range declared {
			// LA-REG-01: the option's entries are validated like the files'.
			if s.source == SourceOption && a.faults.Has(fault.OptionUnvalidated) {
				continue
			}
			if err := a.validateServer(s.name, &s.cfg, s.where, "mcpServers."+s.name); err != nil {
				return nil, err
			}
		}
	}
	return a.merge(declared)
}

// merge folds declarations into one registry: distinct names are merged,
// entries equal after normalization are kept once (the first declaration
// wins), and the same name with a different entry is an error (LA-REG-02..04).
func (a *Host) merge(declared []*server) ([]*server, error) {
	var merged []*server
	byName := map[string]int{}
	for _, s := range declared {
		i, dup := byName[s.name]
		if !dup {
			byName[s.name] = len(merged)
			merged = append(merged, s)
			continue
		}
		prev := merged[i]
		same := prev.cfg.equivalent(s.cfg)
		// LA-REG-03: entries equal after normalization are one.
		if a.faults.Has(fault.NoNormalization) {
			same = prev.cfg.literalEqual(s.cfg)
		}
		switch {
		case same:
		case a.faults.Has(fault.LaterSourceWins): // LA-REG-04: the same name with another entry is an error
			merged[i] = s
		default:
			return nil, &Error{Kind: KindConflict, Rule: "LA-REG-04", Source: s.where, Field: "mcpServers." + s.name,
				Msg: fmt.Sprintf("server %q is already declared differently in %s; the same name must not be declared with different entries", s.name, prev.where)}
		}
	}
	limit := MaxServers
	// LA-LIM-01: at most 32 servers.
	if a.faults.Has(fault.ServerLimit) {
		limit++
	}
	if len(merged) > limit {
		return nil, &Error{Kind: KindLimit, Rule: "LA-LIM-01", Source: merged[limit].where, Field: "mcpServers." + merged[limit].name,
			Msg: fmt.Sprintf("%d servers are declared; at most %d are allowed", len(merged), MaxServers)}
	}
	return merged, nil
}

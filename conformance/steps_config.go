package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Steps that build the agent's configuration: files, the mcpServers option,
// other agent options and the host's environment.

// registerConfigSteps defines the steps whose methods are in this file.
func (w *world) registerConfigSteps(sc stepDefiner) {
	sc.Step(`^(the project configuration|the global configuration|the mcpServers option) declares "([^"]*)"(?: as "([^"]*)")?$`, w.declares)
	sc.Step(`^(the project configuration|the global configuration|the mcpServers option) declares "([a-z]+)(\d+)" to "([a-z]+)(\d+)"$`, w.declaresRange)
	sc.Step(`^the (project|global) configuration declares "([^"]*)" padded to (\d+) bytes$`, w.declaresPadded)
	sc.Step(`^the (project|global) configuration file contains:$`, w.fileContains)
	sc.Step(`^the mcpServers option contains:$`, w.optionContains)
	sc.Step(`^the file "([^"]*)" (?:now )?declares "([^"]*)"$`, w.fileDeclares)
	sc.Step(`^the file "([^"]*)" declares nothing$`, w.fileDeclaresNothing)
	sc.Step(`^the (project|global) configuration file is deleted$`, w.configDeleted)
	sc.Step(`^the lite-agent home is "([^"]*)"$`, w.liteAgentHome)
	sc.Step(`^the agent option strictMcpConfig is true$`, w.strictMCPConfig)
	sc.Step(`^the host environment has "([^"]*)" set to "([^"]*)"$`, w.hostEnv)
	sc.Step(`^the model calls "([^"]*)" with (\{.*\})$`, w.modelCalls)
	sc.Step(`^the model then answers "([^"]*)"$`, w.modelAnswers)
	sc.Step(`^the (project|global) configuration file is unchanged$`, w.fileUnchanged)
	sc.Step(`^no other file appeared under "([^"]*)"$`, w.noOtherFile)
}

// configState is the slice of the world this file's steps own: the configuration files, the mcpServers option, and the files as written.
type configState struct {
	project   *configFile
	global    *configFile
	option    *optionConfig
	snapshots map[string]fileState // configuration files as written
}

// Sources through which a server can be declared.
const (
	srcProject  = "the project configuration"
	srcGlobal   = "the global configuration"
	srcOption   = "the mcpServers option"
	srcRegister = "register()"
)

// addEntry declares an entry through a configuration source.
func (w *world) addEntry(source, alias string, entry json.RawMessage) error {
	e := namedEntry{alias: alias, entry: entry}
	switch source {
	case srcProject:
		w.project.entries = append(w.project.entries, e)
	case srcGlobal:
		w.global.entries = append(w.global.entries, e)
	case srcOption:
		w.option.entries = append(w.option.entries, e)
	default:
		return fmt.Errorf("unknown configuration source %q", source)
	}
	return nil
}

// declares: Given the project configuration declares "p" [as "alias"]
func (w *world) declares(source, name, alias string) error {
	if alias == "" {
		alias = name
	}
	e, err := w.entry(name)
	if err != nil {
		return err
	}
	return w.addEntry(source, alias, e)
}

// declaresRange: Given the mcpServers option declares "s1" to "s16"
func (w *world) declaresRange(source, prefix string, from int, prefix2 string, to int) error {
	if prefix != prefix2 || from > to {
		return fmt.Errorf("a range of servers needs one prefix and from <= to")
	}
	for i := from; i <= to; i++ {
		if err := w.declares(source, fmt.Sprintf("%s%d", prefix, i), ""); err != nil {
			return err
		}
	}
	return nil
}

// declaresPadded: Given the project configuration declares "p" padded to 262144 bytes
func (w *world) declaresPadded(which, name string, size int) error {
	f := w.project
	if which == "global" {
		f = w.global
	}
	f.padTo = size
	return w.declares("the "+which+" configuration", name, "")
}

// fileContains: Given the project configuration file contains: """..."""
func (w *world) fileContains(which string, doc *godog.DocString) error {
	text := doc.Content
	if which == "global" {
		w.global.raw = &text
	} else {
		w.project.raw = &text
	}
	return nil
}

// optionContains: Given the mcpServers option contains: """..."""
func (w *world) optionContains(doc *godog.DocString) error {
	text := doc.Content
	w.option.raw = &text
	return nil
}

// fileDeclares: Given the file "~/mcps.json" declares "g" — written at once.
func (w *world) fileDeclares(path, name string) error {
	p, err := w.resolvePath(path)
	if err != nil {
		return err
	}
	var entries []namedEntry
	if name != "" {
		e, err := w.entry(name)
		if err != nil {
			return err
		}
		entries = []namedEntry{{alias: name, entry: e}}
	}
	if entries == nil {
		entries = []namedEntry{}
	}
	return w.writeFile(p, append(append([]byte(`{"mcpServers": `), objectOf(entries)...), '}'))
}

// fileDeclaresNothing: Given the file "~/.lite-agent/mcps.json" declares nothing
func (w *world) fileDeclaresNothing(path string) error { return w.fileDeclares(path, "") }

// configDeleted: When the global configuration file is deleted
func (w *world) configDeleted(which string) error {
	f := w.project
	if which == "global" {
		f = w.global
	}
	if err := os.Remove(f.path); err != nil {
		return fmt.Errorf("deleting %s: %w", f.path, err)
	}
	return nil
}

// liteAgentHome: Given the lite-agent home is "~/custom-home"
func (w *world) liteAgentHome(path string) error {
	p, err := w.resolvePath(path)
	if err != nil {
		return err
	}
	w.opts.Home = p
	return nil
}

// strictMCPConfig: Given the agent option strictMcpConfig is true
func (w *world) strictMCPConfig() error {
	w.opts.StrictMCPConfig = true
	return nil
}

// hostEnv: Given the host environment has "X" set to "v"
func (w *world) hostEnv(key, value string) error {
	if w.adapter != nil {
		return fmt.Errorf("the host environment must be set before the agent is created")
	}
	w.environ = append(w.environ, key+"="+value)
	w.plantedEnv = append(w.plantedEnv, key+"="+value)
	return nil
}

// modelAnswers: Given the model then answers "done" — a turn of final
// text, which ends the run it falls in.
func (w *world) modelAnswers(text string) error {
	w.host.script(adapter.ModelResponse{Text: text})
	return nil
}

// modelCalls: Given the model calls "mcp__docs__search" with {"q":"x"}
func (w *world) modelCalls(tool, args string) error {
	a, err := rawJSON(args)
	if err != nil {
		return err
	}
	id := w.nextCallID("call")
	w.host.script(adapter.ModelResponse{ToolCalls: []adapter.ToolCall{{ID: id, Name: tool, Arguments: a}}})
	return nil
}

// fileUnchanged: Then the project configuration file is unchanged
func (w *world) fileUnchanged(which string) error {
	f := w.project
	if which == "global" {
		f = w.global
	}
	before, ok := w.snapshots[f.path]
	if !ok {
		return fmt.Errorf("the %s configuration file was never written by the scenario", which)
	}
	now, err := stateOf(f.path)
	return w.expect(err == nil && now == before, fmt.Sprintf("%s is byte-for-byte unchanged, same mtime", f.path), "err=%v changed=%v", err, now != before)
}

// noOtherFile: Then no other file appeared under ".lite-agent"
func (w *world) noOtherFile(dir string) error {
	var found []string
	for _, root := range []string{w.workdir, w.home} {
		files, err := filesUnder(filepath.Join(root, dir))
		if err != nil {
			return err
		}
		for _, f := range files {
			if _, known := w.snapshots[f]; !known {
				found = append(found, f)
			}
		}
	}
	return w.expect(len(found) == 0, "no new file under "+dir, "%v", found)
}

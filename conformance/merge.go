package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// maxReportBytes bounds a report file read back (merge, rerun, baseline
// write, the HTML matrix): a full report is a few MiB.
const maxReportBytes = 256 << 20

// ReadReport reads a report.json.
func ReadReport(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxReportBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes; is it a report?", path, maxReportBytes)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a report.json: %w", path, err)
	}
	if r.Schema != 1 {
		return nil, fmt.Errorf("%s: report schema %d; this mcpconform reads schema 1", path, r.Schema)
	}
	return &r, nil
}

// MergeReports joins the reports of the shards of one run into the report
// the whole run would have made: the same target, every scenario once, in
// the suite's order, counted again (with the baseline, when given, so that
// an entry is stale only if its scenarios passed in every shard).
func MergeReports(reps []*Report, b *Baseline, strict bool) (*Report, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("no report to merge")
	}
	first := reps[0]
	out := &Report{Schema: 1, Tool: first.Tool, Target: first.Target, Strict: strict, baseline: b}
	seen := map[string]bool{}
	for i, r := range reps {
		if r.Target.Name != first.Target.Name || r.Target.Version != first.Target.Version || r.Tool.Version != first.Tool.Version {
			return nil, fmt.Errorf("report %d is of %s %s (mcpconform %s), report 1 of %s %s (mcpconform %s): only shards of one run merge",
				i+1, r.Target.Name, r.Target.Version, r.Tool.Version, first.Target.Name, first.Target.Version, first.Tool.Version)
		}
		for _, s := range r.Scenarios {
			if seen[s.ID] {
				return nil, fmt.Errorf("report %d has the scenario %s a second time: were two reports of the same shard given?", i+1, s.ID)
			}
			seen[s.ID] = true
			out.Scenarios = append(out.Scenarios, s)
		}
	}
	order := map[string]int{}
	if all, err := Scenarios(); err == nil {
		for i, s := range all {
			order[s.ID] = i
		}
	}
	slices.SortStableFunc(out.Scenarios, func(a, b ScenarioResult) int {
		ia, oka := order[a.ID]
		ib, okb := order[b.ID]
		switch {
		case oka && okb:
			return ia - ib
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	out.count()
	return out, nil
}

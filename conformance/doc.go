// Package conformance runs the mcpconform suite: the Gherkin scenarios
// that encode the documented rules of lite-agent and Blade, against an
// implementation reached through an [adapter.Target], and the reports
// (JSON, JUnit, Markdown, HTML, text) of a run.
//
// A Go program runs the suite with [Run]. The scenarios hand the
// implementation under test commands to spawn for its stdio servers;
// those fakes are served by the mcpconform-fake binary beside the running
// executable when it comes from the same build, and otherwise by the
// running executable itself, which must call [mcpfake.Main] first. In a
// test binary:
//
//	func TestMain(m *testing.M) {
//		mcpfake.Main() // restarted with a fake's subcommand, this binary is that fake
//		os.Exit(m.Run())
//	}
//
//	func TestConforms(t *testing.T) {
//		rep, err := conformance.Run(context.Background(), conformance.Options{Target: myTarget{}, T: t})
//		...
//	}
//
// [Run] refuses to start, saying what to do, when neither serves them.
// Package refadapter is the worked example of a Target; package rpcadapter
// reaches an implementation in another language over the adapter protocol
// (spec/adapter-protocol.md).
package conformance

package oauth

import "testing"

// BenchmarkLogin times a host's whole login against the fake, over plain
// HTTP and over TLS (connections kept alive, as a host's client keeps
// them), for the shapes of server the official client meets: the mount's
// 401, protected resource metadata and authorization server metadata where
// the shape serves them (found in the official client's order), dynamic
// registration, the authorization with PKCE, the callback checks and the
// code exchange. It reports the metadata requests each login makes
// (discovery-req/op).
func BenchmarkLogin(b *testing.B) {
	for _, tc := range []struct {
		name string
		cfg  envConfig
	}{
		{"http", envConfig{}},
		{"https", envConfig{tls: true}},
		{"http/root-metadata-bare-challenge", envConfig{resource: ResourceOptions{MetadataAt: MetadataRoot, BareChallenge: true}}},
		{"http/openid-root", envConfig{shape: Shape{Metadata: MetadataOpenID}}},
		{"http/path-issuer-openid-appended", envConfig{shape: Shape{IssuerPath: "/tenant", Metadata: MetadataOpenIDAppended}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			e := newEnv(b, tc.cfg)
			c := ctx(b)
			requests := 0
			for b.Loop() {
				l := e.newLogin(c)
				l.run(b)
				requests += l.discovery
			}
			b.ReportMetric(float64(requests)/float64(b.N), "discovery-req/op")
		})
	}
}

package oauth

import "testing"

// BenchmarkLogin times a host's whole login against the fake, over plain
// HTTP and over TLS (connections kept alive, as a host's client keeps
// them): the mount's 401, protected resource metadata, authorization
// server metadata, dynamic registration, the authorization with PKCE, the
// callback checks and the code exchange.
func BenchmarkLogin(b *testing.B) {
	for _, tc := range []struct {
		name string
		tls  bool
	}{{"http", false}, {"https", true}} {
		b.Run(tc.name, func(b *testing.B) {
			e := newEnv(b, envConfig{tls: tc.tls})
			c := ctx(b)
			for b.Loop() {
				e.newLogin(c).run(b)
			}
		})
	}
}

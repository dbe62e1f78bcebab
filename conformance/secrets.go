package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// The secret sweep: every secret a scenario plants is searched in every
// surface the implementation shows its host. Planting is all a scenario
// does to be covered: the sweep finds the secrets in what the world handed
// the implementation and in what the fakes and the host recorded.
//
// A secret's legitimate sinks are never host surfaces: a header reaches
// its own server, an env value its own child, a token the provider's
// storage and the resource server, an authorization URL the host's
// authorize(). So the sweep only looks where a secret never belongs:
// list() entries (after the agent is created, after every register() and
// at the end), approval requests, permission callbacks, events, hooks,
// the errors of every operation, model requests, the implementation's logs
// and console, Blade statuses and tool lists.

// minSecret is the shortest value the sweep treats as a secret: shorter
// values ("1", "warn") would be found by chance.
const minSecret = 6

// secret is one planted value that must never be shown to the host.
type secret struct {
	value string
	what  string // what it is and where it was planted
	rule  string // the rule that keeps it from the host
}

// plantedSecrets gathers every secret of the world.
func (w *world) plantedSecrets() []secret {
	var out []secret
	seen := map[string]bool{}
	add := func(value, what, rule string) {
		if len(value) < minSecret || seen[value] {
			return
		}
		seen[value] = true
		out = append(out, secret{value: value, what: what, rule: rule})
	}
	// A header or env value that the configuration also uses where
	// credentials do not belong (an argument, a URL) is no secret of the
	// scenario's: the literal "${X}" of LA-CFG-08 is both.
	_, configs, _, _ := w.obs.snapshot()
	var creds []credential
	var plain []string
	for _, text := range configs {
		c, p := credentialsIn(text)
		creds, plain = append(creds, c...), append(plain, p...)
	}
	for _, c := range creds {
		if !slices.ContainsFunc(plain, func(p string) bool { return strings.Contains(p, c.value) }) {
			add(c.value, c.what, "LA-REG-11")
		}
	}
	for _, kv := range w.plantedEnv {
		k, v, _ := strings.Cut(kv, "=")
		add(v, fmt.Sprintf("the host environment variable %s", k), "LA-SEC-16")
	}
	for _, name := range sortedKeys(w.fakes) {
		if t := w.fakes[name].script.StderrText; t != "" {
			add(t, fmt.Sprintf("the stderr text of %q", name), "LA-SEC-19")
		}
	}
	for _, name := range sortedKeys(w.authServers) {
		as := w.authServers[name]
		if d := as.faults.ErrorDescription; d != "" {
			add(d, fmt.Sprintf("the error_description of %q", name), "LA-OAU-30")
		}
		for _, c := range as.clients {
			add(c[1], fmt.Sprintf("the client secret of %q registered at %q", c[0], name), "LA-OAU-29")
		}
	}
	for _, name := range sortedKeys(w.bindings) {
		if cc := w.bindings[name].cc; cc != nil {
			add(cc.ClientSecret, fmt.Sprintf("the client secret of the binding %q", name), "LA-OAU-29")
		}
	}
	for _, tok := range w.minted {
		add(tok, "an access token the host's provider held", "LA-OAU-29")
	}
	for _, s := range oauthSecrets(w.log.Records()) {
		add(s.value, s.what, s.rule)
	}
	return out
}

// oauthSecrets are the secrets of the logins the host saw: what the
// implementation saved in its provider, the codes of the callbacks and
// the authorization URLs with their state and code challenge.
func oauthSecrets(rs []record.Record) []secret {
	var out []secret
	add := func(v, what string) { out = append(out, secret{value: v, what: what, rule: "LA-OAU-29"}) }
	for _, r := range rs {
		if r.Kind != record.KindHost {
			continue
		}
		switch r.Method {
		case "provider":
			var c adapter.ProviderCall
			_ = json.Unmarshal(r.Params, &c)
			switch c.Method {
			case "saveTokens":
				var t struct {
					Access  string `json:"access_token"`
					Refresh string `json:"refresh_token"`
				}
				_ = json.Unmarshal(c.Value, &t)
				add(t.Access, "an access token the implementation saved")
				add(t.Refresh, "a refresh token the implementation saved")
			case "saveCodeVerifier":
				var v string
				_ = json.Unmarshal(c.Value, &v)
				add(v, "a PKCE code verifier")
			case "saveClientInformation":
				var ci struct {
					Secret string `json:"client_secret"`
				}
				_ = json.Unmarshal(c.Value, &ci)
				add(ci.Secret, "a client secret from dynamic registration")
			}
		case "authorize-returned", "authorize-held":
			var cb struct{ Callback string }
			_ = json.Unmarshal(r.Params, &cb)
			if u, err := url.Parse(cb.Callback); err == nil {
				add(u.Query().Get("code"), "an authorization code")
			}
		case "authorize":
			var req adapter.AuthorizeRequest
			_ = json.Unmarshal(r.Params, &req)
			add(req.URL, "an authorization URL")
			if u, err := url.Parse(req.URL); err == nil {
				add(u.Query().Get("state"), "the state of an authorization URL")
				add(u.Query().Get("code_challenge"), "the code challenge of an authorization URL")
			}
		}
	}
	return out
}

// credential is a header or env value of a server entry.
type credential struct{ value, what string }

// credentialsIn returns the header and env values of the server entries
// in a configuration text (a whole file, the mcpServers option or one
// entry), and every other string of it (commands, arguments, URLs). Text
// that is not JSON plants nothing.
func credentialsIn(text string) (creds []credential, plain []string) {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil, nil
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if m, ok := x[k].(map[string]any); ok && (k == "headers" || k == "env") {
					for _, name := range sortedKeys(m) {
						if s, ok := m[name].(string); ok {
							creds = append(creds, credential{value: s, what: fmt.Sprintf("the %s value %s of %s", strings.TrimSuffix(k, "s"), name, strings.TrimPrefix(path+"."+k, "."))})
						}
					}
					continue
				}
				walk(x[k], path+"."+k)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s[%d]", path, i))
			}
		case string:
			plain = append(plain, x)
		}
	}
	walk(v, "")
	return creds, plain
}

// secretSweep returns a finding for every planted secret found on a host
// surface.
func (w *world) secretSweep(surfaces []surface) []finding {
	return sweep(surfaces, w.plantedSecrets())
}

// sweep returns a finding for every secret found on one of the surfaces,
// as it is or JSON-escaped.
func sweep(surfaces []surface, secrets []secret) []finding {
	if len(secrets) == 0 {
		return nil
	}
	texts := make([][]byte, len(surfaces))
	for i, sf := range surfaces {
		texts[i] = sf.content()
	}
	var out []finding
	for _, s := range secrets {
		forms := []string{s.value}
		if q, _ := json.Marshal(s.value); string(q[1:len(q)-1]) != s.value {
			forms = append(forms, string(q[1:len(q)-1]))
		}
		for k, sf := range surfaces {
			text := texts[k]
			if i := indexAny(text, forms); i >= 0 {
				out = append(out, finding{
					invariant: "no secret on a host surface", rule: s.rule,
					expected: fmt.Sprintf("%s never shown to the host", s.what),
					actual:   fmt.Sprintf("it is in %s: %s", sf.where, excerpt(text, i, len(s.value))),
				})
				break
			}
		}
	}
	return out
}

// surfacesNow returns every surface the implementation has shown its host
// so far, with a list() and its logs taken now, for a Then step that
// sweeps in the middle of a scenario.
func (w *world) surfacesNow(ctx context.Context) ([]surface, error) {
	if w.agent != nil && w.info.Implements(adapter.OpList) {
		if _, err := w.list(ctx); err != nil {
			return nil, err
		}
	}
	if w.agent != nil && w.info.Supports(adapter.CapLogSinks) && w.info.Implements(adapter.OpLogs) {
		sctx, cancel := w.stepCtx(ctx)
		defer cancel()
		if _, err := w.agent.Logs(sctx); err != nil {
			return nil, fmt.Errorf("agent/logs: %w", err)
		}
	}
	surfaces, _, _, _ := w.obs.snapshot()
	surfaces = append(surfaces, hostSurfaces(w.log.Records())...)
	return append(surfaces, w.console()...), nil
}

// console is what the implementation printed on its console, as a
// surface, when the adapter captures it.
func (w *world) console() []surface {
	if c, ok := w.adapter.(adapter.Console); ok {
		if out := c.Console(); out != "" {
			return []surface{{where: "the implementation's console (the adapter's stderr)", text: out}}
		}
	}
	return nil
}

// hostSurfaces are the host callbacks that show the host something, as
// surfaces: approvals, permission callbacks, events, hooks and model
// requests.
func hostSurfaces(rs []record.Record) []surface {
	var out []surface
	n := map[string]int{}
	for _, r := range rs {
		if r.Kind != record.KindHost {
			continue
		}
		label := map[string]string{"approval": "approval request", "permission": "permission callback", "event": "event", "hook": "hook", "model": "model request", "validate": "validate() call", "execute": "execute() call"}[r.Method]
		if label == "" {
			continue
		}
		n[label]++
		out = append(out, surface{where: fmt.Sprintf("%s %d", label, n[label]), raw: r.Params})
	}
	return out
}

// indexAny is the first index of any of forms in s, or -1.
func indexAny(s []byte, forms []string) int {
	for _, f := range forms {
		if i := bytes.Index(s, []byte(f)); i >= 0 {
			return i
		}
	}
	return -1
}

// excerpt shows where a secret was found, with the secret itself masked:
// the report must not spread it further.
func excerpt(s []byte, i, n int) string {
	from, to := max(i-60, 0), min(i+n+60, len(s))
	return quoteShown(string(s[from:i]) + "<the secret>" + string(s[i+n:to]))
}

// quoteShown quotes text from the implementation for a report: control
// characters escaped, at most 240 bytes.
func quoteShown(s string) string {
	return safetext.Cap(strings.Trim(fmt.Sprintf("%q", s), `"`), 240)
}

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

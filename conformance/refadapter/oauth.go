package refadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/reference"
)

// oauthOptions translates the mcpOAuth option. Bindings that name the
// same provider get the same provider object, as a host passing one object
// twice would.
func oauthOptions(bindings map[string]adapter.OAuthBinding, host adapter.Host) (map[string]reference.OAuthConfig, error) {
	if len(bindings) == 0 {
		return nil, nil
	}
	providers := map[string]*hostProvider{}
	out := map[string]reference.OAuthConfig{}
	for name, b := range bindings {
		c := reference.OAuthConfig{ServerURL: b.ServerURL, AllowedOrigins: b.AllowedOrigins}
		if b.Provider != "" {
			p := providers[b.Provider]
			if p == nil {
				p = &hostProvider{host: host, name: b.Provider}
				providers[b.Provider] = p
			}
			c.Provider = p
		}
		if cc := b.ClientCredentials; cc != nil {
			c.ClientCredentials = &reference.ClientCredentials{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret, ExpectedIssuer: cc.ExpectedIssuer}
		}
		if b.Authorize {
			server := name
			c.Authorize = func(ctx context.Context, url string) (string, error) {
				return host.Authorize(ctx, adapter.AuthorizeRequest{Server: server, URL: url})
			}
		}
		if len(b.TimeoutMs) > 0 {
			v, err := timeoutValue(b.TimeoutMs)
			if err != nil {
				return nil, adapter.Errorf(adapter.KindConfig, "mcpOAuth.%s.timeoutMs: %v", name, err)
			}
			c.TimeoutMs = &v
		}
		out[name] = c
	}
	return out, nil
}

// timeoutValue reads timeoutMs: a number, or "NaN" (which JSON cannot
// carry) as NaN, for the reference to refuse.
func timeoutValue(raw json.RawMessage) (float64, error) {
	var v float64
	if err := json.Unmarshal(raw, &v); err == nil {
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil && strings.EqualFold(s, "NaN") {
		return math.NaN(), nil
	}
	return 0, fmt.Errorf("%s is neither a number nor \"NaN\"", raw)
}

// hostProvider is the host's OAuth provider, whose methods the runner
// answers ([adapter.Host.Provider]). It has the official class's state(),
// which the reference never calls (LA-OAU-07).
type hostProvider struct {
	host adapter.Host
	name string
}

var _ reference.OAuthProvider = (*hostProvider)(nil)

// call calls one provider method and decodes its result into out (unless
// out is nil).
func (p *hostProvider) call(ctx context.Context, method string, value any, out any) error {
	var raw json.RawMessage
	if value != nil {
		raw, _ = json.Marshal(value)
	}
	res, err := p.host.Provider(ctx, adapter.ProviderCall{Provider: p.name, Method: method, Value: raw})
	if err != nil {
		return fmt.Errorf("provider %s.%s(): %w", p.name, method, err)
	}
	if out == nil || len(res) == 0 || string(res) == "null" {
		return nil
	}
	if err := json.Unmarshal(res, out); err != nil {
		return fmt.Errorf("provider %s.%s() returned %s: %w", p.name, method, res, err)
	}
	return nil
}

func (p *hostProvider) RedirectURL(ctx context.Context) (string, error) {
	var s string
	err := p.call(ctx, "redirectUrl", nil, &s)
	return s, err
}

func (p *hostProvider) ClientMetadata(ctx context.Context) (reference.ClientMetadata, error) {
	var m reference.ClientMetadata
	err := p.call(ctx, "clientMetadata", nil, &m)
	return m, err
}

func (p *hostProvider) ClientInformation(ctx context.Context) (*reference.ClientInformation, error) {
	var i *reference.ClientInformation
	err := p.call(ctx, "clientInformation", nil, &i)
	return i, err
}

func (p *hostProvider) SaveClientInformation(ctx context.Context, info reference.ClientInformation) error {
	return p.call(ctx, "saveClientInformation", info, nil)
}

func (p *hostProvider) Tokens(ctx context.Context) (*reference.Tokens, error) {
	var t *reference.Tokens
	err := p.call(ctx, "tokens", nil, &t)
	return t, err
}

func (p *hostProvider) SaveTokens(ctx context.Context, t reference.Tokens) error {
	return p.call(ctx, "saveTokens", t, nil)
}

func (p *hostProvider) CodeVerifier(ctx context.Context) (string, error) {
	var s string
	err := p.call(ctx, "codeVerifier", nil, &s)
	return s, err
}

func (p *hostProvider) SaveCodeVerifier(ctx context.Context, v string) error {
	return p.call(ctx, "saveCodeVerifier", v, nil)
}

func (p *hostProvider) InvalidateCredentials(ctx context.Context, scope string) error {
	return p.call(ctx, "invalidateCredentials", scope, nil)
}

// ClientMetadataURL is the provider's clientMetadataUrl: its client ID
// metadata document's URL, "" for none (null).
func (p *hostProvider) ClientMetadataURL(ctx context.Context) (string, error) {
	var s string
	err := p.call(ctx, "clientMetadataUrl", nil, &s)
	return s, err
}

var _ reference.ClientMetadataDocumentProvider = (*hostProvider)(nil)

// State is the official provider class's state(), there for
// [fault.UseProviderState] to find.
func (p *hostProvider) State(ctx context.Context) (string, error) {
	var s string
	err := p.call(ctx, "state", nil, &s)
	return s, err
}

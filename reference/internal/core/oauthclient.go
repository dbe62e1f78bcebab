package core

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// The client of a login: the provider's stored one when it belongs to the
// authorization server met now, else a client ID metadata document's URL
// when the server supports them, else a dynamic registration (RFC 7591),
// as in the official client's auth(). A client belongs to the issuer it is
// bound to ([ClientInformation.Issuer]): one of another issuer is never
// shown to this server (LA-OAU-15).

// clientFor returns the client to use with the authorization server of d.
// register says whether a new client may be made (a login) or not (a
// refresh during a run, which returns nil then); scope is the login's.
func (o *oauthSession) clientFor(ctx context.Context, d *discovery, register bool, scope string) (*ClientInformation, error) {
	if cc := o.cfg.ClientCredentials; cc != nil {
		// LA-CC-03: the secret goes only to the expected issuer.
		if !issuersMatch(cc.ExpectedIssuer, d.issuer) && !o.a.faults.Has(fault.IgnoreExpectedIssuer) {
			return nil, o.fail("LA-CC-03", fmt.Sprintf("the authorization server's issuer is %q, not the expected %q; the client secret is not sent", d.issuer, cc.ExpectedIssuer), nil)
		}
		return &ClientInformation{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret, Issuer: cc.ExpectedIssuer}, nil
	}
	p := o.cfg.Provider
	info, err := p.ClientInformation(ctx)
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the provider could not return its client information", err)
	}
	switch {
	case info == nil || info.ClientID == "":
		info = nil
	case info.Issuer == "":
		// Not bound yet: it belongs to the server it is first used with.
		info.Issuer = d.issuer
		if err := p.SaveClientInformation(ctx, *info); err != nil {
			return nil, o.fail("LA-OAU-15", "the provider could not save the client information", err)
		}
	case !issuersMatch(info.Issuer, d.issuer) && !o.a.faults.Has(fault.ClientNotBound): // LA-OAU-15: another server's client: register anew
		info = nil // another server's client: register anew
	}
	if info != nil || !register {
		return info, nil
	}
	if info, err = o.metadataDocumentClient(ctx, d); info != nil || err != nil {
		return info, err
	}
	return o.registerClient(ctx, d, scope)
}

// metadataDocumentClient returns the client whose id is the provider's
// client ID metadata document URL, when it has one and the server supports
// them; nil otherwise. A URL that is not https with a path is refused
// whether the server supports them or not, as in the official client.
func (o *oauthSession) metadataDocumentClient(ctx context.Context, d *discovery) (*ClientInformation, error) {
	mp, ok := o.cfg.Provider.(ClientMetadataDocumentProvider)
	if !ok {
		return nil, nil
	}
	raw, err := mp.ClientMetadataURL(ctx)
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the provider could not return its client metadata URL", err)
	}
	if raw == "" {
		return nil, nil
	}
	if u, err := url.Parse(raw); err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" {
		return nil, &Error{Kind: KindConfig, Rule: "LA-OAU-15", Source: o.server, Field: "provider.clientMetadataUrl",
			Msg: fmt.Sprintf("the client metadata URL %.200q is not an https URL with a path", raw)}
	}
	// LA-OAU-15: a client ID metadata document is the client_id where the server supports them, and only there.
	if (!d.meta.ClientIDMetadataDocumentSupported || o.a.faults.Has(fault.IgnoreMetadataDocuments)) && !o.a.faults.Has(fault.MetadataDocumentAlways) {
		return nil, nil
	}
	info := &ClientInformation{ClientID: raw, Issuer: d.issuer}
	if err := o.cfg.Provider.SaveClientInformation(ctx, *info); err != nil {
		return nil, o.fail("LA-OAU-15", "the provider could not save the client information", err)
	}
	return info, nil
}

// registerClient registers the provider's client dynamically (RFC 7591)
// with the client metadata the official client sends
// ([resolveClientMetadata]), and saves it bound to the server's issuer.
func (o *oauthSession) registerClient(ctx context.Context, d *discovery, scope string) (*ClientInformation, error) {
	if d.meta.RegistrationEndpoint == "" {
		return nil, o.fail("LA-OAU-15", "the provider has no client of this authorization server and the server offers no dynamic registration", nil)
	}
	p := o.cfg.Provider
	cm, err := p.ClientMetadata(ctx)
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the provider has no client metadata", err)
	}
	cm = o.resolveClientMetadata(cm)
	if scope != "" {
		cm.Scope = scope
	}
	body, _ := json.Marshal(cm)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.meta.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the registration request could not be made", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, o.fail(ruleOf(err, "LA-OAU-15"), "dynamic client registration failed", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxOAuthBody))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &Error{Kind: KindAuth, Rule: "LA-OAU-15", Source: o.server, Msg: fmt.Sprintf("dynamic client registration answered %s%s", resp.Status, oauthErrorCode(data))}
	}
	var reg ClientInformation
	if err := json.Unmarshal(data, &reg); err != nil || reg.ClientID == "" {
		return nil, &Error{Kind: KindAuth, Rule: "LA-OAU-15", Source: o.server, Msg: "dynamic client registration answered no client_id"}
	}
	reg.Issuer = d.issuer
	if err := p.SaveClientInformation(ctx, reg); err != nil {
		return nil, o.fail("LA-OAU-15", "the provider could not save the client information", err)
	}
	return &reg, nil
}

// resolveClientMetadata fills the defaults the official client adds to the
// registration (resolveClientMetadata): grant_types authorization_code and
// refresh_token, and application_type from the redirect URIs. A field the
// host set is never changed.
func (o *oauthSession) resolveClientMetadata(cm ClientMetadata) ClientMetadata {
	m := o.a.faults
	if cm.GrantTypes == nil {
		cm.GrantTypes = []string{"authorization_code", "refresh_token"}
	}
	// LA-OAU-15: application_type as the official client derives it, when the host set none.
	if (cm.ApplicationType == "" || m.Has(fault.DeriveApplicationType)) && !m.Has(fault.NoApplicationType) {
		cm.ApplicationType = applicationType(cm.RedirectURIs)
	}
	// LA-OAU-15: the registration adds nothing else.
	if m.Has(fault.RegistrationDefaults) {
		if cm.TokenEndpointAuthMethod == "" {
			cm.TokenEndpointAuthMethod = authNone
		}
		if cm.ResponseTypes == nil {
			cm.ResponseTypes = []string{"code"}
		}
	}
	return cm
}

// applicationType derives an OpenID Connect application_type from redirect
// URIs: "native" when one is on a loopback host or not http(s) (RFC 8252),
// "web" otherwise.
func applicationType(redirectURIs []string) string {
	for _, raw := range redirectURIs {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" {
			continue
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return "native"
		}
		if h := u.Hostname(); h == "localhost" || h == "127.0.0.1" || h == "::1" {
			return "native"
		}
	}
	return "web"
}

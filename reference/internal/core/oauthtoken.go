package core

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// The token endpoint's client authentication methods (RFC 7591 §2).
const (
	authBasic = "client_secret_basic"
	authPost  = "client_secret_post"
	authNone  = "none"
)

// authMethod chooses how a client authenticates at the token endpoint, as
// the official client does (selectClientAuthMethod): the client's
// registered method when it is one of the three and the server supports
// it (or lists nothing); else, when the server lists nothing, HTTP Basic
// with a secret and none without; else HTTP Basic, the secret in the form,
// or none, the first the server supports that the client can use; else the
// form with a secret, none without.
func (o *oauthSession) authMethod(info *ClientInformation, supported []string) string {
	secret := info.ClientSecret != ""
	m := o.a.faults
	switch {
	// LA-OAU-15, LA-CC-01: the client authenticates as the official client chooses.
	case secret && m.Has(fault.SecretAlwaysBasic), secret && o.cfg.ClientCredentials != nil && m.Has(fault.CCAlwaysBasic):
		return authBasic
	case secret && m.Has(fault.SecretAlwaysInForm): // LA-OAU-15: as registered and supported
		return authPost
	}
	if r := info.TokenEndpointAuthMethod; slices.Contains([]string{authBasic, authPost, authNone}, r) && (len(supported) == 0 || slices.Contains(supported, r)) {
		return r
	}
	switch {
	case len(supported) == 0 && secret:
		return authBasic
	case len(supported) == 0:
		return authNone
	case secret && slices.Contains(supported, authBasic):
		return authBasic
	case secret && slices.Contains(supported, authPost):
		return authPost
	case slices.Contains(supported, authNone):
		return authNone
	case secret:
		return authPost
	}
	return authNone
}

// tokenResponse is an OAuth token response (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string          `json:"access_token"`
	TokenType    string          `json:"token_type"`
	ExpiresIn    json.RawMessage `json:"expires_in"`
	Scope        string          `json:"scope"`
	RefreshToken string          `json:"refresh_token"`
	Error        string          `json:"error"`
}

// tokenError is an error answer of the token endpoint: its status and
// error code. The description is withheld: it may say anything, and it
// must not reach the logs (LA-OAU-30).
type tokenError struct {
	status      int
	code        string
	description string // kept only under fault.LogErrorDescription
}

func (e *tokenError) Error() string {
	switch {
	case e.description != "":
		return fmt.Sprintf("the token endpoint answered %d, error %q: %s", e.status, e.code, e.description)
	case e.code != "":
		return fmt.Sprintf("the token endpoint answered %d, error %q (its description is withheld)", e.status, e.code)
	}
	return fmt.Sprintf("the token endpoint answered %d (its body is withheld)", e.status)
}

// requestToken asks the token endpoint of d for tokens: the grant's form,
// the resource (RFC 8707), and the client authenticated as [authMethod]
// says.
func (o *oauthSession) requestToken(ctx context.Context, d *discovery, info *ClientInformation, form url.Values) (*tokenResponse, error) {
	if d.resource != "" {
		form.Set("resource", d.resource)
	}
	method := o.authMethod(info, d.meta.TokenEndpointAuthMethodsSupported)
	header := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}}
	switch method {
	case authBasic:
		// As the official client encodes it: id and secret as they are.
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(info.ClientID+":"+info.ClientSecret)))
	case authPost:
		form.Set("client_id", info.ClientID)
		form.Set("client_secret", info.ClientSecret)
	default:
		form.Set("client_id", info.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.meta.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header = header
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, unwrapURLError(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOAuthBody))
	if err != nil {
		return nil, err
	}
	var tr tokenResponse
	jerr := json.Unmarshal(body, &tr)
	if resp.StatusCode != http.StatusOK || tr.Error != "" {
		te := &tokenError{status: resp.StatusCode, code: tr.Error}
		// LA-OAU-30: the description is withheld; it may say anything.
		if o.a.faults.Has(fault.LogErrorDescription) {
			var e struct {
				Description string `json:"error_description"`
			}
			_ = json.Unmarshal(body, &e)
			te.description = e.Description
		}
		return nil, te
	}
	if jerr != nil || tr.AccessToken == "" || tr.TokenType == "" {
		return nil, fmt.Errorf("the token endpoint answered no token (access_token and token_type are required)")
	}
	return &tr, nil
}

// expiresIn reads expires_in, a number or a numeric string; 0 for none.
func (t *tokenResponse) expiresIn() int64 {
	var n json.Number
	if len(t.ExpiresIn) == 0 || json.Unmarshal(t.ExpiresIn, &n) != nil {
		var s string
		if json.Unmarshal(t.ExpiresIn, &s) != nil {
			return 0
		}
		n = json.Number(s)
	}
	f, err := n.Float64()
	if err != nil {
		return 0
	}
	return int64(f)
}

// unwrapURLError drops net/http's *url.Error wrapping, whose text repeats
// the URL; the reference's own refusals (targets, redirects, deadlines)
// come out as they are.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

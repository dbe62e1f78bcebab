package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/ory/fosite"
)

// maxHops bounds the redirects Authorize follows on the server's own
// origins.
const maxHops = 10

// Authorize plays the user at the authorization endpoint: it GETs authURL
// (consent is automatic; Faults.Deny refuses) without following the
// redirect to the client, and returns the Location it was redirected to:
// the full callback URL with code, state and iss (RFC 9207), or
// error=access_denied with Faults.Deny, with Faults.DuplicateParam and
// Faults.Iss applied as the server applies them. Like a browser it follows
// redirects that stay on the server's own origins (Faults.Redirect: to a
// /redirected-authorize that answers 404, an error). authURL must be on a
// loopback host: Authorize visits nothing else. An answer that is not a
// redirect is an error carrying the status and the start of the body (an
// invalid request that fosite cannot redirect, such as an unknown client or
// redirect URI).
func (s *Server) Authorize(ctx context.Context, authURL string) (callbackURL string, err error) {
	u, err := url.Parse(authURL)
	if err != nil {
		return "", fmt.Errorf("oauth: Authorize: %w", err)
	}
	for range maxHops {
		if !loopback(u) {
			return "", fmt.Errorf("oauth: Authorize visits loopback URLs only, not %s", u.Redacted())
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return "", fmt.Errorf("oauth: Authorize: %w", err)
		}
		resp, err := s.client.Do(req)
		if err != nil {
			return "", fmt.Errorf("oauth: Authorize: %w", err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
			return "", fmt.Errorf("oauth: the authorization endpoint answered %s: %s", resp.Status, body)
		}
		next, err := u.Parse(loc)
		if err != nil {
			return "", fmt.Errorf("oauth: the authorization endpoint redirected to %q: %w", loc, err)
		}
		if !s.ownOrigin(next) {
			return next.String(), nil
		}
		u = next
	}
	return "", fmt.Errorf("oauth: Authorize: more than %d redirects on the server's origins", maxHops)
}

// loopback reports whether u is an http(s) URL of a loopback host.
func loopback(u *url.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// ownOrigin reports whether u is on one of the server's origins.
func (s *Server) ownOrigin(u *url.URL) bool {
	o := u.Scheme + "://" + u.Host
	return o == s.origin || o == s.other
}

// RegisterClient pre-registers a client, for client-credentials scenarios
// and pre-saved tokens: confidential when secret != "" (it then
// authenticates with client_secret_basic or client_secret_post, either),
// public otherwise. grantTypes nil means authorization_code and
// refresh_token, and client_credentials too for a confidential client. An
// id in use is an error.
func (s *Server) RegisterClient(id, secret string, redirectURIs []string, grantTypes []string) error {
	if id == "" {
		return errors.New("oauth: RegisterClient: an empty client id")
	}
	if grantTypes == nil {
		grantTypes = []string{"authorization_code", "refresh_token"}
		if secret != "" {
			grantTypes = append(grantTypes, "client_credentials")
		}
	}
	c, err := s.newClient(context.Background(), id, secret, redirectURIs, grantTypes, nil)
	if err != nil {
		return err
	}
	return s.store.addClient(c)
}

// AddClientMetadataDocument tells the server of a client ID metadata
// document: a client whose client_id is the document's https URL (with a
// path) and whose redirect URIs the document lists. A real server fetches
// the document when it meets the URL; the fake, which must not reach out of
// loopback, is told instead, and accepts the URL as a public client's id
// from then on. It needs Shape.ClientIDMetadataDocuments.
func (s *Server) AddClientMetadataDocument(documentURL string, redirectURIs []string) error {
	if !s.shape.ClientIDMetadataDocuments {
		return errors.New("oauth: AddClientMetadataDocument: the server's shape does not support client ID metadata documents")
	}
	u, err := url.Parse(documentURL)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" || u.Fragment != "" {
		return fmt.Errorf("oauth: AddClientMetadataDocument: %q is not an https URL with a path", documentURL)
	}
	c, err := s.newClient(context.Background(), documentURL, "", redirectURIs, []string{"authorization_code", "refresh_token"}, nil)
	if err != nil {
		return err
	}
	return s.store.addClient(&fosite.DefaultOpenIDConnectClient{DefaultClient: c, TokenEndpointAuthMethod: AuthNone})
}

// newClient makes a client, public when secret is "" (its secret stored
// hashed).
func (s *Server) newClient(ctx context.Context, id, secret string, redirectURIs, grantTypes, scopes []string) (*fosite.DefaultClient, error) {
	c := &fosite.DefaultClient{
		ID:            id,
		RedirectURIs:  redirectURIs,
		GrantTypes:    grantTypes,
		ResponseTypes: []string{"code"},
		Scopes:        scopes,
		Public:        secret == "",
	}
	if secret != "" {
		h, err := s.config.GetSecretsHasher(ctx).Hash(ctx, []byte(secret))
		if err != nil {
			return nil, fmt.Errorf("oauth: hashing a client secret: %w", err)
		}
		c.Secret = h
	}
	return c, nil
}

// MintTokens issues, without a login, an access and refresh token pair for
// the registered client clientID and the resource resource (the granted
// audience; "" for none), as if a login had happened: for scenarios where
// the host already holds tokens. expiresIn is the access token's lifetime:
// 0 means Faults.AccessTokenLifetime (an hour by default), a negative one
// mints an access token that has already expired (to make a host refresh).
// The refresh token is valid for 30 days and works at the token endpoint
// when the client may use refresh_token.
func (s *Server) MintTokens(ctx context.Context, clientID, resource string, expiresIn time.Duration) (access, refresh string, err error) {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	c, err := s.store.GetClient(ctx, clientID)
	if err != nil {
		return "", "", fmt.Errorf("oauth: MintTokens: no client %q", clientID)
	}
	if resource != "" {
		if err := checkResources([]string{resource}); err != nil {
			return "", "", fmt.Errorf("oauth: MintTokens: %w", err)
		}
	}
	if expiresIn == 0 {
		expiresIn = s.config.AccessTokenLifespan
	}
	now := time.Now().UTC()
	sess := newSession()
	sess.SetExpiresAt(fosite.AccessToken, now.Add(expiresIn))
	sess.SetExpiresAt(fosite.RefreshToken, now.Add(refreshTokenLifetime))
	req := fosite.NewAccessRequest(sess)
	req.Client = c
	req.GrantTypes = fosite.Arguments{"authorization_code"}
	req.RequestedAt = now
	if resource != "" {
		req.SetRequestedAudience(fosite.Arguments{resource})
		req.GrantAudience(resource)
	}
	access, accessSig, err := s.strategy.GenerateAccessToken(ctx, req)
	if err != nil {
		return "", "", fmt.Errorf("oauth: MintTokens: %w", err)
	}
	refresh, refreshSig, err := s.strategy.GenerateRefreshToken(ctx, req)
	if err != nil {
		return "", "", fmt.Errorf("oauth: MintTokens: %w", err)
	}
	stored := req.Sanitize(nil)
	if err := s.store.CreateAccessTokenSession(ctx, accessSig, stored); err != nil {
		return "", "", fmt.Errorf("oauth: MintTokens: %w", err)
	}
	if err := s.store.CreateRefreshTokenSession(ctx, refreshSig, accessSig, stored); err != nil {
		return "", "", fmt.Errorf("oauth: MintTokens: %w", err)
	}
	return access, refresh, nil
}

// tokenInfo describes an active access token.
type tokenInfo struct {
	clientID string
	audience []string
	scopes   []string
	expires  time.Time
}

// introspect returns what the server knows of the active access token
// token, or nil for anything else (a refresh token included).
func (s *Server) introspect(ctx context.Context, token string) *tokenInfo {
	if token == "" {
		return nil
	}
	s.fmu.Lock()
	defer s.fmu.Unlock()
	use, ar, err := s.provider.IntrospectToken(ctx, token, fosite.AccessToken, newSession())
	if err != nil || use != fosite.AccessToken || ar == nil {
		return nil
	}
	return &tokenInfo{
		clientID: ar.GetClient().GetID(),
		audience: ar.GetGrantedAudience(),
		scopes:   ar.GetGrantedScopes(),
		expires:  ar.GetSession().GetExpiresAt(fosite.AccessToken),
	}
}

// Introspect reports whether token is an active access token of the server
// (not expired, not revoked; a refresh token is not one), with its granted
// audience (the RFC 8707 resources) and scopes. The resource guard uses it.
func (s *Server) Introspect(ctx context.Context, token string) (active bool, audience []string, scopes []string) {
	info := s.introspect(ctx, token)
	if info == nil {
		return false, nil, nil
	}
	return true, info.audience, info.scopes
}

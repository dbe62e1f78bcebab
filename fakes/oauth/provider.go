package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/compose"
	"github.com/ory/fosite/storage"
)

// The lifetimes the server gives, besides the access tokens'.
const (
	defaultAccessTokenLifetime = time.Hour
	refreshTokenLifetime       = 30 * 24 * time.Hour
	authorizeCodeLifetime      = 10 * time.Minute
)

// subject is the user every grant is for: consent is automatic.
const subject = "la-user"

// store is fosite's memory store with a client map of its own, which
// dynamic registration can add to at run time (the memory store's own map
// is guarded by an unexported mutex).
type store struct {
	*storage.MemoryStore

	mu      sync.RWMutex
	clients map[string]fosite.Client
}

// GetClient returns the client id, or fosite.ErrNotFound.
func (s *store) GetClient(_ context.Context, id string) (fosite.Client, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.clients[id]
	if !ok {
		return nil, fosite.ErrNotFound
	}
	return c, nil
}

// addClient adds c, refusing an id in use.
func (s *store) addClient(c fosite.Client) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[c.GetID()]; ok {
		return fmt.Errorf("oauth: a client %q is registered already", c.GetID())
	}
	s.clients[c.GetID()] = c
	return nil
}

// compose builds the fosite provider: authorization code with PKCE S256
// enforced, refresh tokens, client credentials, introspection and
// revocation, with HMAC tokens.
func (s *Server) compose() {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	lifetime := s.faults.AccessTokenLifetime
	if lifetime == 0 {
		lifetime = defaultAccessTokenLifetime
	}
	cfg := &fosite.Config{
		AccessTokenLifespan:   lifetime,
		RefreshTokenLifespan:  refreshTokenLifetime,
		AuthorizeCodeLifespan: authorizeCodeLifetime,
		GlobalSecret:          secret,
		EnforcePKCE:           true,
		// Plain is refused; S256 is the only method.
		EnablePKCEPlainChallengeMethod: false,
		// Refresh tokens for every grant that allows refresh_token, with
		// no offline scope needed.
		RefreshTokenScopes: []string{},
		// bcrypt at cost 12 would make every secret check slow.
		HashCost:          4,
		TokenURL:          s.origin + paths[EndpointToken],
		AccessTokenIssuer: s.issuer,
		// Auto-consent: any scope is granted, any resource accepted (RFC
		// 8707 resources are checked by the server itself).
		ScopeStrategy:            func([]string, string) bool { return true },
		AudienceMatchingStrategy: func([]string, []string) error { return nil },
		RedirectSecureChecker:    fosite.IsRedirectURISecureStrict,
	}
	// Set up front: fosite's getter would set it lazily, racing.
	cfg.ClientSecretsHasher = &fosite.BCrypt{Config: cfg}
	st := &store{MemoryStore: storage.NewMemoryStore(), clients: map[string]fosite.Client{}}
	strategy := compose.NewOAuth2HMACStrategy(cfg)
	s.config, s.store, s.strategy = cfg, st, strategy
	s.provider = compose.Compose(cfg, st, strategy,
		compose.OAuth2AuthorizeExplicitFactory,
		compose.OAuth2PKCEFactory,
		compose.OAuth2RefreshTokenGrantFactory,
		compose.OAuth2ClientCredentialsGrantFactory,
		compose.OAuth2TokenIntrospectionFactory,
		compose.OAuth2TokenRevocationFactory,
	)
}

// newSession is the session of every grant.
func newSession() *fosite.DefaultSession {
	return &fosite.DefaultSession{Subject: subject, ExpiresAt: map[fosite.TokenType]time.Time{}}
}

// randomID returns a random hex string with prefix.
func randomID(prefix string, n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// invalidTarget is RFC 8707's error for a resource the server will not
// grant.
func invalidTarget(hint string) error {
	return &fosite.RFC6749Error{
		ErrorField:       "invalid_target",
		DescriptionField: "The requested resource is invalid, unknown, or malformed.",
		HintField:        hint,
		CodeField:        400,
	}
}

// checkResources checks RFC 8707 resource values: absolute URIs without a
// fragment.
func checkResources(resources []string) error {
	for _, r := range resources {
		u, err := url.Parse(r)
		if err != nil || !u.IsAbs() || u.Fragment != "" {
			return invalidTarget(fmt.Sprintf("The resource %q is not an absolute URI without a fragment.", r))
		}
	}
	return nil
}

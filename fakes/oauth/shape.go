package oauth

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// The places a [Shape] may serve the metadata at (Shape.Metadata).
const (
	// MetadataOAuth serves RFC 8414 metadata at
	// /.well-known/oauth-authorization-server followed by the issuer's
	// path (path insertion, RFC 8414 §3.1): the root well-known URL for an
	// issuer without a path. The default.
	MetadataOAuth = "oauth"
	// MetadataOpenID serves OpenID Connect Discovery 1.0 metadata at
	// /.well-known/openid-configuration followed by the issuer's path (the
	// path-inserted form, RFC 8414 §5), and no RFC 8414 metadata.
	MetadataOpenID = "openid"
	// MetadataOpenIDAppended serves OpenID Connect Discovery metadata at
	// the issuer's path followed by /.well-known/openid-configuration (the
	// form OpenID Connect Discovery 1.0 itself defines), and nothing
	// else; the issuer needs a path.
	MetadataOpenIDAppended = "openid-appended"
)

// The well-known suffixes of authorization server metadata.
const (
	oauthWellKnown  = "/.well-known/oauth-authorization-server"
	openIDWellKnown = "/.well-known/openid-configuration"
)

// The token endpoint's client authentication methods (RFC 7591 §2).
const (
	AuthNone  = "none"
	AuthBasic = "client_secret_basic"
	AuthPost  = "client_secret_post"
)

// Shape chooses which of the correct kinds of authorization server the
// server is: where its metadata is, what it supports. Unlike [Faults] no
// shape is broken; the zero value is the shape every earlier scenario
// knows (an issuer without a path, RFC 8414 metadata at the root, every
// client authentication method, no scopes listed, no client ID metadata
// documents).
type Shape struct {
	// IssuerPath, such as "/tenant", puts the issuer under a path of the
	// main origin: the issuer is then origin+IssuerPath (no trailing
	// slash), and the metadata moves with it (Metadata). The endpoints
	// stay at the origin's /oauth/ paths.
	IssuerPath string
	// Metadata is where the metadata is served: "" or [MetadataOAuth],
	// [MetadataOpenID] or [MetadataOpenIDAppended]. Every other well-known
	// metadata URL answers 404 (recorded as EndpointOther), so a client
	// shows in the log which URLs it tried, in which order.
	Metadata string
	// AuthMethods are the token endpoint's client authentication methods
	// (token_endpoint_auth_methods_supported), from AuthNone, AuthBasic
	// and AuthPost; nil means all three. The token endpoint refuses a
	// request that authenticates otherwise (401 invalid_client), and
	// registration refuses to register a client for a method not listed.
	AuthMethods []string
	// Scopes, when set, are listed as scopes_supported. Every scope is
	// granted, listed or not.
	Scopes []string
	// ClientIDMetadataDocuments advertises
	// client_id_metadata_document_supported: the server then accepts as a
	// client_id the https URL of a client ID metadata document it was told
	// of ([Server.AddClientMetadataDocument]).
	ClientIDMetadataDocuments bool
}

// checkShape checks a shape; [New] refuses one that does not make sense.
func checkShape(s Shape) error {
	if p := s.IssuerPath; p != "" {
		u, err := url.Parse(p)
		if err != nil || !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || u.Path != p || u.RawQuery != "" || u.Fragment != "" ||
			strings.HasPrefix(p, "/oauth/") || strings.HasPrefix(p, "/.well-known") {
			return fmt.Errorf("Shape.IssuerPath: %q is not a path like /tenant (no trailing slash, query, /oauth/ or /.well-known prefix)", p)
		}
	}
	switch s.Metadata {
	case "", MetadataOAuth, MetadataOpenID:
	case MetadataOpenIDAppended:
		if s.IssuerPath == "" {
			return fmt.Errorf("Shape.Metadata: %q needs an IssuerPath", s.Metadata)
		}
	default:
		return fmt.Errorf("Shape.Metadata: %q is not %q, %q or %q", s.Metadata, MetadataOAuth, MetadataOpenID, MetadataOpenIDAppended)
	}
	for _, m := range s.AuthMethods {
		if !slices.Contains(authMethods, m) {
			return fmt.Errorf("Shape.AuthMethods: %q is not one of %v", m, authMethods)
		}
	}
	if s.AuthMethods != nil && len(s.AuthMethods) == 0 {
		return fmt.Errorf("Shape.AuthMethods: an empty list; nil means all of %v", authMethods)
	}
	return nil
}

// metadataPath is the path the shape serves its metadata at (RFC 8414
// §3.1 and §5).
func metadataPath(s Shape) string {
	switch s.Metadata {
	case MetadataOpenID:
		return openIDWellKnown + s.IssuerPath
	case MetadataOpenIDAppended:
		return s.IssuerPath + openIDWellKnown
	}
	return oauthWellKnown + s.IssuerPath
}

// supportedAuthMethods are the token endpoint's methods.
func (s *Server) supportedAuthMethods() []string {
	if s.shape.AuthMethods != nil {
		return s.shape.AuthMethods
	}
	return authMethods
}

// authMethodOf names how a token request authenticates its client: HTTP
// Basic, a client_secret in the form, or neither (a public client's
// client_id alone).
func authMethodOf(r *http.Request) string {
	if scheme, _, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Basic") {
		return AuthBasic
	}
	if r.PostFormValue("client_secret") != "" {
		return AuthPost
	}
	return AuthNone
}

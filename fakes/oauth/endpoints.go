package oauth

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/ory/fosite"
)

// metadata is the RFC 8414 metadata document, in a stable order; the
// OpenID Connect Discovery document is the same with the fields OpenID
// Connect requires besides.
type metadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	EndSessionEndpoint                string   `json:"end_session_endpoint"`
	IntrospectionEndpoint             string   `json:"introspection_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	// IssParameterSupported is nil with Faults.NoIssSupport.
	IssParameterSupported *bool `json:"authorization_response_iss_parameter_supported,omitempty"`
	// ClientIDMetadataDocumentSupported is Shape.ClientIDMetadataDocuments.
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported,omitempty"`
	// The fields OpenID Connect Discovery requires (OpenID shapes only).
	JWKSURI                          string   `json:"jwks_uri,omitempty"`
	SubjectTypesSupported            []string `json:"subject_types_supported,omitempty"`
	IDTokenSigningAlgValuesSupported []string `json:"id_token_signing_alg_values_supported,omitempty"`
}

// authMethods are the token endpoint's client authentication methods.
var authMethods = []string{"none", "client_secret_basic", "client_secret_post"}

// grantTypes are the grants the server supports.
var grantTypes = []string{"authorization_code", "refresh_token", "client_credentials"}

// serveMetadata answers the metadata: RFC 8414, or OpenID Connect
// Discovery for the OpenID shapes.
func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET")
		http.Error(w, "GET the metadata", http.StatusMethodNotAllowed)
		return
	}
	m := metadata{
		Issuer:                            s.issuer,
		AuthorizationEndpoint:             s.endpointURL(EndpointAuthorize),
		TokenEndpoint:                     s.endpointURL(EndpointToken),
		RegistrationEndpoint:              s.endpointURL(EndpointRegister),
		RevocationEndpoint:                s.endpointURL(EndpointRevoke),
		EndSessionEndpoint:                s.endpointURL(EndpointEndSession),
		IntrospectionEndpoint:             s.endpointURL(EndpointIntrospect),
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               grantTypes,
		CodeChallengeMethodsSupported:     []string{"S256"},
		TokenEndpointAuthMethodsSupported: s.supportedAuthMethods(),
		ScopesSupported:                   s.shape.Scopes,
		ClientIDMetadataDocumentSupported: s.shape.ClientIDMetadataDocuments,
	}
	if s.shape.Metadata == MetadataOpenID || s.shape.Metadata == MetadataOpenIDAppended {
		m.JWKSURI = s.origin + "/oauth/jwks"
		m.SubjectTypesSupported = []string{"public"}
		m.IDTokenSigningAlgValuesSupported = []string{"RS256"}
	}
	if s.faults.IssuerMismatch {
		m.Issuer = s.issuer + "/other"
	}
	if !s.faults.NoIssSupport {
		yes := true
		m.IssParameterSupported = &yes
	}
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(m)
	_, _ = w.Write(b)
}

// serveAuthorize is the authorization endpoint: it consents at once (or
// denies, with Faults.Deny) and redirects to the client with the code.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	lw := &callbackWriter{ResponseWriter: w, s: s}
	s.fmu.Lock()
	ar, err := s.provider.NewAuthorizeRequest(ctx, r)
	var resources []string
	if err == nil {
		resources = ar.GetRequestForm()["resource"]
		err = checkResources(resources)
	}
	if err == nil && s.faults.Deny {
		err = fosite.ErrAccessDenied.WithHint("The user refused the authorization (Faults.Deny).")
	}
	var resp fosite.AuthorizeResponder
	if err == nil {
		grantAll(ar, resources)
		resp, err = s.provider.NewAuthorizeResponse(ctx, ar, newSession())
	}
	s.fmu.Unlock()
	if err != nil {
		s.provider.WriteAuthorizeError(ctx, lw, ar, err)
		return
	}
	s.provider.WriteAuthorizeResponse(ctx, lw, ar, resp)
}

// callbackWriter rewrites the Location of the authorization response: it
// adds the RFC 9207 iss and applies Faults.Iss and Faults.DuplicateParam.
type callbackWriter struct {
	http.ResponseWriter
	s *Server
}

// WriteHeader rewrites the Location of a redirect, then writes the header.
func (c *callbackWriter) WriteHeader(code int) {
	if code >= 300 && code < 400 {
		if loc := c.Header().Get("Location"); loc != "" {
			c.Header().Set("Location", c.s.callback(loc))
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

// callback returns the callback URL loc as the server sends it.
func (s *Server) callback(loc string) string {
	u, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	q := u.Query()
	switch s.faults.Iss {
	case "":
		q.Set("iss", s.issuer)
	case "wrong":
		q.Set("iss", s.other)
	}
	if p := s.faults.DuplicateParam; p != "" && len(q[p]) > 0 {
		first := q[p][0]
		second := "dup-" + first
		if p == "iss" {
			second = s.other
			if first == s.other {
				second = s.issuer
			}
		}
		q[p] = append(q[p], second)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// serveToken is the token endpoint: authorization code (PKCE checked),
// refresh token (rotated) and client credentials.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if s.faults.TokenError != "" {
		writeError(w, s.faults.TokenError, s.faults.ErrorDescription)
		return
	}
	if s.faults.RefreshFails && r.Method == http.MethodPost && r.PostFormValue("grant_type") == "refresh_token" {
		writeError(w, "invalid_grant", "The refresh token is not valid (Faults.RefreshFails).")
		return
	}
	if m := authMethodOf(r); r.Method == http.MethodPost && !slices.Contains(s.supportedAuthMethods(), m) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client",
			"error_description": "The client authenticated with " + m + ", which the server does not support (" + strings.Join(s.supportedAuthMethods(), ", ") + ")."})
		return
	}
	ctx := r.Context()
	s.fmu.Lock()
	ar, err := s.provider.NewAccessRequest(ctx, r, newSession())
	if err == nil {
		err = grantAtToken(ar)
	}
	var resp fosite.AccessResponder
	if err == nil {
		resp, err = s.provider.NewAccessResponse(ctx, ar)
	}
	s.fmu.Unlock()
	if err != nil {
		s.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	m := resp.ToMap()
	m["token_type"] = "Bearer"
	if s.faults.TokenType != "" {
		m["token_type"] = s.faults.TokenType
	}
	writeJSON(w, http.StatusOK, m)
}

// grantAtToken applies RFC 8707 resources of a token request: a client
// credentials grant is granted them as its audience; a code or refresh
// grant keeps the audience of its authorization, and a resource outside it
// is an invalid_target. It also grants a client credentials grant its
// scopes.
func grantAtToken(ar fosite.AccessRequester) error {
	resources := ar.GetRequestForm()["resource"]
	if err := checkResources(resources); err != nil {
		return err
	}
	if ar.GetGrantTypes().ExactOne("client_credentials") {
		grantAll(ar, resources)
		return nil
	}
	// The code grant's audience is granted only as the response is made;
	// until then it is the authorization's requested one (the same here).
	granted := slices.Concat(ar.GetRequestedAudience(), ar.GetGrantedAudience())
	for _, res := range resources {
		if !slices.Contains(granted, res) {
			return invalidTarget("The resource " + res + " is outside the grant.")
		}
	}
	return nil
}

// registration is the part of an RFC 7591 registration request the server
// reads (the whole body is in the request's record).
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	ClientName              string   `json:"client_name,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	ApplicationType         string   `json:"application_type,omitempty"`
}

// serveRegister is RFC 7591 dynamic client registration: public clients
// (token_endpoint_auth_method none) and confidential ones, redirect URIs
// HTTPS or loopback HTTP. The client's token_endpoint_auth_method is
// enforced at the token endpoint.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "POST a registration", http.StatusMethodNotAllowed)
		return
	}
	if s.faults.RegistrationError != "" {
		writeError(w, s.faults.RegistrationError, s.faults.ErrorDescription)
		return
	}
	var reg registration
	if err := json.NewDecoder(r.Body).Decode(&reg); err != nil {
		writeError(w, "invalid_client_metadata", "The body is not a JSON registration: "+err.Error())
		return
	}
	if reg.TokenEndpointAuthMethod == "" {
		// RFC 7591 §2's default, or the server's choice when it does not
		// support that.
		reg.TokenEndpointAuthMethod = AuthBasic
		for _, m := range []string{AuthBasic, AuthPost, AuthNone} {
			if slices.Contains(s.supportedAuthMethods(), m) {
				reg.TokenEndpointAuthMethod = m
				break
			}
		}
	}
	if len(reg.GrantTypes) == 0 {
		reg.GrantTypes = []string{"authorization_code"}
	}
	if len(reg.ResponseTypes) == 0 {
		reg.ResponseTypes = []string{"code"}
	}
	if !slices.Contains(s.supportedAuthMethods(), reg.TokenEndpointAuthMethod) {
		writeError(w, "invalid_client_metadata", "token_endpoint_auth_method "+reg.TokenEndpointAuthMethod+" is not supported.")
		return
	}
	for _, g := range reg.GrantTypes {
		if !slices.Contains(grantTypes, g) {
			writeError(w, "invalid_client_metadata", "grant type "+g+" is not supported.")
			return
		}
	}
	public := reg.TokenEndpointAuthMethod == "none"
	if public && slices.Contains(reg.GrantTypes, "client_credentials") {
		writeError(w, "invalid_client_metadata", "a public client cannot use client_credentials.")
		return
	}
	for _, rt := range reg.ResponseTypes {
		if rt != "code" {
			writeError(w, "invalid_client_metadata", "response type "+rt+" is not supported.")
			return
		}
	}
	if slices.Contains(reg.GrantTypes, "authorization_code") && len(reg.RedirectURIs) == 0 {
		writeError(w, "invalid_redirect_uri", "redirect_uris are required for authorization_code.")
		return
	}
	for _, ru := range reg.RedirectURIs {
		u, err := url.Parse(ru)
		if err != nil || !fosite.IsValidRedirectURI(u) || !fosite.IsRedirectURISecureStrict(r.Context(), u) {
			writeError(w, "invalid_redirect_uri", "The redirect URI "+ru+" is not an HTTPS or loopback HTTP URL without a fragment.")
			return
		}
	}
	id := randomID("la-client-", 12)
	var secret string
	if !public {
		secret = randomID("la-secret-", 24)
	}
	c, err := s.newClient(r.Context(), id, secret, reg.RedirectURIs, reg.GrantTypes, strings.Fields(reg.Scope))
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error", "error_description": err.Error()})
		return
	}
	if err := s.store.addClient(&fosite.DefaultOpenIDConnectClient{DefaultClient: c, TokenEndpointAuthMethod: reg.TokenEndpointAuthMethod}); err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error", "error_description": err.Error()})
		return
	}
	resp := map[string]any{
		"client_id":                  id,
		"client_id_issued_at":        time.Now().Unix(),
		"redirect_uris":              reg.RedirectURIs,
		"token_endpoint_auth_method": reg.TokenEndpointAuthMethod,
		"grant_types":                reg.GrantTypes,
		"response_types":             reg.ResponseTypes,
	}
	if secret != "" {
		resp["client_secret"] = secret
		resp["client_secret_expires_at"] = 0
	}
	if reg.ClientName != "" {
		resp["client_name"] = reg.ClientName
	}
	if reg.ApplicationType != "" {
		resp["application_type"] = reg.ApplicationType
	}
	if reg.Scope != "" {
		resp["scope"] = reg.Scope
	}
	writeJSON(w, http.StatusCreated, resp)
}

// serveIntrospect is RFC 7662 introspection of access tokens (no client
// authentication: the fake's resource side uses it).
func (s *Server) serveIntrospect(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "POST a token", http.StatusMethodNotAllowed)
		return
	}
	info := s.introspect(r.Context(), r.PostFormValue("token"))
	if info == nil {
		writeJSON(w, http.StatusOK, map[string]any{"active": false})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"active":     true,
		"client_id":  info.clientID,
		"sub":        subject,
		"aud":        info.audience,
		"scope":      strings.Join(info.scopes, " "),
		"exp":        info.expires.Unix(),
		"token_type": "Bearer",
	})
}

// grantAll grants what a request asked for: every scope, and as audience
// the resources it named (RFC 8707: the granted audience is the resource).
func grantAll(ar fosite.Requester, resources []string) {
	for _, scope := range ar.GetRequestedScopes() {
		ar.GrantScope(scope)
	}
	ar.SetRequestedAudience(resources)
	for _, res := range resources {
		ar.GrantAudience(res)
	}
}

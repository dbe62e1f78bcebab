// Package oauth is the fake OAuth 2.1 authorization server of the
// conformance scenarios, and the protected-resource side of the HTTP MCP
// fake.
//
// [Server] is a real authorization server built on github.com/ory/fosite:
// RFC 8414 metadata, RFC 7591 dynamic client registration, the
// authorization code grant with PKCE (S256 only, enforced), refresh tokens
// with rotation (a reused refresh token revokes its whole family),
// client_credentials, RFC 8707 resource indicators (the granted audience is
// the resource), RFC 9207 iss on the authorization response, RFC 7662
// introspection, and revocation and end-session endpoints that only record
// what they get. Consent is automatic: [Server.Authorize] plays the user.
// It listens on two loopback origins, the issuer's and an "other" one
// serving the same endpoints, so that scenarios can move endpoints to
// another origin. [Faults] break one thing each; the zero value is a
// correct server. A [Shape] chooses among correct servers, the kinds an
// MCP client meets: an issuer with a path, metadata at the RFC 8414 or the
// OpenID Connect well-known URLs, the client authentication methods and
// scopes it supports, client ID metadata documents. [ResourceOptions] do
// the same for the protected resource: where its metadata is, whether its
// challenges name it, the scopes it asks for, the resource it names; a
// [Resource] can move to another authorization server
// ([Resource.MoveTo]).
//
// Every request to either origin, any path, is recorded into the scenario's
// [record.Log] before it is answered ([record.KindHTTP], Method the endpoint
// name, Params the form or JSON body), so scenarios can assert what a host
// sent, and what it did not.
//
// [Server.Resource] makes a mount of the HTTP MCP fake a protected resource
// (RFC 9728): it implements [mcpfake.ResourceGuard], checking bearer tokens
// against the server. [NewCoHosted] and [Server.RegisterOn] co-host the
// authorization server on the MCP fake's own origin.
//
// fosite is as strict as a production server, and a host meets that: the
// authorization request needs a state of at least 8 characters (a missing
// or shorter one answers invalid_state), a code_challenge with method S256
// (none, or plain, answers invalid_request), and a registered redirect URI
// (exactly, except that a loopback http one may use any port, RFC 8252); the
// code_verifier must be 43 to 128 characters; a dynamically registered
// client must authenticate with the token_endpoint_auth_method it
// registered (RFC 7591's default is client_secret_basic).
//
// fosite is imported only here, under fakes/: the reference library never
// links it.
package oauth

package reference

import "github.com/mcpconform/mcpconform/reference/internal/core"

// OAuthConfig binds OAuth to one server by name: lite-agent's
// mcpOAuth.<name> ([Options.MCPOAuth]). The server may come from either
// configuration file, the mcpServers option or [Registry.Register]; there
// is no other way to register it (LA-OAU-01). Configuration files never
// hold any of this (LA-OAU-02). Its fields:
//
//   - ServerURL must equal the server's configured URL exactly: a
//     configuration that points the name elsewhere never gets these
//     credentials (LA-OAU-23, LA-OAU-24);
//   - AllowedOrigins are the origins (scheme://host[:port]) the
//     authorization server's endpoints may be on, besides the MCP server's
//     own, which is always allowed (LA-OAU-21, LA-OAU-22);
//   - Provider stores the client's registration, tokens and PKCE verifier
//     ([OAuthProvider]); one provider serves one active connection at a
//     time (LA-OAU-10);
//   - ClientCredentials, instead of a Provider, authenticates the agent
//     itself with the client-credentials grant: no user, no Authorize
//     (LA-CC-01, LA-CC-02);
//   - Authorize(ctx, authURL) is the host's login step: it shows authURL
//     to the user and returns the full callback URL; ctx ends on
//     cancellation, at the login deadline and when the agent closes
//     (LA-OAU-04), and a callback returned after that is never redeemed
//     (LA-OAU-05). The SDK opens no page, listener or browser itself
//     (LA-OAU-03);
//   - TimeoutMs is the deadline of a first connection and its login, in
//     whole milliseconds from 1 to [MaxLoginTimeoutMs]; nil means
//     [DefaultLoginTimeout] (LA-OAU-31, LA-OAU-32).
type OAuthConfig = core.OAuthConfig

// ClientCredentials configure the official client-credentials provider:
// ClientID, ClientSecret, and ExpectedIssuer, the issuer the credentials
// belong to: an authorization server whose metadata names another issuer
// never receives the secret (LA-CC-03). The client authenticates at the
// token endpoint with the method the authorization server supports, HTTP
// Basic first.
type ClientCredentials = core.ClientCredentials

// OAuthProvider is lite-agent's McpOAuthProvider: the storage half of the
// official OAuthClientProvider, without state, redirectToAuthorization and
// DPoP, which the SDK manages or does not support (LA-OAU-07). Its
// methods, each taking a context: RedirectURL, where the authorization
// server sends the user back (the whole callback URL is checked against
// it, LA-OAU-17); ClientMetadata, the [ClientMetadata] of dynamic
// registration; ClientInformation and SaveClientInformation, the
// registered client (nil if none yet); Tokens and SaveTokens; CodeVerifier
// and SaveCodeVerifier, the PKCE verifier of the login in progress; and
// InvalidateCredentials(scope), which the reference never calls on close
// or unregister (LA-OAU-11).
//
// The SDK never deletes what it stores. What it saves is bound to the
// authorization server that issued it ([ClientInformation] and [Tokens]
// carry an Issuer): a provider that stores the values as given keeps that
// binding, and a client or tokens of one authorization server are never
// shown to another (LA-OAU-15). A provider may also describe its client by
// a client ID metadata document ([ClientMetadataDocumentProvider]).
type OAuthProvider = core.OAuthProvider

// ClientMetadataDocumentProvider is implemented by an [OAuthProvider] whose
// client is described by a client ID metadata document: ClientMetadataURL
// returns the document's https URL (with a path), or "" for none. When the
// authorization server advertises client_id_metadata_document_supported,
// that URL is the client_id and no registration happens; otherwise the
// client registers dynamically. A URL that is not https with a path is an
// error, as in the official client.
type ClientMetadataDocumentProvider = core.ClientMetadataDocumentProvider

// ClientMetadata is RFC 7591 client metadata, as the official client's
// OAuthClientMetadata holds it (redirect_uris, token_endpoint_auth_method,
// grant_types, response_types, application_type, client_name, scope and
// the rest, under their JSON names). For dynamic registration the
// reference sends it as it is, with two defaults the official client
// applies when the field is empty: grant types authorization_code and
// refresh_token, and application type "native" when a redirect URI is on
// a loopback host or not http(s), "web" otherwise; and the scope replaced
// by the one the login asks for, if any. An empty token endpoint auth
// method lets the authorization server choose (RFC 7591:
// client_secret_basic).
type ClientMetadata = core.ClientMetadata

// ClientInformation is a client of an authorization server: registered
// dynamically, pre-registered by the host, or a client ID metadata
// document's URL (ClientID, ClientSecret, their issue and expiry times, and
// TokenEndpointAuthMethod as registered). Issuer is the authorization
// server the client belongs to: a client of another issuer is never used,
// and the reference registers again with the server it now meets
// (LA-OAU-15); empty means not known yet, and the reference binds it to
// the server it first uses it with, and saves it so.
type ClientInformation = core.ClientInformation

// Tokens are an OAuth token response, as stored: AccessToken, TokenType,
// RefreshToken, ExpiresIn and Scope, and Issuer, the authorization server
// that issued them, where alone they are refreshed (LA-OAU-15); empty
// means not known yet, as for [ClientInformation].
type Tokens = core.Tokens

// DefaultLoginTimeout is the total deadline of a first connection and its
// login when [OAuthConfig] sets no TimeoutMs (LA-OAU-31).
const DefaultLoginTimeout = core.DefaultLoginTimeout

// MaxLoginTimeoutMs is the largest TimeoutMs of an [OAuthConfig]
// (LA-OAU-32).
const MaxLoginTimeoutMs = core.MaxLoginTimeoutMs

package fault

// The faults of the OAuth rules (LA-OAU, LA-CC).
const (
	OAuthOnlyOption       Fault = "LA-OAU-01/bind-only-mcpServers-entries"
	FileToken             Fault = "LA-OAU-02/file-token-as-bearer"
	ListenOnCallback      Fault = "LA-OAU-03/listen-on-callback-port"
	NoState               Fault = "LA-OAU-04/authorization-url-without-state"
	ExchangeLateCode      Fault = "LA-OAU-05/exchange-late-code"
	UseProviderState      Fault = "LA-OAU-07/use-provider-state"
	CacheTokens           Fault = "LA-OAU-08/tokens-kept-outside-the-provider"
	ShareProvider         Fault = "LA-OAU-10/share-provider"
	InvalidateOnClose     Fault = "LA-OAU-11/invalidate-credentials-on-close"
	RevokeOnClose         Fault = "LA-OAU-12/revoke-on-close"
	AlwaysLogin           Fault = "LA-OAU-13/ignore-saved-tokens"
	ResumeLogin           Fault = "LA-OAU-14/resume-earlier-login"
	NoResourceParam       Fault = "LA-OAU-15/no-resource-parameter"
	PredictableState      Fault = "LA-OAU-16/predictable-state"
	SkipStateCheck        Fault = "LA-OAU-17/skip-state-check"
	LooseRedirectCheck    Fault = "LA-OAU-17/loose-redirect-check"
	AcceptDuplicateParams Fault = "LA-OAU-18/accept-duplicate-parameters"
	IgnoreIssuer          Fault = "LA-OAU-19/ignore-issuer"
	IgnoreAuthorizeError  Fault = "LA-OAU-20/exchange-after-cancelled-authorization"
	IgnoreAllowedOrigins  Fault = "LA-OAU-21/ignore-allowedOrigins"
	MCPOriginNotImplied   Fault = "LA-OAU-22/mcp-origin-not-implied"
	LooseServerURL        Fault = "LA-OAU-23/loose-serverUrl-match"
	CarryCredentials      Fault = "LA-OAU-24/skip-serverUrl-check"
	AllowPlainHTTPTargets Fault = "LA-OAU-25/allow-plain-http-targets"
	FollowOAuthRedirects  Fault = "LA-OAU-26/follow-oauth-redirects"
	OAuthWithHeaders      Fault = "LA-OAU-27/allow-headers-with-oauth"
	AcceptDPoP            Fault = "LA-OAU-28/accept-dpop-tokens"
	LeakTokenInList       Fault = "LA-OAU-29/token-in-list"
	LogErrorDescription   Fault = "LA-OAU-30/log-error-descriptions"
	LongLoginDeadline     Fault = "LA-OAU-31/login-deadline-300s"
	AnyLoginTimeout       Fault = "LA-OAU-32/accept-any-login-timeout"
	UnboundedAuthRequests Fault = "LA-OAU-33/unbounded-auth-requests"
	LoginOn401            Fault = "LA-OAU-34/login-on-401"
	UnmergedRefresh       Fault = "LA-OAU-35/unmerged-refreshes"
	RefreshOn403          Fault = "LA-OAU-36/refresh-on-403"
	ReloginDuringRun      Fault = "LA-OAU-37/relogin-during-run"
	RetryTwice            Fault = "LA-OAU-38/resend-twice-after-refresh"
	CCIgnored             Fault = "LA-CC-01/client-credentials-ignored"
	CCAuthorize           Fault = "LA-CC-02/client-credentials-visit-authorization"
	IgnoreExpectedIssuer  Fault = "LA-CC-03/ignore-expected-issuer"
	CCIgnoresOrigins      Fault = "LA-CC-04/client-credentials-ignore-target-rules"

	// The official client's shapes (LA-OAU-15 and the rules of their
	// failures).
	IgnoreResourceMetadataParam Fault = "LA-OAU-15/ignore-resource-metadata-parameter"
	NoRootResourceMetadata      Fault = "LA-OAU-15/no-root-resource-metadata"
	NoOriginFallback            Fault = "LA-OAU-15/no-origin-as-authorization-server"
	NoOpenIDDiscovery           Fault = "LA-OAU-15/no-openid-discovery"
	AppendWellKnown             Fault = "LA-OAU-15/append-well-known-to-issuer"
	RFC8414RootForPaths         Fault = "LA-OAU-15/rfc8414-root-for-path-issuers"
	NoApplicationType           Fault = "LA-OAU-15/no-application-type"
	DeriveApplicationType       Fault = "LA-OAU-15/override-application-type"
	RegistrationDefaults        Fault = "LA-OAU-15/registration-adds-auth-method-and-response-types"
	SecretAlwaysBasic           Fault = "LA-OAU-15/secret-always-basic"
	SecretAlwaysInForm          Fault = "LA-OAU-15/secret-always-in-form"
	NoScope                     Fault = "LA-OAU-15/no-scope-in-authorization"
	IgnoreChallengeScope        Fault = "LA-OAU-15/ignore-challenge-scope"
	NoOfflineAccess             Fault = "LA-OAU-15/no-offline-access"
	IgnoreMetadataDocuments     Fault = "LA-OAU-15/register-despite-client-metadata-document"
	MetadataDocumentAlways      Fault = "LA-OAU-15/client-metadata-url-without-support"
	ClientNotBound              Fault = "LA-OAU-15/client-not-bound-to-issuer"
	TokensNotBound              Fault = "LA-OAU-15/tokens-not-bound-to-issuer"
	ServerURLAsResource         Fault = "LA-OAU-15/server-url-as-resource"
	AnyResource                 Fault = "LA-OAU-15/accept-any-metadata-resource"
	ExactResourceMatch          Fault = "LA-OAU-15/exact-metadata-resource"
	NoRefreshResource           Fault = "LA-OAU-15/refresh-without-resource"
	AuthFailureAsTransport      Fault = "LA-OAU-15/refusals-as-transport-errors"
	RegisterDuringRun           Fault = "LA-OAU-37/register-at-new-server-during-run"
	CCAlwaysBasic               Fault = "LA-CC-01/client-credentials-always-basic"
)

// oauthFaults describes the faults of the OAuth rules (LA-OAU, LA-CC).
var oauthFaults = map[Fault]string{
	OAuthOnlyOption:       "applies mcpOAuth only to servers of the mcpServers option",
	FileToken:             `accepts a "token" key in mcps.json and sends it as a Bearer token`,
	ListenOnCallback:      "listens on the redirect URL's port during a login",
	NoState:               "sends the authorization URL without a state",
	ExchangeLateCode:      "redeems a code that authorize() returned after the login ended",
	UseProviderState:      "takes the state from the provider's state() when it has one",
	CacheTokens:           "keeps tokens to itself instead of saving them in the provider",
	ShareProvider:         "lets one provider serve several active connections",
	InvalidateOnClose:     "calls invalidateCredentials when a connection closes",
	RevokeOnClose:         "revokes the token when a connection closes",
	AlwaysLogin:           "logs in even when the provider holds tokens",
	ResumeLogin:           "reuses an earlier login's code verifier and accepts its state",
	NoResourceParam:       "leaves the resource parameter out of the authorization",
	PredictableState:      "uses a fixed state",
	SkipStateCheck:        "does not check the callback's state",
	LooseRedirectCheck:    "does not check the callback URL against the redirect URL",
	AcceptDuplicateParams: "accepts callbacks with repeated parameters",
	IgnoreIssuer:          "checks neither the callback's iss nor the metadata's issuer",
	IgnoreAuthorizeError:  "goes on to the code exchange after a cancelled authorization",
	IgnoreAllowedOrigins:  "contacts OAuth endpoints on any origin",
	MCPOriginNotImplied:   "does not allow the MCP server's own origin unless listed",
	LooseServerURL:        "matches serverUrl ignoring case, default ports and a trailing slash",
	CarryCredentials:      "does not compare serverUrl with the server's URL",
	AllowPlainHTTPTargets: "accepts OAuth endpoints and allowedOrigins over plain HTTP to any host",
	FollowOAuthRedirects:  "follows redirects of OAuth endpoints",
	OAuthWithHeaders:      "accepts static headers beside an mcpOAuth binding",
	AcceptDPoP:            "accepts DPoP tokens as if they were Bearer tokens",
	LeakTokenInList:       "shows the access token in list()",
	LogErrorDescription:   "logs the authorization server's error descriptions",
	LongLoginDeadline:     "gives a first connection and login 300 s by default",
	AnyLoginTimeout:       "accepts any mcpOAuth timeoutMs",
	UnboundedAuthRequests: "does not bound OAuth requests by the server's timeout",
	LoginOn401:            "logs in interactively when a run gets a 401",
	UnmergedRefresh:       "refreshes once per 401, even concurrent ones",
	RefreshOn403:          "refreshes and retries after a 403",
	ReloginDuringRun:      "logs in interactively during a run when a refresh fails",
	RetryTwice:            "sends a refused request twice after a refresh",
	CCIgnored:             "ignores client-credentials bindings",
	CCAuthorize:           "visits the authorization endpoint in the client-credentials flow",
	IgnoreExpectedIssuer:  "sends the client secret whatever the issuer",
	CCIgnoresOrigins:      "applies no target rules to the client-credentials flow",

	IgnoreResourceMetadataParam: "looks for the resource metadata at the well-known URLs even when the 401 names it",
	NoRootResourceMetadata:      "never tries the root well-known URL of the resource metadata",
	NoOriginFallback:            "fails when no resource metadata names an authorization server, instead of trying the MCP origin",
	NoOpenIDDiscovery:           "looks for RFC 8414 metadata only, never OpenID Connect discovery",
	AppendWellKnown:             "appends the well-known suffix to the issuer instead of inserting it",
	RFC8414RootForPaths:         "tries the root RFC 8414 URL for an issuer with a path",
	NoApplicationType:           "registers without application_type",
	DeriveApplicationType:       "replaces the host's application_type by the one it derives",
	RegistrationDefaults:        "registers with token_endpoint_auth_method none and response_types code when the host set none",
	SecretAlwaysBasic:           "sends a client secret in HTTP Basic whatever the registration and the server say",
	SecretAlwaysInForm:          "sends a client secret in the form whatever the registration and the server say",
	NoScope:                     "never asks for a scope in the authorization request",
	IgnoreChallengeScope:        "ignores the scope of the 401's challenge",
	NoOfflineAccess:             "never adds offline_access to the scope",
	IgnoreMetadataDocuments:     "registers dynamically even when the server supports client ID metadata documents",
	MetadataDocumentAlways:      "uses the client metadata URL as client_id on servers that do not support it",
	ClientNotBound:              "uses a stored client with whichever authorization server the resource names",
	TokensNotBound:              "refreshes stored tokens at whichever authorization server the resource names",
	ServerURLAsResource:         "sends the MCP URL as the resource instead of the resource metadata's resource",
	AnyResource:                 "accepts resource metadata for any resource",
	ExactResourceMatch:          "refuses resource metadata whose resource is a parent of the MCP URL",
	NoRefreshResource:           "refreshes without the resource parameter",
	AuthFailureAsTransport:      "reports a 401 or 403 that stays, on connecting, as a transport or protocol failure",
	RegisterDuringRun:           "registers with the new authorization server when a refresh during a run finds the server moved",
	CCAlwaysBasic:               "sends client credentials in HTTP Basic even when the server supports only the form",
}

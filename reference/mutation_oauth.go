package reference

import "maps"

// The mutations of the OAuth rules (LA-OAU, LA-CC), kept apart from the
// rest for legibility; [Mutants] holds them all.
const (
	MutOAuthOnlyOption       Mutation = "LA-OAU-01/bind-only-mcpServers-entries"
	MutFileToken             Mutation = "LA-OAU-02/file-token-as-bearer"
	MutListenOnCallback      Mutation = "LA-OAU-03/listen-on-callback-port"
	MutNoState               Mutation = "LA-OAU-04/authorization-url-without-state"
	MutExchangeLateCode      Mutation = "LA-OAU-05/exchange-late-code"
	MutUseProviderState      Mutation = "LA-OAU-07/use-provider-state"
	MutCacheTokens           Mutation = "LA-OAU-08/tokens-kept-outside-the-provider"
	MutShareProvider         Mutation = "LA-OAU-10/share-provider"
	MutInvalidateOnClose     Mutation = "LA-OAU-11/invalidate-credentials-on-close"
	MutRevokeOnClose         Mutation = "LA-OAU-12/revoke-on-close"
	MutAlwaysLogin           Mutation = "LA-OAU-13/ignore-saved-tokens"
	MutResumeLogin           Mutation = "LA-OAU-14/resume-earlier-login"
	MutNoResourceParam       Mutation = "LA-OAU-15/no-resource-parameter"
	MutPredictableState      Mutation = "LA-OAU-16/predictable-state"
	MutSkipStateCheck        Mutation = "LA-OAU-17/skip-state-check"
	MutLooseRedirectCheck    Mutation = "LA-OAU-17/loose-redirect-check"
	MutAcceptDuplicateParams Mutation = "LA-OAU-18/accept-duplicate-parameters"
	MutIgnoreIssuer          Mutation = "LA-OAU-19/ignore-issuer"
	MutIgnoreAuthorizeError  Mutation = "LA-OAU-20/exchange-after-cancelled-authorization"
	MutIgnoreAllowedOrigins  Mutation = "LA-OAU-21/ignore-allowedOrigins"
	MutMCPOriginNotImplied   Mutation = "LA-OAU-22/mcp-origin-not-implied"
	MutLooseServerURL        Mutation = "LA-OAU-23/loose-serverUrl-match"
	MutCarryCredentials      Mutation = "LA-OAU-24/skip-serverUrl-check"
	MutAllowPlainHTTPTargets Mutation = "LA-OAU-25/allow-plain-http-targets"
	MutFollowOAuthRedirects  Mutation = "LA-OAU-26/follow-oauth-redirects"
	MutOAuthWithHeaders      Mutation = "LA-OAU-27/allow-headers-with-oauth"
	MutAcceptDPoP            Mutation = "LA-OAU-28/accept-dpop-tokens"
	MutLeakTokenInList       Mutation = "LA-OAU-29/token-in-list"
	MutLogErrorDescription   Mutation = "LA-OAU-30/log-error-descriptions"
	MutLongLoginDeadline     Mutation = "LA-OAU-31/login-deadline-300s"
	MutAnyLoginTimeout       Mutation = "LA-OAU-32/accept-any-login-timeout"
	MutUnboundedAuthRequests Mutation = "LA-OAU-33/unbounded-auth-requests"
	MutLoginOn401            Mutation = "LA-OAU-34/login-on-401"
	MutUnmergedRefresh       Mutation = "LA-OAU-35/unmerged-refreshes"
	MutRefreshOn403          Mutation = "LA-OAU-36/refresh-on-403"
	MutReloginDuringRun      Mutation = "LA-OAU-37/relogin-during-run"
	MutRetryTwice            Mutation = "LA-OAU-38/resend-twice-after-refresh"
	MutCCIgnored             Mutation = "LA-CC-01/client-credentials-ignored"
	MutCCAuthorize           Mutation = "LA-CC-02/client-credentials-visit-authorization"
	MutIgnoreExpectedIssuer  Mutation = "LA-CC-03/ignore-expected-issuer"
	MutCCIgnoresOrigins      Mutation = "LA-CC-04/client-credentials-ignore-target-rules"

	// The official client's shapes (LA-OAU-15 and the rules of their
	// failures).
	MutIgnoreResourceMetadataParam Mutation = "LA-OAU-15/ignore-resource-metadata-parameter"
	MutNoRootResourceMetadata      Mutation = "LA-OAU-15/no-root-resource-metadata"
	MutNoOriginFallback            Mutation = "LA-OAU-15/no-origin-as-authorization-server"
	MutNoOpenIDDiscovery           Mutation = "LA-OAU-15/no-openid-discovery"
	MutAppendWellKnown             Mutation = "LA-OAU-15/append-well-known-to-issuer"
	MutRFC8414RootForPaths         Mutation = "LA-OAU-15/rfc8414-root-for-path-issuers"
	MutNoApplicationType           Mutation = "LA-OAU-15/no-application-type"
	MutDeriveApplicationType       Mutation = "LA-OAU-15/override-application-type"
	MutRegistrationDefaults        Mutation = "LA-OAU-15/registration-adds-auth-method-and-response-types"
	MutSecretAlwaysBasic           Mutation = "LA-OAU-15/secret-always-basic"
	MutSecretAlwaysInForm          Mutation = "LA-OAU-15/secret-always-in-form"
	MutNoScope                     Mutation = "LA-OAU-15/no-scope-in-authorization"
	MutIgnoreChallengeScope        Mutation = "LA-OAU-15/ignore-challenge-scope"
	MutNoOfflineAccess             Mutation = "LA-OAU-15/no-offline-access"
	MutIgnoreMetadataDocuments     Mutation = "LA-OAU-15/register-despite-client-metadata-document"
	MutMetadataDocumentAlways      Mutation = "LA-OAU-15/client-metadata-url-without-support"
	MutClientNotBound              Mutation = "LA-OAU-15/client-not-bound-to-issuer"
	MutTokensNotBound              Mutation = "LA-OAU-15/tokens-not-bound-to-issuer"
	MutServerURLAsResource         Mutation = "LA-OAU-15/server-url-as-resource"
	MutAnyResource                 Mutation = "LA-OAU-15/accept-any-metadata-resource"
	MutExactResourceMatch          Mutation = "LA-OAU-15/exact-metadata-resource"
	MutNoRefreshResource           Mutation = "LA-OAU-15/refresh-without-resource"
	MutAuthFailureAsTransport      Mutation = "LA-OAU-15/refusals-as-transport-errors"
	MutRegisterDuringRun           Mutation = "LA-OAU-37/register-at-new-server-during-run"
	MutCCAlwaysBasic               Mutation = "LA-CC-01/client-credentials-always-basic"
)

func init() {
	maps.Copy(Mutants, map[Mutation]string{
		MutOAuthOnlyOption:       "applies mcpOAuth only to servers of the mcpServers option",
		MutFileToken:             `accepts a "token" key in mcps.json and sends it as a Bearer token`,
		MutListenOnCallback:      "listens on the redirect URL's port during a login",
		MutNoState:               "sends the authorization URL without a state",
		MutExchangeLateCode:      "redeems a code that authorize() returned after the login ended",
		MutUseProviderState:      "takes the state from the provider's state() when it has one",
		MutCacheTokens:           "keeps tokens to itself instead of saving them in the provider",
		MutShareProvider:         "lets one provider serve several active connections",
		MutInvalidateOnClose:     "calls invalidateCredentials when a connection closes",
		MutRevokeOnClose:         "revokes the token when a connection closes",
		MutAlwaysLogin:           "logs in even when the provider holds tokens",
		MutResumeLogin:           "reuses an earlier login's code verifier and accepts its state",
		MutNoResourceParam:       "leaves the resource parameter out of the authorization",
		MutPredictableState:      "uses a fixed state",
		MutSkipStateCheck:        "does not check the callback's state",
		MutLooseRedirectCheck:    "does not check the callback URL against the redirect URL",
		MutAcceptDuplicateParams: "accepts callbacks with repeated parameters",
		MutIgnoreIssuer:          "checks neither the callback's iss nor the metadata's issuer",
		MutIgnoreAuthorizeError:  "goes on to the code exchange after a cancelled authorization",
		MutIgnoreAllowedOrigins:  "contacts OAuth endpoints on any origin",
		MutMCPOriginNotImplied:   "does not allow the MCP server's own origin unless listed",
		MutLooseServerURL:        "matches serverUrl ignoring case, default ports and a trailing slash",
		MutCarryCredentials:      "does not compare serverUrl with the server's URL",
		MutAllowPlainHTTPTargets: "accepts OAuth endpoints and allowedOrigins over plain HTTP to any host",
		MutFollowOAuthRedirects:  "follows redirects of OAuth endpoints",
		MutOAuthWithHeaders:      "accepts static headers beside an mcpOAuth binding",
		MutAcceptDPoP:            "accepts DPoP tokens as if they were Bearer tokens",
		MutLeakTokenInList:       "shows the access token in list()",
		MutLogErrorDescription:   "logs the authorization server's error descriptions",
		MutLongLoginDeadline:     "gives a first connection and login 300 s by default",
		MutAnyLoginTimeout:       "accepts any mcpOAuth timeoutMs",
		MutUnboundedAuthRequests: "does not bound OAuth requests by the server's timeout",
		MutLoginOn401:            "logs in interactively when a run gets a 401",
		MutUnmergedRefresh:       "refreshes once per 401, even concurrent ones",
		MutRefreshOn403:          "refreshes and retries after a 403",
		MutReloginDuringRun:      "logs in interactively during a run when a refresh fails",
		MutRetryTwice:            "sends a refused request twice after a refresh",
		MutCCIgnored:             "ignores client-credentials bindings",
		MutCCAuthorize:           "visits the authorization endpoint in the client-credentials flow",
		MutIgnoreExpectedIssuer:  "sends the client secret whatever the issuer",
		MutCCIgnoresOrigins:      "applies no target rules to the client-credentials flow",

		MutIgnoreResourceMetadataParam: "looks for the resource metadata at the well-known URLs even when the 401 names it",
		MutNoRootResourceMetadata:      "never tries the root well-known URL of the resource metadata",
		MutNoOriginFallback:            "fails when no resource metadata names an authorization server, instead of trying the MCP origin",
		MutNoOpenIDDiscovery:           "looks for RFC 8414 metadata only, never OpenID Connect discovery",
		MutAppendWellKnown:             "appends the well-known suffix to the issuer instead of inserting it",
		MutRFC8414RootForPaths:         "tries the root RFC 8414 URL for an issuer with a path",
		MutNoApplicationType:           "registers without application_type",
		MutDeriveApplicationType:       "replaces the host's application_type by the one it derives",
		MutRegistrationDefaults:        "registers with token_endpoint_auth_method none and response_types code when the host set none",
		MutSecretAlwaysBasic:           "sends a client secret in HTTP Basic whatever the registration and the server say",
		MutSecretAlwaysInForm:          "sends a client secret in the form whatever the registration and the server say",
		MutNoScope:                     "never asks for a scope in the authorization request",
		MutIgnoreChallengeScope:        "ignores the scope of the 401's challenge",
		MutNoOfflineAccess:             "never adds offline_access to the scope",
		MutIgnoreMetadataDocuments:     "registers dynamically even when the server supports client ID metadata documents",
		MutMetadataDocumentAlways:      "uses the client metadata URL as client_id on servers that do not support it",
		MutClientNotBound:              "uses a stored client with whichever authorization server the resource names",
		MutTokensNotBound:              "refreshes stored tokens at whichever authorization server the resource names",
		MutServerURLAsResource:         "sends the MCP URL as the resource instead of the resource metadata's resource",
		MutAnyResource:                 "accepts resource metadata for any resource",
		MutExactResourceMatch:          "refuses resource metadata whose resource is a parent of the MCP URL",
		MutNoRefreshResource:           "refreshes without the resource parameter",
		MutAuthFailureAsTransport:      "reports a 401 or 403 that stays, on connecting, as a transport or protocol failure",
		MutRegisterDuringRun:           "registers with the new authorization server when a refresh during a run finds the server moved",
		MutCCAlwaysBasic:               "sends client credentials in HTTP Basic even when the server supports only the form",
	})
}

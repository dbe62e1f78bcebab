package corrupt

// Corruptions of Blade's OAuth: an oauth block the implementation ignores
// or misreads, a redirect URI override it drops, and a browser it never opens.

func init() {
	register(
		Corruption{
			Name:   "oauth-block-dropped",
			Breaks: "connects a Blade server without the OAuth its oauth block turns on",
			Rules:  []string{"BL-OAU-01", "BL-OAU-03", "BL-OAU-06", "BL-OAU-07"},
			New:    hookFn(eachEntry(func(_ string, e Object) { delete(e, "oauth") })),
		},
		Corruption{
			Name:   "oauth-enabled-false-ignored",
			Breaks: "reads an oauth block's enabled: false as unset, and runs the flow",
			Rules:  []string{"BL-OAU-02"},
			New: hookFn(eachEntry(func(_ string, e Object) {
				if o := e.Object("oauth"); o != nil {
					if on, ok := o["enabled"].(bool); ok && !on {
						delete(o, "enabled")
					}
				}
			})),
		},
		Corruption{
			Name:   "redirect-override-ignored",
			Breaks: "ignores the session's OAuth redirect URI, whatever it is, and redirects to its default",
			Rules:  []string{"BL-OAU-03", "BL-OAU-04", "BL-OAU-05"},
			New:    hookFn(stripOption("oauthRedirectUri")),
		},
		Corruption{
			Name:   "browser-never-opened",
			Breaks: "gives up a Blade login instead of opening the user's browser at the authorization URL",
			Rules:  []string{"BL-OAU-01", "BL-OAU-03", "BL-OAU-06", "BL-OAU-07"},
			New: hookFn(onRequest("host/authorize", func(s *State, m *Msg) []*Msg {
				if m.Kind != Request || s.Options(agentOf(m)).String("system") != "blade" {
					return []*Msg{m}
				}
				return []*Msg{s.Fail(m, "cancelled", "the browser was never opened")}
			})),
		},
	)
}

package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps that try every character outside a character set the rules
// specify: a set is only shown to be enforced when each character it
// leaves out is refused, the ASCII controls included, and a few non-ASCII
// ones that fold to ASCII letters or look like them.

// registerCharsetSteps defines the steps whose methods are in this file.
func (w *world) registerCharsetSteps(sc stepDefiner) {
	sc.Step(`^"([^"]*)" is declared through register\(\) under every alias that puts one character other than a letter, a digit, "_" or "-" into "([^"]*)"$`, w.declaredUnderEveryAlias)
	sc.Step(`^"([^"]*)" is declared through register\(\) with every header name that puts one character outside the HTTP token characters into "([^"]*)"$`, w.declaredWithEveryHeaderName)
	sc.Step(`^"([^"]*)" is declared through register\(\) with every header value HTTP cannot carry as it is, made from "([^"]*)"$`, w.declaredWithEveryBadValue)
	sc.Step(`^"([^"]*)" is declared as "([^"]*)" through register\(\) with the header "([^"]*)" holding every printable ASCII character, a space and a tab$`, w.declaredWithPrintableValue)
	sc.Step(`^every one of them fails with an? "([^"]*)"(?: or an? "([^"]*)")? error$`, w.everyOneFails)
	sc.Step(`^every HTTP request "([^"]*)" received carried that header$`, w.carriedThatHeader)
}

// charsetState is the slice of the world this file's steps own: what the character-set steps tried.
type charsetState struct {
	each   []eachTry // the declarations a step tried one by one
	header [2]string // a header a step declared, name and value
}

// foreignRunes are non-ASCII characters every character-set check tries
// besides the ASCII ones: a Latin letter, letters that fold to ASCII ones
// under Unicode case folding (ſ to s, the Kelvin sign to k, İ to i), a full-width
// letter, a CJK ideograph, an astral emoji, and invisible spaces.
var foreignRunes = []rune{'é', 'ſ', '\u212a', 'İ', 'Ａ', '文', '😀', '\u00a0', '\u200b', '\ufeff'}

// outside returns every ASCII character in returns false for, then the
// foreign runes.
func outside(in func(rune) bool) []rune {
	var out []rune
	for c := rune(0); c < 0x80; c++ {
		if !in(c) {
			out = append(out, c)
		}
	}
	return append(out, foreignRunes...)
}

// aliasChar is the alias character set of LA-NAME-03: ASCII letters,
// digits, '_' and '-' (interpretation A-06).
func aliasChar(c rune) bool {
	return c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// tokenChar is the character set of an HTTP field name, an RFC 9110
// token: ASCII letters, digits and !#$%&'*+-.^_`|~.
func tokenChar(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c < 0x80 && strings.ContainsRune("!#$%&'*+-.^_`|~", c)
}

// withRune returns s with c first and s with c after its first
// character: a check may look at the first character apart.
func withRune(s string, c rune) []string {
	return []string{string(c) + s, s[:1] + string(c) + s[1:]}
}

// printableValue is a header value of every printable ASCII character,
// with a space and a tab inside: what HTTP carries as it is.
func printableValue() string {
	var b strings.Builder
	for c := byte('!'); c <= '~'; c++ {
		b.WriteByte(c)
		if c == '?' {
			b.WriteString(" \t")
		}
	}
	return b.String()
}

// declaration is one register() a step that tries many makes: the alias,
// the entry, and what it tries, for failures.
type declaration struct {
	alias string
	entry json.RawMessage
	what  string
}

// eachTry is one declaration of a step that tries many: what it was and
// how it ended.
type eachTry struct {
	what string
	err  error
}

// registerEach registers entries one after the other, each a try of the
// world's current set ("every one of them").
func (w *world) registerEach(ctx context.Context, tries []declaration) error {
	if w.agent == nil {
		if err := w.createAgent(ctx); err != nil {
			return err
		}
		if err := w.needAgent(); err != nil {
			return err
		}
	}
	w.each = w.each[:0]
	for _, t := range tries {
		if err := w.register(ctx, t.alias, t.entry); err != nil {
			return err
		}
		w.each = append(w.each, eachTry{what: t.what, err: w.last.err})
	}
	return nil
}

// declaredUnderEveryAlias: When "h" is declared through register() under
// every alias that puts one character other than a letter, a digit, "_"
// or "-" into "ab"
func (w *world) declaredUnderEveryAlias(ctx context.Context, name, base string) error {
	if base == "" {
		return fmt.Errorf("the alias to put characters into is empty")
	}
	e, err := w.entry(name)
	if err != nil {
		return err
	}
	var tries []declaration
	for _, c := range outside(aliasChar) {
		for _, a := range withRune(base, c) {
			tries = append(tries, declaration{a, e, fmt.Sprintf("alias %q", a)})
		}
	}
	return w.registerEach(ctx, tries)
}

// declaredWithEveryHeaderName: When "h" is declared through register()
// with every header name that puts one character outside the HTTP token
// characters into "X-ab" — and with an empty name.
func (w *world) declaredWithEveryHeaderName(ctx context.Context, name, base string) error {
	if base == "" {
		return fmt.Errorf("the header name to put characters into is empty")
	}
	names := []string{""}
	for _, c := range outside(tokenChar) {
		names = append(names, withRune(base, c)...)
	}
	return w.registerHeaders(ctx, name, names, func(h string) (string, string) { return h, "v" }, "header name")
}

// declaredWithEveryBadValue: When "h" is declared through register() with
// every header value HTTP cannot carry as it is, made from "ab" — a
// control character in it (the tab aside), or whitespace at either end.
func (w *world) declaredWithEveryBadValue(ctx context.Context, name, base string) error {
	if base == "" {
		return fmt.Errorf("the header value to put characters into is empty")
	}
	var values []string
	for c := rune(0); c < 0x80; c++ {
		if c < 0x20 && c != '\t' || c == 0x7f {
			values = append(values, withRune(base, c)...)
		}
	}
	for _, ws := range []string{" ", "\t"} {
		values = append(values, ws+base, base+ws)
	}
	return w.registerHeaders(ctx, name, values, func(v string) (string, string) { return "X-Value", v }, "header value")
}

// registerHeaders registers fake name once for each of tries, with the
// header header(try) gives, as the world's set of declarations.
func (w *world) registerHeaders(ctx context.Context, name string, tries []string, header func(string) (string, string), what string) error {
	var ds []declaration
	for _, t := range tries {
		k, v := header(t)
		e, err := w.entryWithHeader(name, k, v)
		if err != nil {
			return err
		}
		ds = append(ds, declaration{name, e, fmt.Sprintf("%s %q", what, t)})
	}
	return w.registerEach(ctx, ds)
}

// entryWithHeader is the entry of HTTP fake name with one header.
func (w *world) entryWithHeader(name, k, v string) (json.RawMessage, error) {
	f, err := w.fake(name)
	if err != nil {
		return nil, err
	}
	if err := w.materialize(f); err != nil {
		return nil, err
	}
	if f.url == "" {
		return nil, fmt.Errorf("%q is not an HTTP server: headers need one", name)
	}
	return json.Marshal(map[string]any{"type": "http", "url": f.url, "headers": map[string]string{k: v}})
}

// declaredWithPrintableValue: When "h" is declared as "search" through
// register() with the header "X-Printable" holding every printable ASCII
// character, a space and a tab
func (w *world) declaredWithPrintableValue(ctx context.Context, name, alias, header string) error {
	value := printableValue()
	e, err := w.entryWithHeader(name, header, value)
	if err != nil {
		return err
	}
	w.header = [2]string{header, value}
	return w.declare(ctx, alias, e, srcRegister)
}

// carriedThatHeader: Then every HTTP request "h" received carried that header
func (w *world) carriedThatHeader(name string) error {
	if w.header[0] == "" {
		return fmt.Errorf("no step declared a header to look for")
	}
	return w.everyRequestCarried(name, false, w.header[0], w.header[1])
}

// everyOneFails: Then every one of them fails with a "name" error [or a "config" one]
func (w *world) everyOneFails(kind1, kind2 string) error {
	if len(w.each) == 0 {
		return fmt.Errorf("no step tried a set of declarations: \"every one of them\" refers to one")
	}
	var wrong []string
	for _, t := range w.each {
		switch {
		case t.err == nil:
			wrong = append(wrong, t.what+" was accepted")
		case !kindIs(t.err, kind1) && (kind2 == "" || !kindIs(t.err, kind2)):
			wrong = append(wrong, fmt.Sprintf("%s failed with %s", t.what, safetext.Cap(errText(t.err), 160)))
		}
	}
	want := strings.Trim(kind1+" or "+kind2, " or")
	shown := wrong[:min(len(wrong), 10)]
	return w.expect(len(wrong) == 0, fmt.Sprintf("each of the %d declarations fails with a %s error", len(w.each), want),
		"%d did not: %s", len(wrong), strings.Join(shown, "; "))
}

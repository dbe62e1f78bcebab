// Package jsontext writes JSON as a peer of the protocol writes it: what
// json.Marshal writes, without escaping <, > and & (go-sdk's encoders do
// not), so that what the harness writes or searches for is the text as
// sent.
package jsontext

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping: compact, no trailing
// newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

package corrupt

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/mcpconform/mcpconform/internal/jsontext"
)

// Object is a decoded JSON object, for hooks that change a message without
// knowing every field of it: what they do not touch goes on as it came.
// Numbers stay [json.Number]; nested objects are Objects' maps, so changing
// one changes the whole.
type Object map[string]any

// objectOf decodes raw as an object; anything else is an empty Object.
func objectOf(raw json.RawMessage) Object {
	v := decodeAny(raw)
	if o := asObject(v); o != nil {
		return o
	}
	return Object{}
}

// decodeAny decodes raw, keeping numbers as written; nil when it does not
// decode.
func decodeAny(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// editObject decodes raw as an object, lets f change it, and encodes it
// with its keys in the order they were written (keys f adds come after
// them, sorted): what f does not touch goes on as it came, the order of an
// mcpServers option included. Raw that is not an object is returned
// unchanged.
func editObject(raw json.RawMessage, f func(Object)) json.RawMessage {
	v, order, err := decodeOrdered(raw)
	o := asObject(v)
	if err != nil || o == nil {
		return raw
	}
	f(o)
	var b bytes.Buffer
	if order.encode(&b, o) != nil || bytes.Equal(b.Bytes(), raw) {
		return raw
	}
	return b.Bytes()
}

// rawOf encodes v.
func rawOf(v any) json.RawMessage {
	b, err := jsontext.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

// asObject returns v as an Object, or nil when it is not one.
func asObject(v any) Object {
	switch o := v.(type) {
	case map[string]any:
		return Object(o)
	case Object:
		return o
	}
	return nil
}

// Object returns the object under key, or nil.
func (o Object) Object(key string) Object { return asObject(o[key]) }

// Objects returns the objects of the array under key, skipping anything
// else.
func (o Object) Objects(key string) []Object {
	var out []Object
	for _, v := range o.List(key) {
		if x := asObject(v); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// List returns the array under key, or nil.
func (o Object) List(key string) []any {
	l, _ := o[key].([]any)
	return l
}

// String returns the string under key, or "".
func (o Object) String(key string) string {
	s, _ := o[key].(string)
	return s
}

// Strings returns the strings of the array under key.
func (o Object) Strings(key string) []string {
	var out []string
	for _, v := range o.List(key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Bool returns the boolean under key, or false.
func (o Object) Bool(key string) bool {
	b, _ := o[key].(bool)
	return b
}

// keyOrder remembers the order of the keys of each object a decode made,
// by the object's map.
type keyOrder map[uintptr][]string

// mapID identifies a decoded object's map.
func mapID(o Object) uintptr { return reflect.ValueOf(o).Pointer() }

// decodeOrdered decodes raw as decodeAny does, remembering the order of
// every object's keys.
func decodeOrdered(raw json.RawMessage) (any, keyOrder, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	order := keyOrder{}
	v, err := order.decode(dec)
	return v, order, err
}

// decode reads one value from dec.
func (ko keyOrder) decode(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := map[string]any{}
		var keys []string
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := ko.decode(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := o[k]; !dup {
				keys = append(keys, k)
			}
			o[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		ko[mapID(o)] = keys
		return o, nil
	case json.Delim('['):
		l := []any{}
		for dec.More() {
			v, err := ko.decode(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return l, nil
	}
	return t, nil
}

// encode writes v, objects with their keys in the remembered order.
func (ko keyOrder) encode(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case map[string]any, Object:
		o := asObject(x)
		keys := slices.DeleteFunc(slices.Clone(ko[mapID(o)]), func(k string) bool { _, ok := o[k]; return !ok })
		var added []string
		for k := range o {
			if !slices.Contains(keys, k) {
				added = append(added, k)
			}
		}
		slices.Sort(added)
		b.WriteByte('{')
		for i, k := range append(keys, added...) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(rawOf(k))
			b.WriteByte(':')
			if err := ko.encode(b, o[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := ko.encode(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		raw, err := jsontext.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(raw)
	}
	return nil
}

// keysInOrder returns the keys of the object raw in the order they are
// written (a decoded map forgets it).
func keysInOrder(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

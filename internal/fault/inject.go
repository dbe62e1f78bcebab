package fault

import (
	"fmt"
	"reflect"
	"sync"
)

// setters holds, for each options type of a product package, the function
// that gives such options a fault set.
var setters sync.Map // reflect.Type → func(any, Set)

// Register is called by a product package of the reference, in an init
// function, with the one function that stores a fault set in its options
// type O (an unexported field): the package's public API then takes no
// fault, and only [Inject] gives one.
func Register[O any](set func(*O, Set)) {
	setters.Store(reflect.TypeFor[O](), func(o any, s Set) { set(o.(*O), s) })
}

// Inject gives the options *o the fault set s, through the setter the
// package of O registered. It panics when that package registered none:
// O is not the options type of a product package.
func Inject[O any](o *O, s Set) {
	fn, ok := setters.Load(reflect.TypeFor[O]())
	if !ok {
		panic(fmt.Sprintf("fault.Inject: %v takes no faults (its package registered no setter)", reflect.TypeFor[O]()))
	}
	fn.(func(any, Set))(o, s)
}

// twins holds, by the name of a public function of a product package, its
// twin that also takes a fault set.
var twins sync.Map // string → any

// RegisterTwin is called by a product package of the reference, in an init
// function, with the twin of one of its public functions: the same
// function with a fault set as its last parameter, registered under the
// public function's name ("reference.DecodeServers"). The public function
// then takes no fault, and only [Twin] reaches the twin. It serves the
// rules a public function enforces before any host exists, such as
// decoding JSON (timeoutMs 0 is refused there, LA-TMO-03).
func RegisterTwin[F any](name string, fn F) { twins.Store(name, fn) }

// Twin returns the twin registered under name. It panics when none is, or
// when it is not an F: a bug of this module, not of its input.
func Twin[F any](name string) F {
	v, ok := twins.Load(name)
	if !ok {
		panic(fmt.Sprintf("fault.Twin: no twin of %s is registered", name))
	}
	fn, ok := v.(F)
	if !ok {
		panic(fmt.Sprintf("fault.Twin: the twin of %s is a %T, not a %v", name, v, reflect.TypeFor[F]()))
	}
	return fn
}

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

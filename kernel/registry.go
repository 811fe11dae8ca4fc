package kernel

import (
	"fmt"
	"sync/atomic"

	"github.com/goten-ml/goten/device"
)

// Note [Backend per device]
//
// There is no process-wide backend: each op runs on the backend of its
// operands' device, looked up here by the device's kind. Backends register
// themselves when their package is initialised (backend/cpu for the CPU,
// backend/ref for the Ref device), so a program gets a backend by
// importing its package, and tests run two backends side by side simply by
// making tensors on two devices. The table is written at init and read on
// every op; its entries are atomic so that a late registration is never a
// data race.

var registry [device.NumKinds]atomic.Pointer[registered]

type registered struct{ b Backend }

// Register makes b the backend of device kind k, replacing any earlier one.
func Register(k device.Kind, b Backend) {
	if k >= device.NumKinds {
		panic(fmt.Sprintf("kernel: register a backend for device kind %d", k))
	}
	registry[k].Store(&registered{b})
}

// For returns the backend of device d, or an error if none is registered
// (its package is not imported).
func For(d device.Device) (Backend, error) {
	if d.Kind < device.NumKinds {
		if r := registry[d.Kind].Load(); r != nil {
			return r.b, nil
		}
	}
	return nil, fmt.Errorf("kernel: no backend for device %s (import its backend package)", d)
}

// HostTransfer is [Backend.Transfer] between two host storages: a memmove.
func HostTransfer(dst *device.Storage, dstOff int, src *device.Storage, srcOff, nbytes int) error {
	if !dst.Device().IsHost() || !src.Device().IsHost() {
		return fmt.Errorf("kernel: host transfer from %s to %s", src.Device(), dst.Device())
	}
	if nbytes < 0 || dstOff < 0 || srcOff < 0 || dstOff+nbytes > dst.Len() || srcOff+nbytes > src.Len() {
		return fmt.Errorf("kernel: transfer of %d bytes at %d of %d into %d of %d out of range", nbytes, srcOff, src.Len(), dstOff, dst.Len())
	}
	if nbytes > 0 {
		copy(dst.Bytes()[dstOff:dstOff+nbytes], src.Bytes()[srcOff:srcOff+nbytes])
	}
	return nil
}

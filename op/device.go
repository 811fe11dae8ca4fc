package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/raw"
)

// Device returns the device an op over vs runs on: that of its first
// operand that is not a wrapped Go number (Go numbers live on the CPU and
// go wherever they are needed), or the CPU.
func Device(vs ...*raw.View) device.Device {
	for _, v := range vs {
		if v != nil && !v.Wrapped && v.Storage != nil {
			return v.Storage.Device()
		}
	}
	return device.Device{Kind: device.CPU}
}

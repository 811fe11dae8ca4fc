package tensor

import (
	"github.com/goten-ml/goten/backend/cpu"
	"github.com/goten-ml/goten/op"
)

// The default backend: every op runs on the CPU backend. This is the one
// place that names a backend.
func init() { op.Backend = cpu.New() }

package tensor

import (
	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/op"
)

// The default backend: every op runs on the reference backend until the CPU backend lands. This is the one
// place that names a backend.
func init() { op.Backend = ref.New() }

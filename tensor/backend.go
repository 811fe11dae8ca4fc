package tensor

// The CPU backend runs every op on CPU tensors: importing its package
// registers it (Note [Backend per device] in package kernel). This is the
// one place that names a backend.
import _ "github.com/goten-ml/goten/backend/cpu"

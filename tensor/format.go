package tensor

import (
	"github.com/goten-ml/goten/internal/repr"
	"github.com/goten-ml/goten/raw"
)

func format(v *raw.View) string { return repr.Format(v) }

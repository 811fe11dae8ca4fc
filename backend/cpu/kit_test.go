package cpu_test

import (
	"testing"

	"github.com/goten-ml/goten/backend/cpu"
	"github.com/goten-ml/goten/kernel/kerneltest"
)

// TestKit runs the backend conformance kit on the CPU backend.
func TestKit(t *testing.T) { kerneltest.Run(t, cpu.New()) }

package tensor_test

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// TestLossDTypeMatrix runs every loss of testdata/loss_dtypes.txt with x
// and t of every pair of dtypes, forward and backward, and checks what
// PyTorch 1.13 does there (the file is loss_dtypes.py's output): the
// kernels' dtype errors ("mse_cpu" not implemented for 'BFloat16', huber's
// result cast to x's dtype, binary_cross_entropy's float32/float64 only,
// the float16 backward kernels that do not exist), the backward's
// refusal of two dtypes, and the dtypes of the results and gradients.
// An error must have torch's kind and message, except where torch's
// message is not classified (kind None: any error will do) or is
// Subtraction's, whose wording for 1 − t with a bool t differs (a Python 1
// beside a bool tensor is a bool to PyTorch).
func TestLossDTypeMatrix(t *testing.T) {
	f, err := os.Open("testdata/loss_dtypes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	losses := map[string]func(x, t *tensor.Tensor, o ...tensor.LossOptions) *tensor.Tensor{
		"mse": tensor.MSELoss, "smoothl1": tensor.SmoothL1Loss, "huber": tensor.HuberLoss,
		"bce": tensor.BinaryCrossEntropy, "bcel": tensor.BinaryCrossEntropyWithLogits,
		"smoothl1b0": func(x, t *tensor.Tensor, o ...tensor.LossOptions) *tensor.Tensor {
			o[0].Beta, o[0].HasBeta = 0, true
			return tensor.SmoothL1Loss(x, t, o...)
		},
	}
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		lines++
		fs := strings.SplitN(sc.Text(), " ", 7)
		if len(fs) != 7 {
			t.Fatalf("line %d: %q", lines, sc.Text())
		}
		loss, red, mode, want := losses[fs[0]], tensor.LossReduction(fs[1]), fs[5], strings.TrimSpace(fs[6])
		n, _ := strconv.Atoi(fs[2])
		a, okA := dtype.Parse(fs[3])
		b, okB := dtype.Parse(fs[4])
		if loss == nil || !okA || !okB {
			t.Fatalf("line %d: %q", lines, sc.Text())
		}
		mk := func(d tensor.DType) *tensor.Tensor {
			return tensor.FromSlice([]float64{0.25, 0.5, 1}[:n], n).To(d)
		}
		var got string
		err := tensor.Try(func() {
			x, tt := mk(a), mk(b)
			if mode == "fwd" {
				got = loss(x, tt, tensor.LossOptions{Reduction: red}).DType().String()
				return
			}
			var ins []*tensor.Tensor
			for _, v := range []*tensor.Tensor{x, tt} {
				if v.DType().IsFloat() {
					ins = append(ins, v.SetRequiresGrad(true))
				}
			}
			y := loss(x, tt, tensor.LossOptions{Reduction: red})
			if len(ins) == 0 {
				got = "nograd"
				return
			}
			y.Sum().Backward()
			var gs []string
			for _, v := range ins {
				gs = append(gs, v.Grad().DType().String())
			}
			got = strings.Join(gs, "/")
		})
		what := strings.Join(fs[:6], " ")
		if !strings.HasPrefix(want, "E ") {
			if err != nil || got != want {
				t.Errorf("%s: got %q (error %v), want %q", what, got, err, want)
			}
			continue
		}
		w := strings.SplitN(want, " ", 3)
		var e *tensor.Error
		switch {
		case !errors.As(err, &e):
			t.Errorf("%s: got %q (error %v), want %s", what, got, err, want)
		case w[1] == "None":
		case e.Kind.String() != w[1]:
			t.Errorf("%s: got a %s error %q, want %s", what, e.Kind, e.Msg, want)
		case strings.HasPrefix(w[2], "Subtraction"):
		case !strings.HasPrefix(e.Msg, w[2]):
			t.Errorf("%s: got the message %q, want %q", what, e.Msg, w[2])
		}
	}
	if err := sc.Err(); err != nil || lines != 2400 {
		t.Fatalf("read %d lines of testdata/loss_dtypes.txt (error %v), want 2400", lines, err)
	}
}

package conform

import "github.com/goten-ml/goten/tensor"

// The linear-algebra ops (suite linalg).
func init() {
	add("matmul", func(c *call) result { return one(tensor.Matmul(c.tensor(0, "input"), c.tensor(1, "other"))) })
	add("mm", func(c *call) result { return one(tensor.Mm(c.tensor(0, "input"), c.tensor(1, "mat2"))) })
	add("bmm", func(c *call) result { return one(tensor.Bmm(c.tensor(0, "input"), c.tensor(1, "mat2"))) })
	add("mv", func(c *call) result { return one(tensor.Mv(c.tensor(0, "input"), c.tensor(1, "vec"))) })
	add("dot", func(c *call) result { return one(tensor.Dot(c.tensor(0, "input"), c.tensor(1, "other"))) })
	add("linear", func(c *call) result {
		var bias *tensor.Tensor
		if a, ok := c.opt(2, "bias", argTensor); ok {
			bias = a.t
		}
		return one(tensor.Linear(c.tensor(0, "input"), c.tensor(1, "weight"), bias))
	})
	add("addmm", func(c *call) result {
		return one(tensor.Addmm(c.tensor(0, "input"), c.tensor(1, "mat1"), c.tensor(2, "mat2"),
			c.number(-1, "beta"), c.number(-1, "alpha")))
	})
	add("baddbmm", func(c *call) result {
		return one(tensor.Baddbmm(c.tensor(0, "input"), c.tensor(1, "batch1"), c.tensor(2, "batch2"),
			c.number(-1, "beta"), c.number(-1, "alpha")))
	})
}

package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goten-ml/goten/dtype"
)

// castDType returns the dtype constant of a dtype's name.
func castDType(name string) string {
	d, _ := dtype.Parse(name)
	return dtypeName(d)
}

// cast types: name, Go type, size, kind.
type ctype struct {
	name, gotype string
	size         int
	kind         byte // 'b' bool, 'i' int, 'h' float16/bfloat16, 'f' float32/64
}

var ctypes = []ctype{
	{"bool", "bool", 1, 'b'},
	{"uint8", "uint8", 1, 'i'},
	{"int8", "int8", 1, 'i'},
	{"int16", "int16", 2, 'i'},
	{"int32", "int32", 4, 'i'},
	{"int64", "int64", 8, 'i'},
	{"float16", "dtype.Half", 2, 'h'},
	{"bfloat16", "dtype.BF16", 2, 'h'},
	{"float32", "float32", 4, 'f'},
	{"float64", "float64", 8, 'f'},
}

// conv returns the expression converting v (of src's read type: bool
// sources are read as uint8) to dst. See Note [Conversions] in cast.go.
func conv(src, dst ctype) string {
	switch {
	case src.name == dst.name:
		if src.kind == 'b' {
			return "v != 0"
		}
		return "v"
	case dst.kind == 'b':
		if src.kind == 'h' {
			return "uint16(v)&0x7fff != 0"
		}
		return "v != 0"
	case dst.name == "float16", dst.name == "bfloat16":
		from := "HalfFromFloat32"
		one := "0x3c00"
		if dst.name == "bfloat16" {
			from, one = "BF16FromFloat32", "0x3f80"
		}
		switch {
		case src.kind == 'b':
			return fmt.Sprintf("%s(uint16(v) * %s)", dst.gotype, one)
		case src.name == "float32":
			return "dtype." + from + "(v)"
		case src.kind == 'h':
			return "dtype." + from + "(v.Float32())"
		}
		return "dtype." + from + "(float32(v))"
	case src.kind == 'h':
		return convF32(dst, "v.Float32()")
	case src.kind == 'f' && dst.kind == 'i':
		return convF32(dst, "v")
	}
	return dst.gotype + "(v)"
}

// convF32 converts a float expression x to dst (not bool, not 16-bit).
func convF32(dst ctype, x string) string {
	if dst.kind == 'i' && dst.size < 4 {
		// narrow integers go through int64, so an out-of-range value
		// wraps as C++'s conversions do on x86 (cases never rely on it)
		return dst.gotype + "(int64(" + x + "))"
	}
	return dst.gotype + "(" + x + ")"
}

// vecConv names the internal/vec primitive for a contiguous conversion.
var vecConv = map[[2]string]string{
	{"float32", "float16"}:  "vec.F32ToF16(unsafe.Slice((*uint16)(dst), n), unsafe.Slice((*float32)(src), n))",
	{"float16", "float32"}:  "vec.F16ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*uint16)(src), n))",
	{"float32", "bfloat16"}: "vec.F32ToBF16(unsafe.Slice((*uint16)(dst), n), unsafe.Slice((*float32)(src), n))",
	{"bfloat16", "float32"}: "vec.BF16ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*uint16)(src), n))",
	{"int32", "float32"}:    "vec.I32ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*int32)(src), n))",
	{"float32", "float64"}:  "vec.F32ToF64(unsafe.Slice((*float64)(dst), n), unsafe.Slice((*float32)(src), n))",
	{"float64", "float32"}:  "vec.F64ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*float64)(src), n))",
}

func camel(s string) string {
	switch s {
	case "bfloat16":
		return "BFloat16"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func cpuCasts() []byte {
	var w bytes.Buffer
	w.WriteString(header("cpu"))
	w.WriteString("import (\n\"unsafe\"\n\n\"github.com/goten-ml/goten/backend/cpu/internal/vec\"\n\"github.com/goten-ml/goten/dtype\"\n)\n\n")
	for _, s := range ctypes {
		for _, d := range ctypes {
			read := s.gotype
			if s.kind == 'b' {
				read = "uint8"
			}
			fname := "cast" + camel(s.name) + "To" + camel(d.name)
			c := conv(s, d)
			fmt.Fprintf(&w, "// %s converts n elements: %s.\n", fname, c)
			fmt.Fprintf(&w, "func %s(dst, src unsafe.Pointer, ds, ss, n int) {\n", fname)
			fmt.Fprintf(&w, "if ds == %d && ss == %d {\n", d.size, s.size)
			if s.name == d.name {
				fmt.Fprintf(&w, "copy(unsafe.Slice((*byte)(dst), n*%d), unsafe.Slice((*byte)(src), n*%d))\nreturn\n}\n", d.size, s.size)
			} else if vc, ok := vecConv[[2]string{s.name, d.name}]; ok {
				fmt.Fprintf(&w, "%s\nreturn\n}\n", vc)
			} else {
				fmt.Fprintf(&w, "o := unsafe.Slice((*%s)(dst), n)\nx := unsafe.Slice((*%s)(src), n)[:len(o)]\nfor i, v := range x {\no[i] = %s\n}\nreturn\n}\n", d.gotype, read, c)
			}
			fmt.Fprintf(&w, "if ss == 0 {\nv := *(*%s)(src)\nr := %s\nif ds == %d {\no := unsafe.Slice((*%s)(dst), n)\nfor i := range o {\no[i] = r\n}\nreturn\n}\n", read, c, d.size, d.gotype)
			fmt.Fprintf(&w, "for i := 0; i < n; i++ {\n*(*%s)(unsafe.Add(dst, i*ds)) = r\n}\nreturn\n}\n", d.gotype)
			fmt.Fprintf(&w, "for i := 0; i < n; i++ {\nv := *(*%s)(unsafe.Add(src, i*ss))\n*(*%s)(unsafe.Add(dst, i*ds)) = %s\n}\n}\n\n", read, d.gotype, c)
		}
	}
	w.WriteString("// casts is the conversion table [src][dst].\nvar casts = [dtype.Count][dtype.Count]castFn{\n")
	for _, s := range ctypes {
		fmt.Fprintf(&w, "%s: {", castDType(s.name))
		for _, d := range ctypes {
			fmt.Fprintf(&w, "%s: cast%sTo%s, ", castDType(d.name), camel(s.name), camel(d.name))
		}
		w.WriteString("},\n")
	}
	w.WriteString("}\n")
	return w.Bytes()
}

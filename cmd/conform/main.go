// Command conform runs goten's conformance cases and prints the same report
// as the reference runner torch_runner.py:
//
//	go run ./cmd/conform [-v] [-run REGEXP] [-backend cpu|ref] PATH...
//
// PATH is a folder holding cases/*.jsonl, a folder of .jsonl files, or a
// .jsonl file (default testdata/conformance). The report is one
// `FAIL id: why` line per failing case, one `suite: P passed, F failed` line
// per suite and last `P passed, F failed`. The exit status is 0 only if every
// case passed and at least one did. -backend ref runs the cases on the
// reference backend (the scalar oracle) instead of the CPU backend.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"

	_ "github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/internal/conform"
	"github.com/goten-ml/goten/tensor"
)

func main() {
	verbose := flag.Bool("v", false, "also print a line for every passing case")
	run := flag.String("run", "", "run only the cases whose id matches this regular expression")
	backend := flag.String("backend", "cpu", "the backend to run the cases on: cpu, or ref (the reference backend, on the Ref device)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: conform [-v] [-run REGEXP] [-backend cpu|ref] PATH...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	dev := tensor.CPU
	switch *backend {
	case "cpu":
	case "ref":
		dev = tensor.Device{Kind: device.Ref}
	default:
		fmt.Fprintf(os.Stderr, "conform: unknown backend %q\n", *backend)
		os.Exit(2)
	}
	paths := flag.Args()
	if len(paths) == 0 {
		paths = []string{"testdata/conformance"}
	}
	var filter *regexp.Regexp
	if *run != "" {
		var err error
		if filter, err = regexp.Compile(*run); err != nil {
			fmt.Fprintln(os.Stderr, "conform:", err)
			os.Exit(2)
		}
	}
	cases, err := cases.Load(paths...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conform:", err)
		os.Exit(2)
	}
	report := conform.NewReport(os.Stdout)
	report.Verbose = *verbose
	for _, c := range cases {
		if filter != nil && !filter.MatchString(c.ID) {
			continue
		}
		report.Add(c, conform.Run(c, dev))
	}
	report.Finish()
	if !report.OK() {
		os.Exit(1)
	}
}

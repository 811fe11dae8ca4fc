// Package arch holds no code: its test checks that imports point only down
// the layers (tensor → op → iter/kernel → backends), as STYLE.md requires.
package arch

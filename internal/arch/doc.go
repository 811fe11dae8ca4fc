// Package arch holds no code: its tests hold the project's rules that a
// compiler does not. TestLayers checks that imports point only down the
// layers (tensor → op → iter/kernel → backends), as STYLE.md requires,
// every package placed in a layer on purpose (Note [Layers]); TestAPICovered
// that every exported function of the user API runs in some test.
package arch

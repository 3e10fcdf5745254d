// Package archtest holds the tests that keep the tree's rooms apart (see
// CONTRIBUTING.md): which package may import which, and that platform
// values are switched on in one place only. It has no code of its own.
package archtest

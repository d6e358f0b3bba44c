// Package activetest holds the fixtures the tests of package active and its
// subpackages share: a small synthetic screen with a known structure
// (Screen), the same on a panel of cell lines (PanelScreen), and a
// retrospective campaign configuration (Config). It is imported by tests
// only.
package activetest

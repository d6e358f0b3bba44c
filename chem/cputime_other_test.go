//go:build !unix

package chem

func cpuSeconds() float64 { return -1 }

//go:build amd64 && !purego && !openblas

package model

import "golang.org/x/sys/cpu"

//go:noescape
func kern6x16(k int, a, b, c *float32, ldc, ldb int)

var haveKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:build amd64 && !purego && !openblas

#include "textflag.h"

// func adamAVX(w, grad, m, v *float32, n int, c *[8]float32)
// Per element, rounding after every operation exactly as adamKernel does
// (no fused multiply-add; VSQRTPS and VDIVPS are correctly rounded):
//   gi = g + wd·w
//   m  = β1·m + (1−β1)·gi
//   v  = β2·v + ((1−β2)·gi)·gi
//   w  = w − (step·m) / (√v·rbc2 + ε)
// Constants Y8–Y15 (see register comments), work registers Y0–Y5.
TEXT ·adamAVX(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ v+24(FP), R8
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), AX
	VBROADCASTSS (AX), Y15   // wd
	VBROADCASTSS 4(AX), Y14  // β1
	VBROADCASTSS 8(AX), Y13  // 1−β1
	VBROADCASTSS 12(AX), Y12 // β2
	VBROADCASTSS 16(AX), Y11 // 1−β2
	VBROADCASTSS 20(AX), Y10 // step
	VBROADCASTSS 24(AX), Y9  // rbc2
	VBROADCASTSS 28(AX), Y8  // ε
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS (DI), Y0
	VMOVUPS (SI), Y1
	VMOVUPS (DX), Y2
	VMOVUPS (R8), Y3
	VMULPS  Y0, Y15, Y4 // wd·w
	VADDPS  Y4, Y1, Y1  // gi
	VMULPS  Y2, Y14, Y4 // β1·m
	VMULPS  Y1, Y13, Y5 // (1−β1)·gi
	VADDPS  Y5, Y4, Y2  // m
	VMULPS  Y3, Y12, Y4 // β2·v
	VMULPS  Y1, Y11, Y5 // (1−β2)·gi
	VMULPS  Y1, Y5, Y5  // ·gi
	VADDPS  Y5, Y4, Y3  // v
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, (R8)
	VSQRTPS Y3, Y4
	VMULPS  Y9, Y4, Y4  // √v·rbc2
	VADDPS  Y8, Y4, Y4  // + ε
	VMULPS  Y2, Y10, Y5 // step·m
	VDIVPS  Y4, Y5, Y5
	VSUBPS  Y5, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, R8
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET

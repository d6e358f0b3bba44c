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

// func spAccum64(idx *int32, val *float32, n int, src *float32, ld int, dst *float32)
// dst[0:64] = Σ_k val[k]·src[idx[k]·ld : idx[k]·ld+64], k = 0..n−1 in
// order, starting from zero; each term is rounded, then added (VMULPS,
// VADDPS: no fused multiply-add), as accumulate does. Accumulators Y0–Y7,
// products Y8–Y11, the broadcast value Y15.
TEXT ·spAccum64(SB), NOSPLIT, $0-48
	MOVQ idx+0(FP), SI
	MOVQ val+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ src+24(FP), DI
	MOVQ ld+32(FP), R8
	SHLQ $2, R8
	MOVQ dst+40(FP), DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JZ    store

loop:
	MOVLQSX      (SI), AX
	IMULQ        R8, AX
	ADDQ         DI, AX
	VBROADCASTSS (BX), Y15
	VMULPS       (AX), Y15, Y8
	VADDPS       Y8, Y0, Y0
	VMULPS       32(AX), Y15, Y9
	VADDPS       Y9, Y1, Y1
	VMULPS       64(AX), Y15, Y10
	VADDPS       Y10, Y2, Y2
	VMULPS       96(AX), Y15, Y11
	VADDPS       Y11, Y3, Y3
	VMULPS       128(AX), Y15, Y8
	VADDPS       Y8, Y4, Y4
	VMULPS       160(AX), Y15, Y9
	VADDPS       Y9, Y5, Y5
	VMULPS       192(AX), Y15, Y10
	VADDPS       Y10, Y6, Y6
	VMULPS       224(AX), Y15, Y11
	VADDPS       Y11, Y7, Y7
	ADDQ         $4, SI
	ADDQ         $4, BX
	DECQ         CX
	JNZ          loop

store:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	VMOVUPS Y4, 128(DX)
	VMOVUPS Y5, 160(DX)
	VMOVUPS Y6, 192(DX)
	VMOVUPS Y7, 224(DX)
	VZEROUPPER
	RET

// func relu8(x *float32, n int)
// x[i] = max(0, x[i]) for n elements (a multiple of 8). VMAXPS returns its
// second source when either is NaN or both are zeros, and x is the second
// source here: NaN and −0 stay as they are, as in relu's scalar loop.
TEXT ·relu8(SB), NOSPLIT, $0-16
	MOVQ   x+0(FP), DI
	MOVQ   n+8(FP), CX
	SHRQ   $3, CX
	JZ     reludone
	VXORPS Y1, Y1, Y1

reluloop:
	VMOVUPS (DI), Y0
	VMAXPS  Y0, Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	DECQ    CX
	JNZ     reluloop

reludone:
	VZEROUPPER
	RET

DATA reluone<>+0(SB)/4, $0x3f800000 // 1.0
GLOBL reluone<>(SB), RODATA|NOPTR, $4

// func reluMask8(x, grad, out *float32, n int)
// out[i] = g[i] · m(x[i]) with m = 1 where x ≥ 0 and 0 elsewhere (NaN
// included: the ordered comparison is false) for n elements (a multiple
// of 8): the mask is a compare and an AND, no branch, and the product is
// the same IEEE multiply as ReluMask's Go loop (NaN, −0 and all).
TEXT ·reluMask8(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         grad+8(FP), DX
	MOVQ         out+16(FP), DI
	MOVQ         n+24(FP), CX
	SHRQ         $3, CX
	JZ           rmdone
	VXORPS       Y1, Y1, Y1
	VBROADCASTSS reluone<>(SB), Y2

rmloop:
	VMOVUPS (SI), Y0
	VCMPPS  $0x0D, Y1, Y0, Y3 // x ≥ 0 (ordered)
	VANDPS  Y2, Y3, Y3        // 1 or 0
	VMOVUPS (DX), Y4
	VMULPS  Y3, Y4, Y4        // g · m
	VMOVUPS Y4, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     rmloop

rmdone:
	VZEROUPPER
	RET

// func addScaled8(a float32, x, dst *float32, n int)
// dst[i] += a·x[i] for n elements (a multiple of 8): the product rounded,
// then added (VMULPS, VADDPS: no fused multiply-add), as AddScaled's Go
// loop; 32 elements per iteration while at least 32 remain.
TEXT ·addScaled8(SB), NOSPLIT, $0-32
	VBROADCASTSS a+0(FP), Y15
	MOVQ         x+8(FP), SI
	MOVQ         dst+16(FP), DI
	MOVQ         n+24(FP), CX
	CMPQ         CX, $32
	JLT          as8

as32:
	VMULPS  (SI), Y15, Y0
	VMULPS  32(SI), Y15, Y1
	VMULPS  64(SI), Y15, Y2
	VMULPS  96(SI), Y15, Y3
	VADDPS  (DI), Y0, Y0
	VADDPS  32(DI), Y1, Y1
	VADDPS  64(DI), Y2, Y2
	VADDPS  96(DI), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JGE     as32

as8:
	CMPQ    CX, $8
	JLT     asdone
	VMULPS  (SI), Y15, Y0
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     as8

asdone:
	VZEROUPPER
	RET

// func add8(x, y, dst *float32, n int)
// dst[i] = x[i] + y[i] for n elements (a multiple of 8), as Add's Go
// loop (one IEEE addition each; dst may be x or y).
TEXT ·add8(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DX
	MOVQ dst+16(FP), DI
	MOVQ n+24(FP), CX
	CMPQ CX, $32
	JLT  ad8

ad32:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VADDPS  (DX), Y0, Y0
	VADDPS  32(DX), Y1, Y1
	VADDPS  64(DX), Y2, Y2
	VADDPS  96(DX), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DX
	ADDQ    $128, DI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JGE     ad32

ad8:
	CMPQ    CX, $8
	JLT     addone
	VMOVUPS (SI), Y0
	VADDPS  (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     ad8

addone:
	VZEROUPPER
	RET

// func scale8(a float32, x *float32, n int)
// x[i] *= a for n elements (a multiple of 8), as Scale's Go loop.
TEXT ·scale8(SB), NOSPLIT, $0-24
	VBROADCASTSS a+0(FP), Y15
	MOVQ         x+8(FP), DI
	MOVQ         n+16(FP), CX
	CMPQ         CX, $32
	JLT          sc8

sc32:
	VMULPS  (DI), Y15, Y0
	VMULPS  32(DI), Y15, Y1
	VMULPS  64(DI), Y15, Y2
	VMULPS  96(DI), Y15, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, DI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JGE     sc32

sc8:
	CMPQ    CX, $8
	JLT     scdone
	VMULPS  (DI), Y15, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     sc8

scdone:
	VZEROUPPER
	RET

// func dot4(x, y *float32, n int, s *[4]float64)
// s[j] += Σ float64(x[i])·float64(y[i]) over i ≡ j (mod 4), i < n (n a
// multiple of 4), each sum in increasing i: lane j of one register is
// partial sum j. A product of two float32 is exact in float64, so the
// multiply and add are Dot4's Go loop's operations, in its order.
TEXT ·dot4(SB), NOSPLIT, $0-32
	MOVQ      x+0(FP), SI
	MOVQ      y+8(FP), DX
	MOVQ      n+16(FP), CX
	MOVQ      s+24(FP), DI
	VMOVUPD   (DI), Y0
	SHRQ      $2, CX
	JZ        dotdone

dotloop:
	VCVTPS2PD (SI), Y1
	VCVTPS2PD (DX), Y2
	VMULPD    Y2, Y1, Y1
	VADDPD    Y1, Y0, Y0
	ADDQ      $16, SI
	ADDQ      $16, DX
	DECQ      CX
	JNZ       dotloop

dotdone:
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET

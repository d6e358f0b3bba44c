package kernels

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// fastBLAS is gonum's pure-Go BLAS with Sgemm replaced by a blocked GEMM
// around an assembly micro-kernel: 8×32 with AVX-512 where the CPU has
// it, else 6×16 with AVX2/FMA (sgemm_amd64.s). Layout (GotoBLAS style):
// for each block of kc = 256 along k, A (scaled by alpha) is packed into
// mr-row panels; the nr-column panels of B are shared out in chunks of
// four (forChunks: GOMAXPROCS workers for large products), each chunk packed
// (128 KiB for the tower, in L2) and then, panel by panel (32 KiB, in L1),
// multiplied into every mr×nr tile of C. Partial tiles go through a
// scratch tile. With beta = 0 the first k block overwrites C instead of
// clearing it and adding.
type fastBLAS struct {
	gonum.Implementation
	k microKernel
	// scratch recycles packing buffers (*[]float32) between calls: a
	// prediction makes tens of thousands of small products, whose
	// buffers would otherwise be allocated and cleared every time. Nil:
	// allocate per call.
	scratch *sync.Pool
	// direct: an untransposed B is read in place, not packed, when C has
	// at most this many mr-row blocks (directBlocks; 0: always packed).
	direct int
	// serial: every product on the calling goroutine (SgemmSerial).
	serial bool
}

// buf returns a buffer of at least n floats (contents undefined); give
// it back with release (no closure: nothing allocated per product once
// the pool holds a large enough buffer).
func (fb fastBLAS) buf(n int) *[]float32 {
	var p *[]float32
	if fb.scratch != nil {
		p, _ = fb.scratch.Get().(*[]float32)
	}
	if p == nil || cap(*p) < n {
		s := make([]float32, n)
		p = &s
	}
	return p
}

// release returns a buffer from buf to the pool.
func (fb fastBLAS) release(p *[]float32) {
	if fb.scratch != nil {
		fb.scratch.Put(p)
	}
}

// microKernel computes C[0:mr, 0:nr] (+)= Ap·B for a packed A panel
// (a[p*mr+i]) and nr columns of B with row stride ldb; add selects C += or
// C =. Every element of C is one chain of fused multiply-adds over p in
// order, whatever the kernel, so all kernels give the same results.
type microKernel struct {
	name   string
	mr, nr int
	fn     func(k int, a, b, c *float32, ldc, ldb int, add bool)
	// pf, when not nil, is fn that also prefetches the nr floats after
	// each row of B it reads (the next panel of a B read in place).
	pf func(k int, a, b, c *float32, ldc, ldb int, add bool)
}

const kcBlock = 256

// directBlocks is fastBLAS.direct in use: an untransposed B is read in
// place when C has at most 16 mr-row blocks (a batch of up to 128 rows
// with the AVX-512 kernel). Its panels are then used by few row blocks,
// and packing them cost as much as the product: the tower's forward
// product (64×2,048 by 2,048×1,024) went from 59 to 84 GFLOP per CPU-second
// (BenchmarkTowerGEMM; 53 → 84 with W2 not cached, as after the
// optimizer's step) reading W2 in place with the next panel prefetched.
const directBlocks = 16

// tallBlocks: a C of more mr-row blocks than this, with a packed
// untransposed B, is computed row block by row block across each chunk
// of panels instead of panel by panel.
const tallBlocks = 16

// chunkPanels is the number of B panels a worker packs and computes at a
// time (128 columns for the AVX-512 kernel: a 128 KiB packed chunk for
// kc = 256, read row by row).
const chunkPanels = 4

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (row-major, as gonum).
// Every element of C goes through the same kernel arithmetic whatever its
// position (partial tiles are zero-padded and computed in a scratch tile),
// so a row of the result does not depend on the other rows of the batch:
// a pair's prediction is bit-identical whichever pairs it is predicted with.
func (fb fastBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 || k == 0 || fb.k.fn == nil {
		fb.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// Argument checks as gonum does (panics on misuse, a programmer error).
	checkSgemm(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if beta != 1 && (alpha == 0 || beta != 0) { // alpha ≠ 0, beta = 0: the first k block overwrites C
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			if beta == 0 {
				clear(row)
			} else {
				for j := range row {
					row[j] *= beta
				}
			}
		}
	}
	if alpha == 0 {
		return
	}
	mr, nr, kern := fb.k.mr, fb.k.nr, fb.k.fn
	mPad := (m + mr - 1) / mr * mr
	direct := tB == blas.NoTrans && mPad/mr <= fb.direct
	panels := (n + nr - 1) / nr
	// Column panels are shared out in chunks of chunkPanels (forChunks)
	// when the product is large enough; one chunk otherwise.
	// Scratch: packed A, then per worker the packed B chunk and a partial
	// tile.
	kb := min(kcBlock, k)
	chunk := panels
	if panels >= 4 && mPad*kb*panels*nr >= 1<<20 {
		chunk = min(chunkPanels, (panels+1)/2)
	}
	per := kb*chunk*nr + mr*nr
	nw := 1
	if chunk < panels && !fb.serial {
		h := borrow(min(Workers(), (panels+chunk-1)/chunk) - 1) // the process's budget
		defer giveBack(h)
		nw = 1 + h
	}
	bp := fb.buf(mPad*kb + nw*per)
	defer fb.release(bp)
	buf := (*bp)[:mPad*kb+nw*per]
	ap := buf[:mPad*kb]
	scratch := func(w int) []float32 { return buf[mPad*kb+w*per : mPad*kb+(w+1)*per] }
	for pc := 0; pc < k; pc += kcBlock {
		kc := min(kcBlock, k-pc)
		add := pc > 0 || beta != 0
		// Pack alpha·op(A)[:, pc:pc+kc] into mr-row panels (rows ≥ m are
		// zero): ap[ic*kc + p*mr + ii] = alpha·op(A)[ic+ii, pc+p].
		for ic := 0; ic < mPad; ic += mr {
			dst := ap[ic*kc : (ic+mr)*kc]
			h := min(mr, m-ic)
			if h < mr {
				clear(dst)
			}
			if tA == blas.NoTrans {
				if k8 := kc &^ 7; alpha == 1 && h == 8 && mr == 8 && havePackT8 && k8 > 0 {
					// Eight full rows, alpha 1: a transpose, 8×8
					// blocks in assembly (moves only, the same values).
					_ = a[(ic+7)*lda+pc+k8-1] // bounds: packT8 reads rows ic..ic+7 up to pc+k8
					packT8(&dst[0], &a[ic*lda+pc], lda, k8, mr)
					for ii := 0; ii < h; ii++ {
						i := ic + ii
						for p := k8; p < kc; p++ {
							dst[p*mr+ii] = a[i*lda+pc+p]
						}
					}
					continue
				}
				for ii := 0; ii < h; ii++ {
					i := ic + ii
					for p, v := range a[i*lda+pc : i*lda+pc+kc] {
						dst[p*mr+ii] = alpha * v
					}
				}
				continue
			}
			// op(A) = Aᵀ: the mr values of one p are contiguous in A.
			if alpha == 1 && h == 8 && mr == 8 && havePackT8 {
				_ = a[(pc+kc-1)*lda+ic+7] // bounds: copy8s reads kc rows from row pc
				_ = dst[kc*8-1]
				copy8s(&dst[0], &a[pc*lda+ic], lda, kc)
				continue
			}
			for p := 0; p < kc; p++ {
				src := a[(pc+p)*lda+ic : (pc+p)*lda+ic+h]
				o := dst[p*mr : p*mr+h]
				for ii, v := range src {
					o[ii] = alpha * v
				}
			}
		}
		blk := sgemmBlock{tB: tB, m: m, n: n, kc: kc, pc: pc, mr: mr, nr: nr, mPad: mPad, b: b, ldb: ldb, c: c, ldc: ldc, ap: ap, kern: kern, pf: fb.k.pf, add: add, direct: direct}
		if nw == 1 { // on this goroutine, chunk by chunk (the scratch holds one): nothing escapes (no allocation per product)
			for lo := 0; lo < panels; lo += chunk {
				blk.work(lo, min(lo+chunk, panels), scratch(0))
			}
			continue
		}
		pb := new(sgemmBlock)
		*pb = blk
		forChunks(panels, chunk, nw, func(worker, lo, hi int) {
			pb.work(lo, hi, buf[mPad*kb+worker*per:mPad*kb+(worker+1)*per])
		})
	}
}

// SgemmSerial is Impl().Sgemm computed on the calling goroutine only (for
// callers that share their own work among goroutines, such as
// optim.Adam.StepRows): the same numbers as Impl().Sgemm, element for
// element, since an element's result never depends on which worker
// computes it. With -tags openblas it is OpenBLAS's Sgemm (its threads).
func SgemmSerial(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if fb, ok := impl.(fastBLAS); ok {
		fb.serial = true
		fb.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmBlock is one k block of Sgemm: the packed A (ap) times the rows
// pc..pc+kc of op(B), into C.
type sgemmBlock struct {
	tB           blas.Transpose
	m, n, kc, pc int
	mr, nr, mPad int
	b            []float32
	ldb          int
	c            []float32
	ldc          int
	ap           []float32
	kern, pf     func(k int, a, b, c *float32, ldc, ldb int, add bool)
	add          bool
	direct       bool // untransposed B read in place, not packed
}

// work multiplies into C the column panels lo..hi, with s as scratch
// (packed B and a partial tile).
func (g *sgemmBlock) work(lo, hi int, s []float32) {
	tB, n, kc, pc, mr, nr, mPad := g.tB, g.n, g.kc, g.pc, g.mr, g.nr, g.mPad
	b, ldb := g.b, g.ldb
	// An untransposed B: pack op(B)[pc:pc+kc, panels lo..hi) first,
	// panel-major (bp[(jp−lo)·kc·nr + p·nr + j]), reading B row by
	// row, so the reads are sequential and prefetched (read panel
	// by panel, each row of a panel is on its own page and comes
	// from memory at full latency: 40 % slower with B not cached).
	bp, tile := s[:(hi-lo)*kc*nr], s[len(s)-mr*nr:]
	if tB == blas.NoTrans && !g.direct {
		for p := 0; p < kc; p++ {
			row := b[(pc+p)*ldb : (pc+p)*ldb+n]
			for jp := lo; jp < hi; jp++ {
				jc := jp * nr
				w := min(nr, n-jc)
				dst := bp[(jp-lo)*kc*nr+p*nr : (jp-lo)*kc*nr+p*nr+nr]
				copy(dst, row[jc:jc+w])
				clear(dst[w:])
			}
		}
	}
	if tB == blas.NoTrans && !g.direct && mPad/mr > tallBlocks {
		// A tall C: row block by row block, each across the chunk's
		// packed panels, so C is written a row segment of the whole
		// chunk at a time (its lines are mostly not cached: a weight
		// gradient, last read by the optimizer a step ago) while the
		// A panel stays in L1.
		for ic := 0; ic < mPad; ic += mr {
			for jp := lo; jp < hi; jp++ {
				jc := jp * nr
				g.tile(ic, jc, min(nr, n-jc), &bp[(jp-lo)*kc*nr], nr, tile, false)
			}
		}
		return
	}
	for jp := lo; jp < hi; jp++ {
		jc := jp * nr
		w := min(nr, n-jc)
		bsrc, ld := &bp[(jp-lo)*kc*nr], nr
		switch {
		case g.direct && w == nr:
			// A full panel of an untransposed B, read in place.
			bsrc, ld = &b[pc*ldb+jc], ldb
		case g.direct:
			panel := bp[:kc*nr]
			for p := 0; p < kc; p++ {
				dst := panel[p*nr : p*nr+nr]
				copy(dst, b[(pc+p)*ldb+jc:(pc+p)*ldb+jc+w])
				clear(dst[w:])
			}
			bsrc = &panel[0]
		case tB != blas.NoTrans:
			// A transposed B is packed one panel at a time, just
			// before use (it stays in L1): its reads are four
			// contiguous rows at a time anyway.
			panel := bp[:kc*nr]
			if w < nr {
				clear(panel)
			}
			packTransposed(panel, b[jc*ldb+pc:], ldb, kc, w, nr)
			bsrc = &panel[0]
		}
		for ic := 0; ic < mPad; ic += mr {
			// A full panel read in place fetches the next panel
			// meanwhile, in every row block's call (once is not
			// enough: the lines the first call requests do not all
			// arrive while it runs; 71 → 84 GFLOP per CPU-second on
			// the tower's forward product with W2 not cached).
			pf := ld != nr && g.pf != nil && jc+2*nr <= n
			g.tile(ic, jc, w, bsrc, ld, tile, pf)
		}
	}
}

// tile computes the mr×nr tile of C at row ic, column jc (w of its
// columns inside C) from the packed A and the B panel at bsrc (row stride
// ld), through the scratch tile when it is partial; pf selects the
// prefetching kernel.
func (g *sgemmBlock) tile(ic, jc, w int, bsrc *float32, ld int, tile []float32, pf bool) {
	mr, nr, kc, c, ldc, add := g.mr, g.nr, g.kc, g.c, g.ldc, g.add
	h := min(mr, g.m-ic)
	if h == mr && w == nr {
		if pf {
			g.pf(kc, &g.ap[ic*kc], bsrc, &c[ic*ldc+jc], ldc, ld, add)
			return
		}
		g.kern(kc, &g.ap[ic*kc], bsrc, &c[ic*ldc+jc], ldc, ld, add)
		return
	}
	g.kern(kc, &g.ap[ic*kc], bsrc, &tile[0], nr, ld, false)
	for ii := 0; ii < h; ii++ {
		row := c[(ic+ii)*ldc+jc : (ic+ii)*ldc+jc+w]
		if !add {
			copy(row, tile[ii*nr:ii*nr+w])
			continue
		}
		for jj := range row {
			row[jj] += tile[ii*nr+jj]
		}
	}
}

// packTransposed writes bp[p*nr+j] = b[j*ldb+p] for j < w, p < kc: the
// panel of op(B) = Bᵀ, reading four rows of B at a time so the writes of
// one p are contiguous.
func packTransposed(bp, b []float32, ldb, kc, w, nr int) {
	j := 0
	if k8 := kc &^ 7; havePackT8 && k8 > 0 {
		// Eight rows and a multiple of eight p at a time in assembly;
		// the remaining p of those rows here.
		for ; j+8 <= w; j += 8 {
			_ = b[(j+7)*ldb+kc-1] // bounds: the assembly reads rows j..j+7 up to kc
			_ = bp[(kc-1)*nr+j+7]
			packT8(&bp[j], &b[j*ldb], ldb, k8, nr)
			for p := k8; p < kc; p++ {
				for i := 0; i < 8; i++ {
					bp[p*nr+j+i] = b[(j+i)*ldb+p]
				}
			}
		}
	}
	for ; j+4 <= w; j += 4 {
		r0 := b[j*ldb : j*ldb+kc]
		r1 := b[(j+1)*ldb : (j+1)*ldb+kc]
		r2 := b[(j+2)*ldb : (j+2)*ldb+kc]
		r3 := b[(j+3)*ldb : (j+3)*ldb+kc]
		for p := range r0 {
			o := bp[p*nr+j : p*nr+j+4]
			o[0], o[1], o[2], o[3] = r0[p], r1[p], r2[p], r3[p]
		}
	}
	for ; j < w; j++ {
		for p, v := range b[j*ldb : j*ldb+kc] {
			bp[p*nr+j] = v
		}
	}
}

func checkSgemm(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) {
	rowA, colA := m, k
	if tA != blas.NoTrans {
		rowA, colA = k, m
	}
	rowB, colB := k, n
	if tB != blas.NoTrans {
		rowB, colB = n, k
	}
	switch {
	case lda < max(1, colA), ldb < max(1, colB), ldc < max(1, n):
		panic("kernels: sgemm: bad leading dimension")
	case la < lda*(rowA-1)+colA, lb < ldb*(rowB-1)+colB, lc < ldc*(m-1)+n:
		panic("kernels: sgemm: short slice")
	}
}

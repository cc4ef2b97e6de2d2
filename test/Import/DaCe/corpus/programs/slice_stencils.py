"""NumPy slices with negative and symbolic bounds, as stencils are written:
the 1-D `y[1:-1] = x[:-2] + x[2:]` over an int64 size symbol K, and 2-D
slices `A[1:-1, 2:] + A[:-2, 2:]` whose result DaCe keeps in GPU_Global
transients of shape (M - 2, N - 2) with strides written `-2 + $N` (row-major,
spelled as an expression), read twice and combined with `A[2:, :-2]`; a
third transient of int64-sized shape (K - 2, N - 4) with strides
`-4 + $N`."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')
K = dace.symbol('K', dtype=dace.int64)


@dace.program
def slice_stencils(A: dace.float64[M, N], B: dace.float64[M, N], x: dace.float64[K], y: dace.float64[K],
                   C: dace.float64[K, N], D: dace.float64[K, N]):
    y[1:-1] = x[:-2] + x[2:]
    t = A[1:-1, 2:] + A[:-2, 2:]
    B[1:-1, 2:] = t * t - A[2:, :-2]
    u = C[2:, 4:] - C[:-2, :-4]
    D[1:-1, 2:-2] = u * 0.5 + u


program = slice_stencils
OUTPUTS = ['B', 'y', 'D']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device', transients='Array GPU_Global')


def make_inputs(rng):
    m, n, k = 7, 11, 9
    return dict(A=rng.standard_normal((m, n)), B=np.full((m, n), -1.0), x=rng.standard_normal(k),
                y=np.full(k, 3.0), C=rng.standard_normal((k, n)), D=np.full((k, n), 2.0), M=m, N=n,
                K=np.int64(k))


def reference(inp):
    A, x, C = inp['A'], inp['x'], inp['C']
    B, y, D = inp['B'].copy(), inp['y'].copy(), inp['D'].copy()
    y[1:-1] = x[:-2] + x[2:]
    t = A[1:-1, 2:] + A[:-2, 2:]
    B[1:-1, 2:] = t * t - A[2:, :-2]
    u = C[2:, 4:] - C[:-2, :-4]
    D[1:-1, 2:-2] = u * 0.5 + u
    return dict(B=B, y=y, D=D)

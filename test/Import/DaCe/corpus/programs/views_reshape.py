"""Views (ArrayView descriptors) as NumPy users make them: `B.reshape((M, N))`
written through (a view bound by its out-edge), `np.reshape(A, (N, M))` read
(bound by its in-edge), and an axis reduction into a slice,
`r[1:] = np.sum(A[1:, :], axis=1)`, whose output DaCe binds as a view of
`r[1:M]` (a view that starts at an offset)."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def views_reshape(A: dace.float64[M, N], B: dace.float64[M * N], C: dace.float64[N, M], r: dace.float64[M]):
    Bv = B.reshape((M, N))
    Bv[:] = A * 3.0
    Cv = np.reshape(A, (N, M))
    C[:] = Cv + 1.0
    r[1:] = np.sum(A[1:, :], axis=1)


program = views_reshape
OUTPUTS = ['B', 'C', 'r']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(transients='ArrayView GPU_Global', library_nodes='Reduce')


def make_inputs(rng):
    m, n = 6, 10
    return dict(A=rng.standard_normal((m, n)), B=np.zeros(m * n), C=np.zeros((n, m)), r=np.full(m, 5.0),
                M=m, N=n)


def reference(inp):
    A = inp['A']
    m, n = A.shape
    r = inp['r'].copy()
    r[1:] = np.sum(A[1:, :], axis=1)
    return dict(B=(A * 3.0).reshape(m * n), C=np.reshape(A, (n, m)) + 1.0, r=r)

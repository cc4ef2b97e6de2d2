"""Multi-dimensional GPU maps: a 2-D map over [0:M, 0:N] (grid x = j, y = i)
and a 3-D map over [0:K, 0:M, 0:N] (grid x, y, z), three symbols, index
arithmetic in the tasklets (float64 from int conversions)."""
import dace
import numpy as np

K = dace.symbol('K')
M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def maps_2d_3d(A: dace.float64[M, N], B: dace.float64[M, N], V: dace.float64[K, M, N]):
    for i, j in dace.map[0:M, 0:N]:
        B[i, j] = 2.0 * A[i, j] + i - j
    for k, i, j in dace.map[0:K, 0:M, 0:N]:
        V[k, i, j] = A[i, j] * (k + 1) + 0.5 * j


program = maps_2d_3d
OUTPUTS = ['B', 'V']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=2)


def make_inputs(rng):
    k, m, n = 3, 17, 40
    return dict(A=rng.standard_normal((m, n)), B=np.zeros((m, n)), V=np.zeros((k, m, n)),
                K=k, M=m, N=n)


def reference(inp):
    A = inp['A']
    m, n = A.shape
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    k = np.arange(inp['K'])[:, None, None]
    return dict(B=2.0 * A + i - j, V=A[None] * (k + 1) + 0.5 * j[None])

"""Bandwidth-bound element-wise program (STREAM triad, float32):
A[:] = B + s * C. Meant for >= 64 MiB arrays on a GPU (N >= 16M); the
corpus inputs are small."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def triad_bandwidth(A: dace.float32[N], B: dace.float32[N], C: dace.float32[N], s: dace.float32):
    for i in dace.map[0:N]:
        A[i] = B[i] + s * C[i]


program = triad_bandwidth
OUTPUTS = ['A']
TOLERANCE = dict(rtol=1e-6, atol=1e-6)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device')


def make_inputs(rng):
    n = 4096
    return dict(A=np.zeros(n, np.float32), B=rng.standard_normal(n).astype(np.float32),
                C=rng.standard_normal(n).astype(np.float32), s=np.float32(3.0), N=n)


def reference(inp):
    return dict(A=inp['B'] + inp['s'] * inp['C'])

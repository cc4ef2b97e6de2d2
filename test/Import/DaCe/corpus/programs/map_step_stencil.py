"""Ranges with a step and subsets with offsets: a map over [0:N:2] (step 2,
writes only even elements), a map over [1:N-1:3], and the 1-D stencil
A[1:N-1] = (B[0:N-2] + B[2:N]) / 2 whose memlets have offset subsets
(start 0 and 2, end N-3 and N-1)."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def map_step_stencil(A: dace.float64[N], B: dace.float64[N], E: dace.float64[N]):
    A[1:N - 1] = (B[0:N - 2] + B[2:N]) / 2
    for i in dace.map[0:N:2]:
        E[i] = B[i] * 10.0
    for i in dace.map[1:N - 1:3]:
        E[i] = B[i - 1] - B[i + 1]


program = map_step_stencil
OUTPUTS = ['A', 'E']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device', copies=1)


def make_inputs(rng):
    n = 301
    return dict(A=np.full(n, -1.0), B=rng.standard_normal(n), E=np.full(n, 7.0), N=n)


def reference(inp):
    A, B, E = inp['A'].copy(), inp['B'], inp['E'].copy()
    n = len(B)
    A[1:n - 1] = (B[0:n - 2] + B[2:n]) / 2
    E[0:n:2] = B[0:n:2] * 10.0
    idx = np.arange(1, n - 1, 3)
    E[idx] = B[idx - 1] - B[idx + 1]
    return dict(A=A, E=E)

"""NestedSDFGs two deep inside a GPU map: the map over the rows of `A`
calls `row_update` on the row `A[i]`, which loops over its elements and
calls `relax` on each, which holds an `if` and a loop. Each call stays a
NestedSDFG (control flow in a map body cannot be inlined into the map); on
the GPU both are inlined into the kernel."""
import dace
import numpy as np

N = dace.symbol('N')
M = dace.symbol('M')
K = dace.symbol('K')


@dace.program
def relax(v: dace.float64[1]):
    if v[0] > 1.0:
        for k in range(K):
            v[0] = v[0] * 0.5
    else:
        v[0] = v[0] + 0.25


@dace.program
def row_update(r: dace.float64[M]):
    for j in range(M):
        relax(r[j:j + 1], K=K)
        if j > 0:
            r[j] = r[j] + r[j - 1] * 0.125


@dace.program
def nested_deep(A: dace.float64[N, M]):
    for i in dace.map[0:N]:
        row_update(A[i], K=K)


program = nested_deep
OUTPUTS = ['A']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(nested_sdfgs=2, max_gpu_maps_per_state=1)


def make_inputs(rng):
    n, m = 40, 12
    return dict(A=rng.uniform(-2.0, 6.0, (n, m)), N=n, M=m, K=3)


def reference(inp):
    A = inp['A'].copy()
    for i in range(A.shape[0]):
        r = A[i]
        for j in range(A.shape[1]):
            if r[j] > 1.0:
                for _ in range(inp['K']):
                    r[j] = r[j] * 0.5
            else:
                r[j] = r[j] + 0.25
            if j > 0:
                r[j] = r[j] + r[j - 1] * 0.125
    return dict(A=A)

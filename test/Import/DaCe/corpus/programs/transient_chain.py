"""A GPU_Global transient array between two maps (the second reads it
reversed, so the maps cannot be fused) and a transient scalar (s = A[0] * 2,
used by the second map), all in one state after the copy-in."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def transient_chain(A: dace.float64[N], B: dace.float64[N]):
    tmp = np.empty_like(A)
    for i in dace.map[0:N]:
        tmp[i] = A[i] * A[i]
    s = A[0] * 2.0
    for i in dace.map[0:N]:
        B[i] = tmp[N - 1 - i] + s


program = transient_chain
OUTPUTS = ['B']
TOLERANCE = dict(rtol=1e-12, atol=0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(transients='Array GPU_Global', max_gpu_maps_per_state=2)


def make_inputs(rng):
    n = 333
    return dict(A=rng.standard_normal(n), B=np.zeros(n), N=n)


def reference(inp):
    A = inp['A']
    return dict(B=(A * A)[::-1] + A[0] * 2.0)

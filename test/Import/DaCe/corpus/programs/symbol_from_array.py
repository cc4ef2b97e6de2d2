"""Interstate assignments of symbols from array values: n = idx[0] and
k = idx[1] read from an int32 array (interstate edge assignments that index
an array), then a loop `for i in range(n)` (LoopRegion bounded by the symbol)
whose body uses k and i in subsets (B[i] = A[k + i])."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def symbol_from_array(A: dace.float64[N], B: dace.float64[N], idx: dace.int32[2]):
    n = idx[0]
    k = idx[1]
    for i in range(n):
        B[i] = A[k + i] * 2.0


program = symbol_from_array
OUTPUTS = ['B']
TOLERANCE = dict(rtol=1e-12, atol=0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(LoopRegion=1, interstate_assignments='idx[0]')


def make_inputs(rng):
    n = 50
    return dict(A=rng.standard_normal(n), B=np.zeros(n), idx=np.array([20, 7], np.int32), N=n)


def reference(inp):
    B = inp['B'].copy()
    n, k = inp['idx']
    B[:n] = inp['A'][k:k + n] * 2.0
    return dict(B=B)

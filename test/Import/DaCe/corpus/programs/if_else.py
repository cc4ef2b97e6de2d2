"""Branches on GPU-computed scalars: total = np.sum(A) (a Reduce on the
GPU); `if total > 0: ... else: ...` and `if total > 1e6: ... else: ...`
(ConditionalBlocks with an else branch; with the inputs the first takes
its then-branch and the second its else-branch)."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def if_else(A: dace.float64[N], B: dace.float64[N], C: dace.float64[N]):
    total = np.sum(A)
    if total > 0:
        B[:] = A * 2.0
    else:
        B[:] = -A
    if total > 1e6:
        C[:] = A + 1.0
    else:
        C[:] = A - total


program = if_else
OUTPUTS = ['B', 'C']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(ConditionalBlock=2, library_nodes='Reduce')


def make_inputs(rng):
    n = 100
    return dict(A=rng.uniform(-0.5, 1.0, n), B=np.zeros(n), C=np.zeros(n), N=n)


def reference(inp):
    A = inp['A']
    total = A.sum()
    B = A * 2.0 if total > 0 else -A
    C = A + 1.0 if total > 1e6 else A - total
    return dict(B=B, C=C)

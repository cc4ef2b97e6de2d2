"""A while loop whose condition reads a value computed on the GPU:
`while err > tol:` around a map (B = sqrt(A)), a max-reduction producing err
(np.max of |B - A|, a Reduce library node) and a copy A[:] = B, with an
iteration counter it (a transient scalar incremented in the loop) written to
iters[0] at the end. sqrt iterates towards 1, so the loop ends after a few
tens of iterations."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def while_converge(A: dace.float64[N], tol: dace.float64, iters: dace.int32[1]):
    B = np.empty_like(A)
    err = tol + 1.0
    it = 0
    while err > tol:
        for i in dace.map[0:N]:
            B[i] = np.sqrt(A[i])
        err = np.max(np.abs(B - A))
        A[:] = B
        it = it + 1
    iters[0] = it


program = while_converge
OUTPUTS = ['A', 'iters']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(LoopRegion=1, library_nodes='Reduce', interstate_assignments=2)


def make_inputs(rng):
    n = 200
    return dict(A=rng.uniform(0.1, 100.0, n), tol=1e-6, iters=np.zeros(1, np.int32), N=n)


def reference(inp):
    A = inp['A'].copy()
    tol = inp['tol']
    err = tol + 1.0
    it = 0
    while err > tol:
        B = np.sqrt(A)
        err = np.max(np.abs(B - A))
        A = B
        it += 1
    return dict(A=A, iters=np.array([it], np.int32))

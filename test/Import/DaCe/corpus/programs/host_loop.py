"""A host loop around GPU maps: for t in range(T) (a LoopRegion with
loop_variable t, init t = 0, condition t < T, update t = t + 1) whose body
runs two dependent stencil maps and copies the result into row t of H (the
loop variable in a copy's subset: H[t, :] = A)."""
import dace
import numpy as np

N = dace.symbol('N')
T = dace.symbol('T')


@dace.program
def host_loop(A: dace.float64[N], B: dace.float64[N], H: dace.float64[T, N]):
    for t in range(T):
        for i in dace.map[1:N - 1]:
            B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0
        for i in dace.map[1:N - 1]:
            A[i] = (B[i - 1] + B[i] + B[i + 1]) / 3.0 + t
        H[t, :] = A


program = host_loop
OUTPUTS = ['A', 'B', 'H']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(LoopRegion=1, max_gpu_maps_per_state=2)


def make_inputs(rng):
    n, t = 64, 5
    return dict(A=rng.standard_normal(n), B=np.zeros(n), H=np.zeros((t, n)), N=n, T=t)


def reference(inp):
    A, B, H = inp['A'].copy(), inp['B'].copy(), inp['H'].copy()
    n = len(A)
    for t in range(inp['T']):
        B[1:n - 1] = (A[0:n - 2] + A[1:n - 1] + A[2:n]) / 3.0
        A[1:n - 1] = (B[0:n - 2] + B[1:n - 1] + B[2:n]) / 3.0 + t
        H[t] = A
    return dict(A=A, B=B, H=H)

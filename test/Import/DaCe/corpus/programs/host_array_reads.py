"""Host code reading a host array that GPU work writes, the caller's array:
`while res[0] > tol:` around a GPU map, a max-reduction into res[0] and a
copy A[:] = B, then `if res[0] * 2.0 > tol:` choosing what goes to out.
res is an argument in host memory; DaCe's GPU transformation gives it a GPU
copy and copies it back for the conditions. A caller that passes res in
pinned memory (check.py --pinned-host) gets that copy back asynchronously:
only a host sync between the copy and the read makes the conditions see
the value the GPU computed (the class spcl/dace#2120 is about)."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def host_array_reads(A: dace.float64[N], tol: dace.float64, res: dace.float64[1],
                     iters: dace.int32[1], out: dace.float64[N]):
    B = np.empty_like(A)
    res[0] = tol + 1.0
    it = 0
    while res[0] > tol:
        for i in dace.map[0:N]:
            B[i] = np.sqrt(A[i])
        res[0] = np.max(np.abs(B - A))
        A[:] = B
        it = it + 1
    iters[0] = it
    if res[0] * 2.0 > tol:
        out[:] = A + 1.0
    else:
        out[:] = A - 1.0


program = host_array_reads
OUTPUTS = ['A', 'res', 'iters', 'out']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(LoopRegion=1, ConditionalBlock=1, library_nodes='Reduce')


def make_inputs(rng):
    n = 200
    return dict(A=rng.uniform(0.1, 100.0, n), tol=1e-6, res=np.zeros(1),
                iters=np.zeros(1, np.int32), out=np.zeros(n), N=n)


def reference(inp):
    A = inp['A'].copy()
    tol = inp['tol']
    res = tol + 1.0
    it = 0
    while res > tol:
        B = np.sqrt(A)
        res = np.max(np.abs(B - A))
        A = B
        it += 1
    out = A + 1.0 if res * 2.0 > tol else A - 1.0
    return dict(A=A, res=np.array([res]), iters=np.array([it], np.int32), out=out)

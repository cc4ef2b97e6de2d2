"""A CPU-only program (GPU_TRANSFORM = False): Sequential maps
(dace.map[...] @ dace.ScheduleType.Sequential), a CPU_Multicore (default)
map, and a host loop for t in range(T) (LoopRegion) around them; all storage
is host (Default / CPU_Heap)."""
import dace
import numpy as np

N = dace.symbol('N')
T = dace.symbol('T')


@dace.program
def cpu_sequential(A: dace.float64[N], B: dace.float64[N], S: dace.int64[T]):
    for t in range(T):
        for i in dace.map[0:N] @ dace.ScheduleType.Sequential:
            B[i] = A[i] * 0.5 + t
        for i in dace.map[0:N]:
            A[i] = B[i] - 1.0
        S[t] = N * t


program = cpu_sequential
OUTPUTS = ['A', 'B', 'S']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(LoopRegion=1, maps='Sequential', storages=lambda s: not any('GPU' in x for x in s))
GPU_TRANSFORM = False


def make_inputs(rng):
    n, t = 100, 4
    return dict(A=rng.standard_normal(n), B=np.zeros(n), S=np.zeros(t, np.int64), N=n, T=t)


def reference(inp):
    A, B = inp['A'].copy(), inp['B'].copy()
    S = inp['S'].copy()
    n = len(A)
    for t in range(inp['T']):
        B = A * 0.5 + t
        A = B - 1.0
        S[t] = n * t
    return dict(A=A, B=B, S=S)

"""A dependent pair of GPU maps on different streams: map 1 writes the
GPU_Global transient T (a K-iteration chain per element in a tasklet's `for`
loop, as in independent_maps); T fans out to two consumer maps (Y = T plus
another K-iteration chain, Z = T * 2), so in DaCe's stream assignment one
consumer gets T's stream and the other a new one, with an event on the edge
T -> consumer. The chains add 1.0 (and 2.0) per iteration: exact in float32
for integer inputs below 2^24 - K, so a result is either right or read a T
that map 1 had not written (which the ordering test on the GPU needs to
tell apart; a contracting chain would make every T alike). N and K are
symbols; the arrays are GPU_Global arguments (no copies in the program)."""
import dace
import numpy as np

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def dependent_maps(X: dace.float32[N] @ dace.StorageType.GPU_Global,
                   Y: dace.float32[N] @ dace.StorageType.GPU_Global,
                   Z: dace.float32[N] @ dace.StorageType.GPU_Global):
    T = np.empty_like(X)
    for i in dace.map[0:N]:
        with dace.tasklet:
            xin << X[i]
            tout >> T[i]
            x = xin
            for k in range(K):
                x = x + dace.float32(1.0)
            tout = x
    for i in dace.map[0:N]:
        with dace.tasklet:
            tin << T[i]
            yout >> Y[i]
            y = tin
            for k in range(K):
                y = y + dace.float32(2.0)
            yout = y
    for i in dace.map[0:N]:
        Z[i] = T[i] * np.float32(2.0)


program = dependent_maps
OUTPUTS = ['Y', 'Z']
TOLERANCE = dict(rtol=0, atol=0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=3, nested_sdfgs=0, transients='Array GPU_Global')


def make_inputs(rng):
    n, k = 512, 50
    return dict(X=rng.integers(0, 1000, n).astype(np.float32), Y=np.zeros(n, np.float32),
                Z=np.zeros(n, np.float32), N=n, K=k)


def reference(inp):
    t = inp['X'] + np.float32(inp['K'])
    return dict(Y=t + np.float32(2 * inp['K']), Z=t * np.float32(2.0))

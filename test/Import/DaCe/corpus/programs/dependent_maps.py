"""A dependent pair of GPU maps on different streams: map 1 writes the
GPU_Global transient T (K-iteration FMA chain per element in a tasklet's
`for` loop, as in independent_maps); T fans out to two consumer maps (Y = heavy(T),
Z = T * 2), so in DaCe's stream assignment one consumer gets T's stream and
the other a new one, with an event on the edge T -> consumer. N and K are
symbols."""
import dace
import numpy as np

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def dependent_maps(X: dace.float32[N], Y: dace.float32[N], Z: dace.float32[N]):
    T = np.empty_like(X)
    for i in dace.map[0:N]:
        with dace.tasklet:
            xin << X[i]
            tout >> T[i]
            x = xin
            for k in range(K):
                x = x * dace.float32(0.999) + dace.float32(0.001)
            tout = x
    for i in dace.map[0:N]:
        with dace.tasklet:
            tin << T[i]
            yout >> Y[i]
            y = tin
            for k in range(K):
                y = y * dace.float32(0.998) + dace.float32(0.002)
            yout = y
    for i in dace.map[0:N]:
        Z[i] = T[i] * np.float32(2.0)


program = dependent_maps
OUTPUTS = ['Y', 'Z']
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=3, nested_sdfgs=0, transients='Array GPU_Global')


def make_inputs(rng):
    n, k = 512, 50
    return dict(X=rng.standard_normal(n).astype(np.float32), Y=np.zeros(n, np.float32),
                Z=np.zeros(n, np.float32), N=n, K=k)


def reference(inp):
    t = inp['X'].copy()
    for _ in range(inp['K']):
        t = t * np.float32(0.999) + np.float32(0.001)
    y = t.copy()
    for _ in range(inp['K']):
        y = y * np.float32(0.998) + np.float32(0.002)
    return dict(Y=y, Z=t * np.float32(2.0))

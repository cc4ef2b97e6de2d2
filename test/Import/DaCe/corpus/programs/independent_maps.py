"""Two independent GPU maps in one state, for stream concurrency: X and Y
are each updated by a map whose element runs K iterations of an FMA chain
(an inner sequential `for k in range(K)`, a nested SDFG with a LoopRegion
inside the GPU_Device map). N and K are symbols, so a GPU test can pick
sizes that run about 1 ms per map on an H100 (e.g. N = 1 << 20,
K = 2000; to be measured); make_inputs is small."""
import dace
import numpy as np

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def independent_maps(X: dace.float32[N], Y: dace.float32[N]):
    for i in dace.map[0:N]:
        x = X[i]
        for k in range(K):
            x = x * np.float32(0.999) + np.float32(0.001)
        X[i] = x
    for i in dace.map[0:N]:
        y = Y[i]
        for k in range(K):
            y = y * np.float32(0.998) + np.float32(0.002)
        Y[i] = y


program = independent_maps
OUTPUTS = ['X', 'Y']
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=2, nested_sdfgs=2, LoopRegion=2)


def make_inputs(rng):
    n, k = 512, 50
    return dict(X=rng.standard_normal(n).astype(np.float32),
                Y=rng.standard_normal(n).astype(np.float32), N=n, K=k)


def reference(inp):
    x, y = inp['X'].copy(), inp['Y'].copy()
    for _ in range(inp['K']):
        x = x * np.float32(0.999) + np.float32(0.001)
        y = y * np.float32(0.998) + np.float32(0.002)
    return dict(X=x, Y=y)

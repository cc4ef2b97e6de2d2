"""A sequential loop written in a GPU map's body, outside any tasklet: DaCe
makes the body a NestedSDFG (with a LoopRegion inside) in the GPU_Device
map, which the importer inlines into the kernel (scalar connectors: the
element read by value, the element written through a view; the symbol
mapping gives the nested SDFG K)."""
import dace
import numpy as np

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def map_inner_loop(X: dace.float32[N]):
    for i in dace.map[0:N]:
        x = X[i]
        for k in range(K):
            x = x * np.float32(0.999) + np.float32(0.001)
        X[i] = x


program = map_inner_loop
OUTPUTS = ['X']
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=1, nested_sdfgs=1)


def make_inputs(rng):
    n, k = 256, 20
    return dict(X=rng.standard_normal(n).astype(np.float32), N=n, K=k)


def reference(inp):
    x = inp['X'].copy()
    for _ in range(inp['K']):
        x = x * np.float32(0.999) + np.float32(0.001)
    return dict(X=x)
